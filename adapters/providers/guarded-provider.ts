import { breakerAllows, breakerFailure, breakerSuccess, closedBreaker, type BreakerPolicy, type BreakerState } from '../../core/domain/circuit-breaker.ts';
import type { Channel } from '../../core/domain/channel.ts';
import type { ChannelProvider, OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { ProviderObserver } from './provider-observer.ts';
import { ProviderSlotQueue, type SlotClaim } from './provider-slot-queue.ts';

/** The rate window, one second plus a guard for submissions that arrive at the vendor bunched by the network. */
const WINDOW_MS = 1_020;

export interface GuardOptions {
  breaker: BreakerPolicy;
  /** Requests in flight to this provider at once, from this process. */
  maxConcurrency: number;
  /** Submissions per second to this provider from this process (the vendor's MPS limit); 0 = unlimited. */
  maxPerSecond: number;
  now?: () => number;
  /** Metrics and log lines for each call and circuit change (hosts/provider-telemetry.ts). */
  observer?: ProviderObserver;
  /** The organization whose own vendor account this is; absent for the platform's providers. */
  organizationId?: string | null;
  /** The configured rate (`settings.ratePerSecond`), paced across processes by delivery (core/use-cases/messaging/delivery-pacing.ts). */
  ratePerSecond?: number;
}

/**
 * Wraps a vendor adapter with a circuit breaker (an open circuit answers CIRCUIT_OPEN at once, a
 * retryable failure, so delivery moves to the next candidate), bounded concurrency and a rate limit.
 */
export class GuardedProvider implements ChannelProvider {
  readonly name: string;
  readonly channel: Channel;
  readonly inner: ChannelProvider;
  readonly organizationId: string | null;
  readonly ratePerSecond: number;
  readonly #options: GuardOptions;
  readonly #now: () => number;
  #breaker: BreakerState = closedBreaker();
  #inFlight = 0;
  /** Sends waiting for a slot: higher lanes first, organizations taking turns (provider-slot-queue.ts). */
  readonly #waiting = new ProviderSlotQueue();
  /** Times of the latest `maxPerSecond` submissions (a ring; `#sentHead` is the oldest once full). */
  readonly #sent: number[] = [];
  #sentHead = 0;
  #paceTail: Promise<void> = Promise.resolve();

  constructor(inner: ChannelProvider, options: GuardOptions) {
    this.inner = inner;
    this.name = inner.name;
    this.channel = inner.channel;
    this.organizationId = options.organizationId ?? null;
    this.ratePerSecond = options.ratePerSecond ?? 0;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    options.observer?.circuitStarted(this.name);
  }

  get circuit(): BreakerState['state'] { return this.#breaker.state; }

  /** Consecutive failures counted against the provider (transient or account-level) since its last healthy answer. */
  get consecutiveFailures(): number { return this.#breaker.consecutiveFailures; }

  /** True while the circuit refuses calls (for ordering candidates). */
  isOpen(): boolean {
    return this.#breaker.state === 'open' && !breakerAllows(this.#breaker, this.#now(), this.#options.breaker).allowed;
  }

  /** The wrapped adapter's answer (true when it has none): routing skips providers that cannot serve a destination. */
  accepts(to: string): boolean {
    return this.inner.accepts?.(to) ?? true;
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const gate = breakerAllows(this.#breaker, this.#now(), this.#options.breaker);
    this.#setBreaker(gate.next);
    if (!gate.allowed) return this.#circuitOpen();
    const trial = gate.next.state === 'half-open';
    await this.#acquire(message);
    await this.#pace();
    // A send that waited for a slot or its turn may find the circuit opened meanwhile by the sends ahead
    // of it: it must not reach the dead vendor too (only a half-open trial goes through a non-closed circuit).
    if (!trial && this.#breaker.state !== 'closed') {
      this.#release();
      return this.#circuitOpen();
    }
    const observer = this.#options.observer;
    const started = performance.now();
    observer?.inFlight(this.name, this.#inFlight);
    let result: ProviderResult | null = null;
    try {
      result = await this.inner.send(message);
      // A recipient's or the message's failure (bad number) says nothing about the provider's health; a
      // transient one or our account's (revoked credentials, sender, vendor balance) counts against it.
      const healthy = result.accepted || (!result.retryable && result.accountLevel !== true);
      this.#setBreaker(healthy ? breakerSuccess() : breakerFailure(this.#breaker, this.#now(), this.#options.breaker));
      return result;
    } catch (error) {
      this.#setBreaker(breakerFailure(this.#breaker, this.#now(), this.#options.breaker));
      throw error;
    } finally {
      this.#release();
      if (observer) {
        observer.called({ provider: this.name, channel: this.channel, messageId: message.messageId, seconds: (performance.now() - started) / 1000, result });
        observer.inFlight(this.name, this.#inFlight);
      }
    }
  }

  #circuitOpen(): ProviderResult {
    return { accepted: false, retryable: true, errorCode: 'CIRCUIT_OPEN', errorMessage: `${this.name}: circuit open after repeated failures` };
  }

  #setBreaker(next: BreakerState): void {
    if (next.state !== this.#breaker.state) this.#options.observer?.circuitChanged(this.name, this.#breaker.state, next.state);
    this.#breaker = next;
  }

  async #acquire(claim: SlotClaim): Promise<void> {
    if (this.#inFlight < this.#options.maxConcurrency) { this.#inFlight += 1; return; }
    await new Promise<void>((resolve) => this.#waiting.push(claim, resolve));
  }

  /** Hands the freed slot to the waiter whose turn it is (the slot stays counted), or frees it. */
  #release(): void {
    const next = this.#waiting.next();
    if (next) next(); else this.#inFlight -= 1;
  }

  /**
   * At most `maxPerSecond` submissions in any window of one second (plus a small guard for the network),
   * counted on the times they actually left: callers take turns, each waits until the submission
   * `maxPerSecond` places before it is a window old, then records its own time. Timer lateness can only
   * delay a submission, never let a burst through.
   */
  async #pace(): Promise<void> {
    const max = this.#options.maxPerSecond;
    if (max <= 0) return;
    const turn = this.#paceTail.then(async () => {
      const oldest = this.#sent.length >= max ? this.#sent[this.#sentHead]! : -Infinity;
      let wait = oldest + WINDOW_MS - this.#now();
      while (wait > 0) {
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = oldest + WINDOW_MS - this.#now();
      }
      if (this.#sent.length < max) this.#sent.push(this.#now());
      else { this.#sent[this.#sentHead] = this.#now(); this.#sentHead = (this.#sentHead + 1) % max; }
    });
    this.#paceTail = turn;
    await turn;
  }
}
