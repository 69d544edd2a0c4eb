import { createHmac } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com, spec v1) signing, sent next to the spec's
 * X-Service-Signature (docs/webhooks.md, "Standard Webhooks"). The HMAC key is the secret's bytes as
 * the spec's `whsec_` convention defines them: the text after `whsec_`, base64-decoded. Secrets
 * created since Standard Webhooks support are standard base64 (what the reference libraries decode);
 * older ones are URL-safe base64, which this decoder (and the client libraries) read too.
 */
export const STANDARD_WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The HMAC key of a `whsec_` secret: the base64 (standard or URL-safe alphabet, padding optional) after the prefix. */
export function standardWebhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(STANDARD_WEBHOOK_SECRET_PREFIX) ? secret.slice(STANDARD_WEBHOOK_SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64'); // Node's base64 decoder accepts both alphabets, with or without padding
}

/** One `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` signature entry. */
export function standardWebhookSignature(id: string, timestamp: string, body: string, secret: string): string {
  return `v1,${createHmac('sha256', standardWebhookKey(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}

/** The webhook-id, webhook-timestamp and webhook-signature headers; during a rotation's overlap the signature header holds both entries, space-separated (new first). */
export function standardWebhookHeaders(id: string, timestamp: string, body: string, secrets: readonly string[]): Record<string, string> {
  return {
    'webhook-id': id, 'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map((secret) => standardWebhookSignature(id, timestamp, body, secret)).join(' '),
  };
}
