import type { DeliveryReport } from '../../core/ports/vendor-adapter.ts';
import { account, message, transient, type CodeMeaning } from './vendor-codes.ts';

/**
 * Twilio error codes (twilio.com/docs/api/errors) in our terms. One table for both places a code
 * appears: the REST error body `{ code, message, more_info, status }` and a message resource's
 * `error_code` at create time, and `ErrorCode` of a status callback (so `status: failed, error_code
 * 30007` at create time and ErrorCode 30007 in a callback both say CARRIER_FILTERED).
 */
export const TWILIO_CODES: Readonly<Record<number, CodeMeaning>> = {
  // Our account (docs/failover.md): fail over to the next provider.
  20003: account('AUTH_FAILED'), // Authentication Error (HTTP 401): credentials wrong or revoked
  20005: account('ACCOUNT_SUSPENDED'), // Account not active
  20008: account('AUTH_FAILED'), // Resource not accessible with Test Account Credentials
  20404: account('CONFIG_INVALID'), // The requested resource was not found (wrong account SID)
  21210: account('INVALID_SENDER'), // 'From' phone number not verified
  21212: account('INVALID_SENDER'), // Invalid 'From' phone number
  21606: account('INVALID_SENDER'), // 'From' is not a valid, SMS-capable number for your account
  21659: account('INVALID_SENDER'), // 'From' is not a Twilio phone number or short code
  21703: account('CONFIG_INVALID'), // Messaging Service has no phone numbers in its sender pool
  21408: account('REGION_NOT_ENABLED'), // Permission to send an SMS has not been enabled for the region
  21215: account('REGION_NOT_ENABLED'), // Geo permission configuration is not permitting the call
  30002: account('ACCOUNT_SUSPENDED'), // Account suspended
  30032: account('INVALID_SENDER'), // Toll-free number has not been verified
  30034: account('INVALID_SENDER'), // Message from an unregistered number (US A2P 10DLC)
  // Transient: retried, whatever HTTP status carries them.
  20429: transient('RATE_LIMITED'), // Too Many Requests (HTTP 429)
  20500: transient('VENDOR_UNAVAILABLE'), // Internal Server Error
  20503: transient('VENDOR_UNAVAILABLE'), // Service Unavailable
  21611: transient('RATE_LIMITED'), // 'From' number has exceeded the maximum number of queued messages
  30001: transient('RATE_LIMITED'), // Queue overflow
  // The recipient or the content: the message ends.
  21211: message('INVALID_NUMBER'), // Invalid 'To' phone number
  21214: message('INVALID_NUMBER'), // 'To' phone number cannot be reached
  21217: message('INVALID_NUMBER'), // Phone number does not appear to be valid
  21614: message('INVALID_NUMBER'), // 'To' number is not a valid mobile number
  21612: message('NOT_ROUTABLE'), // The 'To' phone number is not currently reachable via SMS
  21610: message('UNSUBSCRIBED'), // Attempt to send to unsubscribed recipient (STOP)
  21602: message('INVALID_REQUEST'), // Message body is required
  21617: message('MESSAGE_TOO_LONG'), // The concatenated message body exceeds the 1600 character limit
  30003: message('UNREACHABLE'), // Unreachable destination handset
  30004: message('RECIPIENT_BLOCKED'), // Message blocked
  30005: message('INVALID_NUMBER'), // Unknown destination handset
  30006: message('INVALID_NUMBER'), // Landline or unreachable carrier
  30007: message('CARRIER_FILTERED'), // Message filtered (carrier violation)
  30008: message('UNDELIVERED'), // Unknown error
};

/** The meaning of a Twilio error code (a number, or the numeric string of a callback), null when unknown. */
export function twilioCode(code: number | string | null | undefined): CodeMeaning | null {
  if (code === null || code === undefined || code === '') return null;
  const number = typeof code === 'number' ? code : /^\d+$/.test(code.trim()) ? Number(code.trim()) : Number.NaN;
  return TWILIO_CODES[number] ?? null;
}

/** `MessageStatus` (callback) and `status` (message resource) words; queued, accepted, scheduled and sending change nothing. */
export const TWILIO_STATUSES: Readonly<Record<string, Pick<DeliveryReport, 'status' | 'errorCode'>>> = {
  sent: { status: 'SENT', errorCode: null },
  delivered: { status: 'DELIVERED', errorCode: null },
  read: { status: 'DELIVERED', errorCode: null },
  undelivered: { status: 'FAILED', errorCode: 'UNDELIVERED' },
  failed: { status: 'FAILED', errorCode: 'REJECTED' },
  canceled: { status: 'FAILED', errorCode: 'CANCELED' },
};

/** A final Twilio status word with its error code, in our terms: the code's meaning wins over the word's default. */
export function twilioFailureCode(statusWord: string, errorCode: number | string | null | undefined): string {
  return twilioCode(errorCode)?.code ?? TWILIO_STATUSES[statusWord.trim().toLowerCase()]?.errorCode ?? 'VENDOR_REJECTED';
}
