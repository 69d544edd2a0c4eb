import type { TraceCarrier } from './tracing.ts';

/**
 * With tracing on: the trace context of each accepted vendor call, by provider name and the vendor's
 * message id, so a delivery report continues the message's trace in whichever process receives it.
 */
export interface DeliveryTraceStore {
  record(provider: string, providerMessageId: string, carrier: TraceCarrier): Promise<void>;
  /** The carrier recorded for the first of `providers` that sent `providerMessageId`, or null. */
  find(providers: readonly string[], providerMessageId: string): Promise<TraceCarrier | null>;
}
