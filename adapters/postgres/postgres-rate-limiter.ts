import type { Clock } from '../../core/ports/clock.ts';
import type { RateLimiter, RateLimitVerdict } from '../../core/ports/rate-limiter.ts';
import type { Database } from './database.ts';

/** Fixed-window counters in one table, shared by every API and worker process. */
export class PostgresRateLimiter implements RateLimiter {
  readonly #database: Database;
  readonly #clock: Clock;
  constructor(database: Database, clock: Clock) { this.#database = database; this.#clock = clock; }

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitVerdict> {
    const now = this.#clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const rows = await this.#database.em().execute<{ count: number | string }[]>(
      `insert into rate_limit_windows (key, window_start, count, expires_at) values (?, ?, 1, ?)
       on conflict (key, window_start) do update set count = rate_limit_windows.count + 1
       returning count`,
      [`${key}@${windowSeconds}`, new Date(start), new Date(start + windowMs)]);
    const count = Number(rows[0]?.count ?? 1);
    return { allowed: count <= limit, count, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
  }

  async check(key: string, limit: number, windowSeconds: number): Promise<RateLimitVerdict> {
    const now = this.#clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const rows = await this.#database.em().execute<{ count: number | string }[]>(
      'select count from rate_limit_windows where key = ? and window_start = ?', [`${key}@${windowSeconds}`, new Date(start)]);
    const count = Number(rows[0]?.count ?? 0);
    // Blocked once the window holds more hits than the limit allows (the same rule as `hit` for the next one).
    return { allowed: count < limit, count, retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
  }

  /** Deletes windows that have ended (run periodically by the worker). */
  async purgeExpired(): Promise<number> {
    const result = await this.#database.em().execute<{ affectedRows?: number }>('delete from rate_limit_windows where expires_at < ?', [this.#clock.now()], 'run');
    return result.affectedRows ?? 0;
  }
}
