import type { Channel } from '../../core/domain/channel.ts';
import type { BreakerState } from '../../core/domain/circuit-breaker.ts';
import type { ProviderResult } from '../../core/ports/channel-provider.ts';

/**
 * Told about every vendor call a GuardedProvider makes and every change of its circuit: the host turns
 * these into metrics and log lines (docs/observability.md). Never given a message body or credentials.
 */
export interface ProviderObserver {
  /** A call ended: the result, or `thrown` when the adapter threw. */
  called(call: { provider: string; channel: Channel; messageId: string; seconds: number; result: ProviderResult | null }): void;
  /** Calls in flight to `provider` from this process, after a change. */
  inFlight(provider: string, count: number): void;
  circuitChanged(provider: string, from: BreakerState['state'], to: BreakerState['state']): void;
  /** A guard was built (at start, or because the provider's configuration changed): its circuit starts closed. */
  circuitStarted(provider: string): void;
}
