import type { Channel } from '../../core/domain/channel.ts';
import type { ChannelProvider, OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { DeliveryTraceStore } from './delivery-trace-store.ts';
import { captureTrace, inSpan, SpanKind, SpanStatusCode, workContexts } from './tracing.ts';

/**
 * A vendor adapter in a CLIENT span `<CHANNEL> send` (docs/observability.md), a child of its message's
 * delivery job span (or of the HTTP request, for a synchronous send). An accepted call's trace context is
 * recorded by the vendor's message id, for the delivery report, when the trace is sampled. Built only when tracing is on.
 */
export class TracedProvider implements ChannelProvider {
  readonly name: string;
  readonly channel: Channel;
  readonly organizationId: string | null;
  readonly ratePerSecond: number;
  readonly #inner: ChannelProvider;
  readonly #traces: DeliveryTraceStore;

  constructor(inner: ChannelProvider, traces: DeliveryTraceStore) {
    this.#inner = inner;
    this.#traces = traces;
    this.name = inner.name;
    this.channel = inner.channel;
    this.organizationId = inner.organizationId ?? null;
    this.ratePerSecond = inner.ratePerSecond ?? 0;
  }

  accepts(to: string): boolean { return this.#inner.accepts?.(to) ?? true; }

  send(message: OutboundMessage): Promise<ProviderResult> {
    const attributes = { 'nkra.provider': this.name, 'nkra.channel': this.channel, 'nkra.message_id': message.messageId, 'nkra.organization_id': message.organizationId };
    return inSpan(`${this.channel} send`, SpanKind.CLIENT, workContexts.get(`messageId:${message.messageId}`), attributes, async (span) => {
      const result = await this.#inner.send(message);
      span.setAttribute('nkra.accepted', result.accepted);
      if (result.accepted) {
        span.setAttribute('nkra.provider_message_id', result.providerMessageId);
        // Only a sampled trace is recorded: the report of an unsampled one would not be exported either, and
        // recording it cost one insert per message under a sampler (bench:fairness --trace, parentbased_always_off).
        const carrier = span.isRecording() ? captureTrace() : null;
        // A lost record only detaches the delivery report from this trace: never fail the delivery for it.
        if (carrier) await this.#traces.record(this.name, result.providerMessageId, carrier).catch(() => undefined);
      } else {
        span.setAttributes({ 'error.type': result.errorCode, 'nkra.retryable': result.retryable });
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.errorCode });
      }
      return result;
    });
  }
}
