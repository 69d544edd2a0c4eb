import { account, message, transient, type CodeMeaning } from './vendor-codes.ts';

/**
 * FCM HTTP v1 error codes (firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode) in our terms: the
 * `errorCode` of the `google.firebase.fcm.v1.FcmError` detail first, then the Google RPC `status` of the
 * error envelope, then (by the adapter) the HTTP status.
 */
export const FCM_ERROR_CODES: Readonly<Record<string, CodeMeaning>> = {
  UNREGISTERED: message('UNREGISTERED'), // 404: the token is dead (app uninstalled, token expired)
  SENDER_ID_MISMATCH: message('UNREGISTERED'), // 403: the token belongs to another Firebase project
  INVALID_ARGUMENT: message('INVALID_REQUEST'), // 400: bad payload (a bad token: UNREGISTERED, below)
  QUOTA_EXCEEDED: transient('RATE_LIMITED'), // 429: project, device or topic rate exceeded
  UNAVAILABLE: transient('VENDOR_UNAVAILABLE'), // 503: server overloaded
  INTERNAL: transient('VENDOR_UNAVAILABLE'), // 500: unknown internal error
  THIRD_PARTY_AUTH_ERROR: account('AUTH_FAILED'), // 401: the APNs certificate or web push key is invalid or missing
  UNSPECIFIED_ERROR: message('VENDOR_REJECTED'), // no more information
};

/** Google RPC statuses of an error without an FcmError detail. */
export const GOOGLE_RPC_STATUSES: Readonly<Record<string, CodeMeaning>> = {
  INVALID_ARGUMENT: message('INVALID_REQUEST'),
  RESOURCE_EXHAUSTED: transient('RATE_LIMITED'),
  UNAVAILABLE: transient('VENDOR_UNAVAILABLE'),
  INTERNAL: transient('VENDOR_UNAVAILABLE'),
  UNAUTHENTICATED: account('AUTH_FAILED'), // the access token, after one refresh
  PERMISSION_DENIED: account('AUTH_FAILED'), // the service account may not send for this project
};

/** The meaning of an FCM error answer; `tokenProblem` when a field violation names `message.token`. Null: the HTTP status decides. */
export function fcmMeaning(fcmCode: string | null, rpcStatus: string | null, tokenProblem: boolean): CodeMeaning | null {
  const code = fcmCode ?? rpcStatus;
  if (code === 'INVALID_ARGUMENT' && tokenProblem) return message('UNREGISTERED');
  if (fcmCode && FCM_ERROR_CODES[fcmCode]) return FCM_ERROR_CODES[fcmCode];
  return rpcStatus ? GOOGLE_RPC_STATUSES[rpcStatus] ?? null : null;
}
