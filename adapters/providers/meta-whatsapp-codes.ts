import { account, message, transient, type CodeMeaning } from './vendor-codes.ts';

/**
 * Meta Graph / WhatsApp Cloud API error codes (developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes)
 * in our terms: the code of a send's error answer `{ error: { code, error_data, ... } }` and of a
 * failed status webhook's `errors[].code` read through this one table. Throttling codes arrive with
 * HTTP 400 and are retried all the same.
 */
export const META_CODES: Readonly<Record<number, CodeMeaning>> = {
  // Our account: fail over.
  0: account('AUTH_FAILED'), // AuthException: unable to authenticate the app user
  3: account('AUTH_FAILED'), // API method: capability or permissions issue
  10: account('AUTH_FAILED'), // Permission denied / not granted
  190: account('AUTH_FAILED'), // Access token has expired or is invalid
  368: account('ACCOUNT_RESTRICTED'), // Temporarily blocked for policy violations
  131031: account('ACCOUNT_RESTRICTED'), // Business account has been locked
  131037: account('INVALID_SENDER'), // The sending number needs an approved display name
  131042: account('VENDOR_BALANCE'), // Business eligibility payment issue
  131045: account('INVALID_SENDER'), // Incorrect certificate: phone number not registered
  133010: account('INVALID_SENDER'), // Phone number not registered on the Cloud API
  // Transient: retried whatever HTTP status carries them (4, 80007 and 130429 come with HTTP 400).
  1: transient('VENDOR_UNAVAILABLE'), // API unknown
  2: transient('VENDOR_UNAVAILABLE'), // API service temporarily unavailable
  4: transient('RATE_LIMITED'), // API too many calls (application rate limit)
  80007: transient('RATE_LIMITED'), // Rate limit issues (WhatsApp Business Account rate limit)
  130429: transient('RATE_LIMITED'), // Rate limit hit: throughput (messages per second) exceeded
  131000: transient('VENDOR_UNAVAILABLE'), // Something went wrong (unknown error)
  131016: transient('VENDOR_UNAVAILABLE'), // Service temporarily unavailable
  131048: transient('RATE_LIMITED'), // Spam rate limit hit
  131056: transient('RATE_LIMITED'), // Pair rate limit: too many messages to the same recipient
  131057: transient('VENDOR_UNAVAILABLE'), // Account in maintenance mode (throughput upgrade)
  133004: transient('VENDOR_UNAVAILABLE'), // Server temporarily unavailable
  // The recipient or the content: the message ends.
  100: message('INVALID_REQUEST'), // Invalid parameter
  131008: message('INVALID_REQUEST'), // Required parameter is missing
  131009: message('INVALID_REQUEST'), // Parameter value is not valid
  131021: message('INVALID_NUMBER'), // Recipient cannot be the sender
  131026: message('UNDELIVERABLE'), // Message undeliverable (not on WhatsApp, old app, blocked us)
  131047: message('REENGAGEMENT_REQUIRED'), // More than 24 hours since the customer last replied
  131049: message('VENDOR_REJECTED'), // Meta chose not to deliver (healthy ecosystem engagement)
  131050: message('UNSUBSCRIBED'), // The user stopped marketing messages
  131051: message('INVALID_REQUEST'), // Unsupported message type
  131052: message('MEDIA_ERROR'), // Media download error
  131053: message('MEDIA_ERROR'), // Media upload error
  130472: message('VENDOR_REJECTED'), // The user's number is part of an experiment
};

/** The meaning of a Meta error code, null when unknown (the HTTP status decides then). */
export function metaCode(code: number | null): CodeMeaning | null {
  if (code === null) return null;
  if (META_CODES[code]) return META_CODES[code];
  if (code >= 200 && code <= 299) return account('AUTH_FAILED'); // Permission errors
  if (code >= 132000 && code <= 132999) return message('TEMPLATE_ERROR'); // Template errors
  return null;
}
