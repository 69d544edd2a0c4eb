import type { VendorAnswer, VendorFailure } from './ghana-sms-http.ts';

/**
 * How a vendor's refusal is classified (docs/providers.md, "What is classified how"; docs/failover.md):
 * - TRANSIENT: timeouts, 5xx, throttling (whatever HTTP status carries it): next provider, retried later;
 * - ACCOUNT: the vendor refused our account (authentication, sender not valid for the account, vendor
 *   balance exhausted, account suspended or restricted): next provider, counted against this
 *   provider's circuit, retried later when no provider is left;
 * - MESSAGE: the recipient (invalid number, opted out, blocked, dead device token) or the content:
 *   the message ends (FAILED, refunded).
 * Each vendor keeps its table in a small module next to its adapter (`<vendor>-codes.ts`); the same
 * table reads its create-time answers and its delivery reports.
 */
export type FailureScope = 'TRANSIENT' | 'ACCOUNT' | 'MESSAGE';

/** One vendor code in our terms: the normalized error code and its scope. */
export interface CodeMeaning {
  readonly code: string;
  readonly scope: FailureScope;
}

export const transient = (code: string): CodeMeaning => ({ code, scope: 'TRANSIENT' });
export const account = (code: string): CodeMeaning => ({ code, scope: 'ACCOUNT' });
export const message = (code: string): CodeMeaning => ({ code, scope: 'MESSAGE' });

/**
 * Normalized codes that always mean our account, whichever vendor or reading (HTTP 401/403/402, a
 * vendor's text) produced them: a failure with one of them fails over.
 */
export const ACCOUNT_CODES: ReadonlySet<string> = new Set([
  'AUTH_FAILED', 'INVALID_SENDER', 'VENDOR_BALANCE', 'ACCOUNT_SUSPENDED', 'ACCOUNT_RESTRICTED', 'REGION_NOT_ENABLED',
  'CONFIG_INVALID', 'TEMPLATE_NOT_CONFIGURED',
]);

/**
 * The failure for a classified vendor code: "<label>: <code words> (HTTP 400, Meta code 80007)
 * (retry after 30 s): <detail>". The vendor code wins over the HTTP status that carried it.
 */
export function classifiedFailure(label: string, meaning: CodeMeaning, answer: Pick<VendorAnswer, 'status' | 'headers'> | null, codeText: string, detail: string): VendorFailure {
  const retryable = meaning.scope === 'TRANSIENT';
  const where = [answer ? `HTTP ${answer.status}` : null, codeText || null].filter(Boolean).join(', ');
  const retryAfter = retryable && answer ? retryAfterText(answer.headers) : '';
  const text = `${label}: ${meaning.code.toLowerCase().replaceAll('_', ' ')}${where ? ` (${where})` : ''}${retryAfter}${detail ? `: ${detail}` : ''}`;
  return { accepted: false, retryable, errorCode: meaning.code, errorMessage: text, ...(meaning.scope === 'ACCOUNT' ? { accountLevel: true } : {}) };
}

function retryAfterText(headers: Headers): string {
  const value = headers.get('retry-after')?.trim();
  if (!value) return '';
  return /^\d+$/.test(value) ? ` (retry after ${value} s)` : ` (retry after ${value.slice(0, 40)})`;
}
