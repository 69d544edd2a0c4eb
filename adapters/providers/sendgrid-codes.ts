import { account, message, transient, type CodeMeaning } from './vendor-codes.ts';

/**
 * SendGrid v3 Mail Send errors (twilio.com/docs/sendgrid/api-reference/mail-send, "Errors") in our terms.
 * SendGrid has no numeric error codes: the HTTP status and the `errors[].field` that failed decide.
 * 429 and 5xx are retried by the shared HTTP reading (null here).
 */
export function sendgridMeaning(status: number, fields: readonly string[], detail: string): CodeMeaning | null {
  if (status === 401) return account('AUTH_FAILED'); // the API key is wrong or revoked
  if (status === 403) {
    if (/credit/i.test(detail)) return account('VENDOR_BALANCE'); // "Maximum credits exceeded"
    return /sender|from/i.test(detail) ? account('INVALID_SENDER') : account('AUTH_FAILED'); // unverified sender; key without mail.send
  }
  if (status === 413) return message('PAYLOAD_TOO_LARGE');
  if (status === 400 && fields.some((f) => /^personalizations\.\d+\.to/.test(f))) return message('INVALID_ADDRESS');
  if (status === 400 && fields.some((f) => f === 'from' || f.startsWith('from.'))) return account('INVALID_SENDER');
  if (status === 429) return transient('RATE_LIMITED');
  return null;
}
