import { AppError } from '../../../core/errors.ts';

/**
 * PostgreSQL text cannot hold NUL (U+0000): a string with one reaching a query fails there as a 500.
 * Requests are checked once, before any handler runs: a NUL in a path parameter answers 404 NOT_FOUND
 * (no such record can exist), in the query or the body 400 VALIDATION_ERROR naming the field. Raw
 * bodies (signed vendor and gateway callbacks, read before their signature is checked) are refused when
 * they carry a NUL byte, a JSON `\u0000` escape or a URL-encoded `%00`.
 */
export function refuseNul(input: { params: Record<string, string> | undefined; query: Record<string, unknown>; body: unknown }): void {
  for (const [name, value] of Object.entries(input.params ?? {})) {
    if (typeof value === 'string' && value.includes('\u0000')) throw new AppError('NOT_FOUND', `No record matches this ${name}`);
  }
  const inQuery = nulField(input.query);
  if (inQuery !== null) throw invalid(inQuery);
  if (Buffer.isBuffer(input.body)) {
    if (input.body.includes(0) || /\\u0000|%00/i.test(input.body.toString('latin1'))) throw invalid(null);
    return;
  }
  const inBody = nulField(input.body);
  if (inBody !== null) throw invalid(inBody);
}

const MAX_DEPTH = 64;

/** The top-level field holding a NUL in a key or a string value ('' for the value itself), or null. */
function nulField(value: unknown, depth = 0, top: string | null = null): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? (top ?? '') : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    const field = top ?? key;
    if (key.includes('\u0000')) return field;
    const found = nulField(item, depth + 1, field);
    if (found !== null) return found;
  }
  return null;
}

function invalid(field: string | null): AppError {
  const message = 'must not contain the NUL character (U+0000)';
  return new AppError('VALIDATION_ERROR', field ? `${field} ${message}` : `The request ${message}`,
    { fieldErrors: field ? { [field]: [message] } : {}, formErrors: field ? [] : [`The request ${message}`] });
}
