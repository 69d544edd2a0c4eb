export { API_VERSION, BULK_MAX, NkraClient, parseRetryAfter, type NkraClientOptions, type RequestOptions } from './client.js';
export { isNkraError, NkraError } from './errors.js';
export { newIdempotencyKey } from './random.js';
export * from './types.js';
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS, EVENT_HEADER, parseWebhook, PREVIOUS_SIGNATURE_HEADER, SIGNATURE_HEADER, signStandardWebhook, signWebhookBody, STANDARD_WEBHOOK_HEADERS,
  standardWebhookKey, verifyStandardWebhookSignature, verifyWebhook, verifyWebhookSignature, type VerifyWebhookOptions,
} from './webhooks.js';
