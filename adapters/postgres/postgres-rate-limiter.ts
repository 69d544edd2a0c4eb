import type { Clock } from '../../core/ports/clock.ts';
import type { RateLimiter, RateLimitVerdict } from '../../core/ports/rate-limiter.ts';
import type { Database } from './database.ts';
import { sqlRows } from './sql-rows.ts';

interface PendingHit { key: string; start: number; windowMs: number; now: number; limit: number; resolve: (v: RateLimitVerdict) => void; reject: (e: unknown) => void }

/**
 * Fixed-window counters in one table, shared by every API and worker process. Hits are group-committed:
 * hits arriving while the previous statement commits are counted together in one upsert (hits of one key
 * added at once, each answered the count it would have had in arrival order), so a burst costs one
 * commit instead of one per hit (bench:verify).
 */
export class PostgresRateLimiter implements RateLimiter {
  readonly #database: Database;
  readonly #clock: Clock;
  readonly #waiting: PendingHit[] = [];
  #flushing = false;
  constructor(database: Database, clock: Clock) { this.#database = database; this.#clock = clock; }

  hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitVerdict> {
    const now = this.#clock.now().getTime();
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const promise = new Promise<RateLimitVerdict>((resolve, reject) => {
      this.#waiting.push({ key: `${key}@${windowSeconds}`, start, windowMs, now, limit, resolve, reject });
    });
    if (!this.#flushing) void this.#drain();
    return promise;
  }

  async #drain(): Promise<void> {
    this.#flushing = true;
    try {
      while (this.#waiting.length > 0) await this.#flush(this.#waiting.splice(0, 1_000));
    } finally {
      this.#flushing = false;
      if (this.#waiting.length > 0) void this.#drain();
    }
  }

  async #flush(batch: PendingHit[]): Promise<void> {
    const groups = new Map<string, PendingHit[]>();
    for (const h of batch) {
      const id = `${h.key}\u0000${h.start}`;
      groups.set(id, [...(groups.get(id) ?? []), h]);
    }
    const rows = [...groups.values()];
    try {
      const counted = await sqlRows<{ key: string; window_start: Date | string; count: number | string }>(this.#database.em(),
        `insert into rate_limit_windows (key, window_start, count, expires_at)
         select * from unnest($1::text[], $2::timestamptz[], $3::int[], $4::timestamptz[])
         on conflict (key, window_start) do update set count = rate_limit_windows.count + excluded.count
         returning key, window_start, count`,
        [rows.map((g) => g[0]!.key), rows.map((g) => new Date(g[0]!.start)), rows.map((g) => g.length), rows.map((g) => new Date(g[0]!.start + g[0]!.windowMs))]);
      const totals = new Map(counted.map((r) => [`${r.key}\u0000${new Date(r.window_start).getTime()}`, Number(r.count)]));
      for (const [id, hits] of groups) {
        const total = totals.get(id) ?? hits.length;
        hits.forEach((h, i) => {
          const count = total - hits.length + 1 + i;
          h.resolve({ allowed: count <= h.limit, count, retryAfterSeconds: Math.max(1, Math.ceil((h.start + h.windowMs - h.now) / 1000)) });
        });
      }
    } catch (error) {
      for (const h of batch) h.reject(error);
    }
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

  async clear(key: string, windowSeconds: number): Promise<void> {
    await sqlRows(this.#database.em(), 'delete from rate_limit_windows where key = $1', [`${key}@${windowSeconds}`]);
  }

  /** Deletes windows that have ended (run periodically by the worker). */
  async purgeExpired(): Promise<number> {
    const result = await this.#database.em().execute<{ affectedRows?: number }>('delete from rate_limit_windows where expires_at < ?', [this.#clock.now()], 'run');
    return result.affectedRows ?? 0;
  }
}
