export { API_VERSION, BULK_MAX, NkraClient, parseRetryAfter, type NkraClientOptions, type RequestOptions } from './client.js';
export { isNkraError, NkraError } from './errors.js';
export { newIdempotencyKey } from './random.js';
export * from './types.js';
export { EVENT_HEADER, parseWebhook, SIGNATURE_HEADER, signWebhookBody, verifyWebhookSignature } from './webhooks.js';
