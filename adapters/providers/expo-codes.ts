import { account, message, transient, type CodeMeaning } from './vendor-codes.ts';

/**
 * Expo push errors (docs.expo.dev/push-notifications/sending-notifications, "Individual errors" and
 * "Request errors") in our terms. One table for a push ticket's and a push receipt's `details.error`,
 * so a DeviceNotRegistered reads the same at send time and when receipts are polled.
 */
export const EXPO_DETAIL_ERRORS: Readonly<Record<string, CodeMeaning>> = {
  DeviceNotRegistered: message('UNREGISTERED'), // the device cannot receive: stop sending to this token
  MessageTooBig: message('INVALID_REQUEST'), // payload over 4096 bytes
  MessageRateExceeded: transient('RATE_LIMITED'), // too many messages to this device: back off
  InvalidCredentials: account('AUTH_FAILED'), // the app's FCM/APNs credentials held by Expo are invalid
  MismatchSenderId: account('AUTH_FAILED'), // the FCM server key does not match the app's sender id
};

/** Request-level `errors[].code` of a non-2xx answer. */
export const EXPO_REQUEST_ERRORS: Readonly<Record<string, CodeMeaning>> = {
  TOO_MANY_REQUESTS: transient('RATE_LIMITED'), // over 600 notifications per second per project
  INTERNAL_SERVER_ERROR: transient('VENDOR_UNAVAILABLE'),
  PUSH_TOO_MANY_EXPERIENCE_IDS: message('INVALID_REQUEST'),
  PUSH_TOO_MANY_NOTIFICATIONS: message('INVALID_REQUEST'),
  PUSH_TOO_MANY_RECEIPTS: message('INVALID_REQUEST'),
  VALIDATION_ERROR: message('INVALID_REQUEST'),
};

/** The meaning of a ticket's or receipt's `details.error`; unknown errors end the message as VENDOR_REJECTED. */
export function expoDetailError(error: string | null): CodeMeaning {
  return (error && EXPO_DETAIL_ERRORS[error]) || message('VENDOR_REJECTED');
}

/** The meaning of a request error code, null when unknown (the HTTP status decides then). */
export function expoRequestError(code: string | null): CodeMeaning | null {
  return (code && EXPO_REQUEST_ERRORS[code]) || null;
}
