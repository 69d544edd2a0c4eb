import { createHmac } from 'node:crypto';
import { WEBHOOK_TIMEOUT_MS } from '../../core/domain/webhook.ts';
import type { WebhookAttemptResult, WebhookRequest, WebhookSender } from '../../core/ports/webhook-sender.ts';
import type { DnsEgressPolicy } from '../egress/dns-egress-policy.ts';
import { standardWebhookHeaders } from './standard-webhooks.ts';

export const RESPONSE_BODY_CAP_BYTES = 4 * 1024;

export interface HttpWebhookSenderOptions {
  /** The one egress policy for tenant-influenced connections (EGRESS_ALLOW_PRIVATE_HOSTS lifts its address check in development and tests). */
  egress: DnsEgressPolicy;
  timeoutMs?: number;
  /** Clock in ms (tests); defaults to Date.now. */
  now?: () => number;
}

/** Lowercase hex HMAC-SHA256 of the raw body keyed with the secret: X-Service-Signature. */
export function webhookSignature(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Webhook deliveries through the egress policy (adapters/egress/dns-egress-policy.ts): the host is
 * resolved once, every address checked, and the connection made to the checked address (no second
 * DNS answer, so no rebinding); TLS still verifies the certificate for the host name. Redirects are
 * not followed (a 3xx is a failed attempt), at most RESPONSE_BODY_CAP_BYTES of the answer are read,
 * and the whole attempt is bounded by the timeout (10 s). Every request carries the spec's
 * X-Service-* headers and the Standard Webhooks ones (standard-webhooks.ts).
 */
export class HttpWebhookSender implements WebhookSender {
  readonly #egress: DnsEgressPolicy;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  constructor(options: HttpWebhookSenderOptions) {
    this.#egress = options.egress;
    this.#timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    this.#now = options.now ?? Date.now;
  }

  checkTarget(url: string): Promise<string | null> {
    return this.#egress.checkUrl(url);
  }

  async post(request: WebhookRequest): Promise<WebhookAttemptResult> {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null): WebhookAttemptResult => ({
      ok: error === null && statusCode !== null && statusCode >= 200 && statusCode < 300, statusCode,
      error: error ?? (statusCode !== null && (statusCode < 200 || statusCode >= 300) ? `HTTP ${statusCode}` : null), durationMs: Math.round(performance.now() - started),
    });
    const timestamp = String(Math.floor(this.#now() / 1000));
    const headers: Record<string, string> = {
      'content-type': 'application/json', 'user-agent': 'Nkra-Webhooks/1.0',
      'x-service-event': request.kind, 'x-service-event-id': request.eventId, 'x-service-timestamp': timestamp,
      'x-service-signature': webhookSignature(request.body, request.secret),
    };
    if (request.previousSecret) headers['x-service-signature-previous'] = webhookSignature(request.body, request.previousSecret);
    // Standard Webhooks: webhook-id is the event id, the same for every attempt and replay of the event.
    Object.assign(headers, standardWebhookHeaders(request.eventId, timestamp, request.body, request.previousSecret ? [request.secret, request.previousSecret] : [request.secret]));
    const outcome = await this.#egress.fetch(request.url, { method: 'POST', headers, body: request.body, timeoutMs: this.#timeoutMs, maxBodyBytes: RESPONSE_BODY_CAP_BYTES }, null);
    if (outcome.kind === 'refused') return done(null, `refused: ${outcome.refusal.reason}`);
    if (outcome.kind === 'timeout') return done(null, `timed out after ${this.#timeoutMs} ms`);
    if (outcome.kind === 'network') return done(null, `connection failed: ${outcome.code}`);
    return done(outcome.response.status, null);
  }
}
