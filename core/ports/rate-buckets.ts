/** One take from a rate bucket: a slot (send after waiting `waitMs`), or none within the wait allowed (come back after `retryAfterMs`). */
export type RateSlot = { granted: true; waitMs: number } | { granted: false; retryAfterMs: number };

/**
 * Pacing gates shared by every process (docs/adr/0036-delivery-lanes-and-fair-queueing.md, "Rate shaping"):
 * one bucket per key (`provider:<delivery name>`, `tenant:<organization id>`), paced at a rate given by the
 * caller on each take. Slots are spaced `1 / ratePerSecond` apart on one clock (the database's for the
 * PostgreSQL adapter), so in any window of W seconds at most `W * rate + 1` slots start, however many
 * processes take at once. Platform data, not tenant data: the key names the tenant where it matters.
 */
export interface RateBuckets {
  /**
   * Reserves the next slot of `key` when it starts within `maxWaitMs` (granted: the caller waits `waitMs`,
   * then acts); otherwise takes no slot and gives the caller a place in line: `retryAfterMs` is when to come
   * back, one interval after the previous refused caller's (so a backlog returns at about the rate).
   */
  take(key: string, ratePerSecond: number, maxWaitMs: number): Promise<RateSlot>;
  /** Pushes `key`'s next slot to at least `seconds` from now (the vendor answered 429: back off). */
  backOff(key: string, seconds: number): Promise<void>;
}
