import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ProviderObserver } from '../adapters/providers/provider-observer.ts';
import type { Channel } from '../core/domain/channel.ts';
import type { BreakerState } from '../core/domain/circuit-breaker.ts';
import type { ProviderResult } from '../core/ports/channel-provider.ts';
import type { Logger } from './logger.ts';

const CIRCUIT_VALUE: Record<BreakerState['state'], number> = { closed: 0, 'half-open': 1, open: 2 };

/**
 * Per-provider Prometheus metrics and structured log lines of the process that calls vendors
 * (docs/observability.md): every failed call (warn, with the message id, error code and whether it
 * will be retried or failed over; never the body or credentials), every circuit change (warn), and
 * `nkra_provider_*` counters, latency histogram, in-flight and circuit gauges.
 */
export class ProviderTelemetry implements ProviderObserver {
  readonly registry = new Registry();
  readonly #logger: Logger;
  readonly #requests: Counter<'provider' | 'channel' | 'outcome' | 'error_code'>;
  readonly #latency: Histogram<'provider'>;
  readonly #inFlight: Gauge<'provider'>;
  readonly #circuit: Gauge<'provider'>;

  constructor(logger: Logger) {
    this.#logger = logger;
    const registers = [this.registry];
    this.#requests = new Counter({ name: 'nkra_provider_requests_total', help: 'Vendor calls by provider, outcome (accepted, failed, error) and error code',
      labelNames: ['provider', 'channel', 'outcome', 'error_code'], registers });
    this.#latency = new Histogram({ name: 'nkra_provider_request_duration_seconds', help: 'Vendor call duration by provider', labelNames: ['provider'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers });
    this.#inFlight = new Gauge({ name: 'nkra_provider_in_flight', help: 'Vendor calls in flight from this process', labelNames: ['provider'], registers });
    this.#circuit = new Gauge({ name: 'nkra_provider_circuit_state', help: 'Circuit breaker per provider: 0 closed, 1 half-open, 2 open', labelNames: ['provider'], registers });
  }

  called(call: { provider: string; channel: Channel; messageId: string; seconds: number; result: ProviderResult | null }): void {
    const { provider, channel, messageId, seconds, result } = call;
    const outcome = result === null ? 'error' : result.accepted ? 'accepted' : 'failed';
    const errorCode = result && !result.accepted ? result.errorCode : result === null ? 'ADAPTER_THREW' : '';
    this.#requests.inc({ provider, channel, outcome, error_code: errorCode });
    this.#latency.observe({ provider }, seconds);
    if (result?.accepted) return;
    this.#logger.warn({
      event: 'provider.failure', provider, channel, messageId, errorCode, ms: Math.round(seconds * 1000),
      ...(result ? { retryable: result.retryable, accountLevel: result.accountLevel === true, errorMessage: result.errorMessage.slice(0, 300) } : {}),
      next: result && !result.retryable && result.accountLevel !== true ? 'fail' : 'failover or retry',
    }, 'delivery attempt failed');
  }

  inFlight(provider: string, count: number): void {
    this.#inFlight.set({ provider }, count);
  }

  circuitStarted(provider: string): void {
    this.#circuit.set({ provider }, CIRCUIT_VALUE.closed);
  }

  circuitChanged(provider: string, from: BreakerState['state'], to: BreakerState['state']): void {
    this.#circuit.set({ provider }, CIRCUIT_VALUE[to]);
    this.#logger.warn({ event: 'provider.circuit', provider, from, to }, to === 'open' ? 'circuit opened: the provider is skipped' : `circuit ${to}`);
  }
}
