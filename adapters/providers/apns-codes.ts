import { account, message, transient, type CodeMeaning } from './vendor-codes.ts';

/**
 * APNs `reason`s (developer.apple.com, "Handling notification responses from APNs", table of reasons)
 * in our terms; the reason decides before the HTTP status (a 410 without a known reason is a dead token).
 */
export const APNS_REASONS: Readonly<Record<string, CodeMeaning>> = {
  // The device token: dead or wrong (the contact's token should be cleared).
  BadDeviceToken: message('UNREGISTERED'), // 400
  Unregistered: message('UNREGISTERED'), // 410
  ExpiredToken: message('UNREGISTERED'), // 410
  DeviceTokenNotForTopic: message('INVALID_REQUEST'), // 400: the token belongs to another app
  MissingDeviceToken: message('INVALID_REQUEST'),
  // The content.
  BadCollapseId: message('INVALID_REQUEST'), BadExpirationDate: message('INVALID_REQUEST'), BadMessageId: message('INVALID_REQUEST'),
  BadPriority: message('INVALID_REQUEST'), DuplicateHeaders: message('INVALID_REQUEST'), InvalidPushType: message('INVALID_REQUEST'),
  PayloadEmpty: message('INVALID_REQUEST'), PayloadTooLarge: message('INVALID_REQUEST'), // 413
  // Our account: the signing key, team, topic (bundle id) or environment.
  BadCertificate: account('AUTH_FAILED'), BadCertificateEnvironment: account('AUTH_FAILED'),
  ExpiredProviderToken: account('AUTH_FAILED'), // after one re-signed retry
  InvalidProviderToken: account('AUTH_FAILED'), MissingProviderToken: account('AUTH_FAILED'), Forbidden: account('AUTH_FAILED'),
  UnrelatedKeyIdInToken: account('AUTH_FAILED'), BadEnvironmentKeyInToken: account('AUTH_FAILED'),
  BadTopic: account('CONFIG_INVALID'), MissingTopic: account('CONFIG_INVALID'), TopicDisallowed: account('CONFIG_INVALID'), BadPath: account('CONFIG_INVALID'),
  // Transient.
  TooManyProviderTokenUpdates: transient('RATE_LIMITED'), // 429: Apple's throttle on signing new provider tokens
  TooManyRequests: transient('RATE_LIMITED'), // 429: too many requests to the same device token
  IdleTimeout: transient('VENDOR_UNAVAILABLE'),
  InternalServerError: transient('VENDOR_UNAVAILABLE'), // 500
  ServiceUnavailable: transient('VENDOR_UNAVAILABLE'), // 503
  Shutdown: transient('VENDOR_UNAVAILABLE'), // 503: the server is shutting down
};

/** The meaning of an APNs answer's reason; a 410 without a known reason is a dead token; null: the HTTP status decides. */
export function apnsMeaning(reason: string, httpStatus: number): CodeMeaning | null {
  return APNS_REASONS[reason] ?? (httpStatus === 410 ? message('UNREGISTERED') : null);
}
