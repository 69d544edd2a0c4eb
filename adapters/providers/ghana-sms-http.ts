import { AppError } from '../../core/errors.ts';
import type { ProviderResult } from '../../core/ports/channel-provider.ts';
import type { ProviderHealth } from '../../core/ports/vendor-adapter.ts';
import { tenantEgress } from '../egress/tenant-egress-scope.ts';
import { ACCOUNT_CODES } from './vendor-codes.ts';

/**
 * HTTP plumbing shared by the Ghanaian SMS adapters (Arkesel, Hubtel, mNotify): one call with a
 * timeout, and the reading of vendor answers into failures whose messages never carry credentials
 * (no URLs, which carry mNotify's key; no headers; vendor text with every secret blanked out).
 */

export type VendorFailure = Extract<ProviderResult, { accepted: false }>;

export interface VendorAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON body; null when the body is empty or not JSON. */
  json: unknown;
  latencyMs: number;
}

export type VendorCall = { ok: true; answer: VendorAnswer } | { ok: false; failure: VendorFailure; latencyMs: number };

export interface VendorRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/**
 * One HTTP call with a timeout covering the whole exchange. Never throws. An own vendor account's call
 * (tenant-egress-scope.ts) goes through the egress policy: host allow-list, checked and pinned address,
 * no redirects; a refusal fails permanently with ENDPOINT_REFUSED before any connection.
 */
export async function callVendor(label: string, url: URL, request: VendorRequest, timeoutMs: number): Promise<VendorCall> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const egress = tenantEgress();
  if (egress) {
    const outcome = await egress.policy.fetch(url.href, { ...request, timeoutMs, keepAlive: true }, egress.vendor);
    if (outcome.kind === 'answer') {
      const { response } = outcome;
      return { ok: true, answer: { status: response.status, headers: response.headers, json: parseJson(response.body.toString('utf8')), latencyMs: elapsed() } };
    }
    const failure = outcome.kind === 'refused'
      ? (outcome.refusal.retryable ? vendorFailure(true, 'VENDOR_UNAVAILABLE', `${label}: ${outcome.refusal.reason}`)
        : vendorFailure(false, 'ENDPOINT_REFUSED', `${label}: endpoint refused by the egress policy (${outcome.refusal.reason})`))
      : outcome.kind === 'timeout' ? vendorFailure(true, 'TIMEOUT', `${label}: no answer within ${timeoutMs} ms`)
        : vendorFailure(true, 'VENDOR_UNAVAILABLE', `${label}: network error (${outcome.code})`);
    return { ok: false, failure, latencyMs: elapsed() };
  }
  try {
    const response = await fetch(url, { ...request, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    return { ok: true, answer: { status: response.status, headers: response.headers, json: parseJson(text), latencyMs: elapsed() } };
  } catch (error) {
    const timedOut = error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const failure = timedOut
      ? vendorFailure(true, 'TIMEOUT', `${label}: no answer within ${timeoutMs} ms`)
      : vendorFailure(true, 'VENDOR_UNAVAILABLE', `${label}: network error (${networkCode(error)})`);
    return { ok: false, failure, latencyMs: elapsed() };
  }
}

/** A failure; a permanent one with an account code (vendor-codes.ts ACCOUNT_CODES) is marked account-level: it fails over. */
export function vendorFailure(retryable: boolean, errorCode: string, errorMessage: string): VendorFailure {
  const accountLevel = !retryable && ACCOUNT_CODES.has(errorCode);
  return { accepted: false, retryable, errorCode, errorMessage, ...(accountLevel ? { accountLevel } : {}) };
}

export function isSuccess(answer: VendorAnswer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

/**
 * The failure for a vendor error answer. 429, 408 and 5xx are retryable whatever the body says;
 * otherwise `specific` (the vendor's own code mapping) wins, then 401/403 AUTH_FAILED, 402
 * VENDOR_BALANCE, then a reading of the vendor's message, then VENDOR_REJECTED.
 */
export function httpFailure(label: string, answer: VendorAnswer, detail: string, specific: string | null = null): VendorFailure {
  const { status } = answer;
  const suffix = detail ? `: ${detail}` : '';
  if (status === 429) return vendorFailure(true, 'RATE_LIMITED', `${label}: rate limited (HTTP 429)${retryAfterNote(answer.headers)}${suffix}`);
  if (status === 408) return vendorFailure(true, 'TIMEOUT', `${label}: request timed out at the vendor (HTTP 408)${suffix}`);
  if (status >= 500) return vendorFailure(true, 'VENDOR_UNAVAILABLE', `${label}: vendor unavailable (HTTP ${status})${retryAfterNote(answer.headers)}${suffix}`);
  const code = specific
    ?? (status === 401 || status === 403 ? 'AUTH_FAILED' : status === 402 ? 'VENDOR_BALANCE' : codeFromText(detail) ?? 'VENDOR_REJECTED');
  return vendorFailure(false, code, `${label}: ${code.toLowerCase().replaceAll('_', ' ')} (HTTP ${status})${suffix}`);
}

/** A normalized code guessed from a vendor's error text, for vendors whose error codes are undocumented. */
export function codeFromText(text: string): string | null {
  if (/api[ _-]?key|auth|unauthori[sz]ed|credential/i.test(text)) return 'AUTH_FAILED';
  if (/balance|credit|fund|payment required/i.test(text)) return 'VENDOR_BALANCE';
  if (/sender/i.test(text)) return 'INVALID_SENDER';
  if (/recipient|number|msisdn|phone|destination/i.test(text)) return 'INVALID_NUMBER';
  return null;
}

/** " (retry after 30 s)" from a Retry-After header (seconds or HTTP date), else "". */
export function retryAfterNote(headers: Headers): string {
  const value = headers.get('retry-after')?.trim();
  if (!value) return '';
  return /^\d+$/.test(value) ? ` (retry after ${value} s)` : ` (retry after ${value.slice(0, 40)})`;
}

/** Vendor-supplied text made safe to keep: every secret blanked, whitespace collapsed, bounded. */
export function vendorText(value: unknown, secrets: readonly string[]): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  let text = String(value);
  for (const secret of secrets) if (secret) text = text.split(secret).join('[redacted]');
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** The answer turned into the error a status poll throws (the poller logs it and carries on). */
export function pollError(failure: VendorFailure): AppError {
  return new AppError('PROVIDER_UNAVAILABLE', failure.errorMessage, { errorCode: failure.errorCode }, { retryable: failure.retryable });
}

export function unhealthy(latencyMs: number, detail: string): ProviderHealth {
  return { ok: false, latencyMs, detail, balance: null };
}

/** Ghanaian gateways want international digits without the '+': '+233241234567' -> '233241234567'. */
export function internationalDigits(e164: string): string {
  return e164.replace(/^\+/, '');
}

export function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A field of a vendor record whatever its case (`messageId`, `MessageId`, `messageid`): vendors' older APIs answer in PascalCase. */
export function field(record: Record<string, unknown>, name: string): unknown {
  if (name in record) return record[name];
  const lower = name.toLowerCase();
  const key = Object.keys(record).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : record[key];
}

export function asString(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  return typeof value === 'number' ? String(value) : null;
}

/** A number from a JSON number or a numeric string ('1,204.50'); null otherwise. */
export function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const cleaned = value.replace(/[^0-9.-]/g, '');
  const parsed = cleaned === '' ? Number.NaN : Number(cleaned);
  return Number.isFinite(parsed) ? parsed : null;
}

/** A vendor timestamp; ones without a zone are read as UTC (Ghana keeps GMT all year). */
export function vendorTime(value: unknown): Date | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim().replace(' ', 'T');
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try { return JSON.parse(text) as unknown; } catch { return null; }
}

/** Only the system error code (ECONNREFUSED ...), never the error text, which could hold a URL. */
function networkCode(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = cause && typeof cause.code === 'string' ? cause.code : null;
  return code && /^[A-Z0-9_]+$/.test(code) ? code : 'request failed';
}
