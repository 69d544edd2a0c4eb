import type { WebhookAttemptResult, WebhookRequest, WebhookSender } from '../../core/ports/webhook-sender.ts';
import { inSpan, SpanKind, SpanStatusCode, workContexts } from './tracing.ts';

/**
 * Webhook attempts in CLIENT spans `webhook <kind>` (docs/observability.md), children of the dispatch or
 * retry job that makes them, so a message's status webhook shows in the message's trace. The span carries
 * the receiver's host, never the path, query or payload. Built only when tracing is on.
 */
export class TracedWebhookSender implements WebhookSender {
  readonly #inner: WebhookSender;
  constructor(inner: WebhookSender) { this.#inner = inner; }

  checkTarget(url: string): Promise<string | null> { return this.#inner.checkTarget(url); }

  post(request: WebhookRequest): Promise<WebhookAttemptResult> {
    const attributes = { 'nkra.webhook.event': request.kind, 'nkra.webhook.event_id': request.eventId, 'server.address': hostOf(request.url) };
    return inSpan(`webhook ${request.kind}`, SpanKind.CLIENT, workContexts.get(`eventId:${request.eventId}`), attributes, async (span) => {
      const result = await this.#inner.post(request);
      if (result.statusCode !== null) span.setAttribute('http.response.status_code', result.statusCode);
      if (!result.ok) span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? 'failed' });
      return result;
    });
  }
}

function hostOf(url: string): string {
  try { return new URL(url).host; } catch { return 'invalid'; }
}
