import type { RateBuckets, RateSlot } from '../../core/ports/rate-buckets.ts';

/** Rate buckets in one process (tests, the memory core): the same spacing rule as SqlRateBuckets, on `now()`. */
export class InMemoryRateBuckets implements RateBuckets {
  readonly #next = new Map<string, number>();
  readonly #line = new Map<string, number>();
  readonly #now: () => number;
  constructor(now: () => number = Date.now) { this.#now = now; }

  async take(key: string, ratePerSecond: number, maxWaitMs: number): Promise<RateSlot> {
    const now = this.#now();
    const start = Math.max(this.#next.get(key) ?? now, now);
    if (start - now > maxWaitMs) {
      const place = Math.max(this.#line.get(key) ?? 0, start);
      this.#line.set(key, place + 1000 / ratePerSecond);
      return { granted: false, retryAfterMs: Math.max(1, place - now - maxWaitMs) };
    }
    this.#next.set(key, start + 1000 / ratePerSecond);
    return { granted: true, waitMs: start - now };
  }

  async backOff(key: string, seconds: number): Promise<void> {
    const now = this.#now();
    this.#next.set(key, Math.max(this.#next.get(key) ?? now, now + seconds * 1000));
  }
}
