import type { Clock } from '../../core/ports/clock.ts';
import type { RateLimiter, RateLimitVerdict } from '../../core/ports/rate-limiter.ts';

/** Fixed-window counters in process memory (single process only). */
export class InMemoryRateLimiter implements RateLimiter {
  readonly #clock: Clock;
  readonly #windows = new Map<string, { start: number; count: number }>();
  constructor(clock: Clock) { this.#clock = clock; }

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitVerdict> {
    const now = this.#clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const bucketKey = `${key}@${windowSeconds}`;
    const current = this.#windows.get(bucketKey);
    const bucket = current && current.start === start ? current : { start, count: 0 };
    bucket.count += 1;
    this.#windows.set(bucketKey, bucket);
    const retryAfterSeconds = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    return { allowed: bucket.count <= limit, count: bucket.count, retryAfterSeconds };
  }

  async check(key: string, limit: number, windowSeconds: number): Promise<RateLimitVerdict> {
    const now = this.#clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const current = this.#windows.get(`${key}@${windowSeconds}`);
    const count = current && current.start === start ? current.count : 0;
    return { allowed: count < limit, count, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
  }

  async clear(key: string, windowSeconds: number): Promise<void> {
    this.#windows.delete(`${key}@${windowSeconds}`);
  }
}
