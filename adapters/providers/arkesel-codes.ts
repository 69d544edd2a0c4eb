import { account, message, transient, type CodeMeaning } from './vendor-codes.ts';

/**
 * Arkesel's answer codes in our terms. v2 (`/api/v2/sms/send`) answers `{ "status": "success", "data": [...] }`
 * or an HTTP error (402 balance, 403 key, 422 validation); the older v1 (`/sms/api?action=send-sms`)
 * answers HTTP 200 with `{ "code": "ok", "message": "Successfully Send", "balance", "user" }` or a numbered
 * `code` (developers.arkesel.com, SMS API v1 "Response codes"), read through this table.
 */
export const ARKESEL_V1_CODES: Readonly<Record<string, CodeMeaning>> = {
  100: transient('VENDOR_UNAVAILABLE'), // Bad gateway request
  101: message('INVALID_REQUEST'), // Wrong action
  102: account('AUTH_FAILED'), // Authentication failed
  103: message('INVALID_NUMBER'), // Invalid phone number
  104: message('NOT_ROUTABLE'), // Phone coverage not active
  105: account('VENDOR_BALANCE'), // Insufficient balance
  106: account('INVALID_SENDER'), // Invalid sender ID
  107: message('INVALID_REQUEST'), // Invalid SMS type
  108: account('ACCOUNT_RESTRICTED'), // SMS gateway not active
  109: message('INVALID_SCHEDULE'), // Invalid schedule time
  110: message('INVALID_REQUEST'), // Media size too large
  111: account('INVALID_SENDER'), // Sender ID exceeds 11 characters
};

/** Whether an Arkesel answer body says the request was accepted (v2 `status: success`, v1 `code: ok`). */
export function arkeselAccepted(body: Record<string, unknown>): boolean {
  return body['status'] === 'success' || (typeof body['code'] === 'string' && body['code'].toLowerCase() === 'ok');
}

/** The meaning of a v1 numbered `code`, null for none or an unknown one (the HTTP status decides then). */
export function arkeselV1Code(code: unknown): CodeMeaning | null {
  const text = typeof code === 'number' ? String(code) : typeof code === 'string' ? code.trim() : '';
  return ARKESEL_V1_CODES[text] ?? null;
}
