import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { MAX_ALLOWED_RANGES, parseIpRange } from '../../domain/ip-range.ts';

/** `allowedCidrs` of POST /api-keys and PATCH /api-keys/:id: IPv4/IPv6 ranges or single addresses, at most 20 (empty: any address). */
export const AllowedCidrsField = v.pipe(
  v.array(v.pipe(v.string('must be an array of address ranges such as 203.0.113.0/24'), v.maxLength(64, 'an address range is at most 64 characters')),
    'must be an array of address ranges such as 203.0.113.0/24'),
  v.maxLength(MAX_ALLOWED_RANGES, `must list at most ${MAX_ALLOWED_RANGES} address ranges`),
);

/**
 * The canonical, de-duplicated ranges (core/domain/ip-range.ts), in the given order. Throws
 * VALIDATION_ERROR with one `fieldErrors.allowedCidrs` message per range that is not one.
 */
export function canonicalAllowedCidrs(list: readonly string[]): string[] {
  const ranges: string[] = [];
  const errors: string[] = [];
  for (const raw of list) {
    const parsed = parseIpRange(raw);
    if ('error' in parsed) errors.push(parsed.error);
    else if (!ranges.includes(parsed.range)) ranges.push(parsed.range);
  }
  if (errors.length > 0) throw new AppError('VALIDATION_ERROR', errors[0]!, { fieldErrors: { allowedCidrs: errors }, formErrors: [] });
  return ranges;
}
