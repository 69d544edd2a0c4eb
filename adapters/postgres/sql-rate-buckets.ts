import type { RateBuckets, RateSlot } from '../../core/ports/rate-buckets.ts';
import type { Database } from './database.ts';
import { sqlRows } from './sql-rows.ts';

/**
 * `rate_buckets` (migration 0053): per key, the time its next slot starts (`next_at`, epoch milliseconds on
 * the database's clock, shared by every process). A take is one upsert: the row is locked, the slot starts
 * at `greatest(next_at, now)` and is granted only when that is within the wait allowed, moving `next_at`
 * one interval (1000 / rate ms) on. Concurrent takers in any number of processes queue on the row lock,
 * so slots never overlap (GCRA, a token bucket of depth one with reservations). Refused takers are given
 * places in a line behind the slots (`line_at`), one interval apart.
 */
const TAKE_SQL = `with clock as (select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms)
  insert into rate_buckets as b (key, next_at) select $1::text, ms + $2::float8 from clock
  on conflict (key) do update set next_at = greatest(b.next_at, (select ms from clock)) + $2::float8
    where greatest(b.next_at, (select ms from clock)) - (select ms from clock) <= $3::float8
  returning greatest(0, b.next_at - $2::float8 - (select ms from clock))::float8 as wait_ms`;

/**
 * A refused taker joins the line: it is told to come back at its place (one interval after the last one
 * told, or when the next slot starts), so a backlog far over the rate returns at about the rate instead of
 * all at once again and again.
 */
const REFUSED_SQL = `with clock as (select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms)
  update rate_buckets set line_at = greatest(line_at, next_at, (select ms from clock)) + $2::float8 where key = $1::text
  returning greatest(1, line_at - $2::float8 - (select ms from clock) - $3::float8)::float8 as retry_ms`;

const BACK_OFF_SQL = `insert into rate_buckets as b (key, next_at) values ($1::text, (extract(epoch from clock_timestamp()) * 1000)::float8 + $2::float8)
  on conflict (key) do update set next_at = greatest(b.next_at, excluded.next_at)`;

export class SqlRateBuckets implements RateBuckets {
  readonly #database: Database;
  constructor(database: Database) { this.#database = database; }

  async take(key: string, ratePerSecond: number, maxWaitMs: number): Promise<RateSlot> {
    const em = this.#database.em();
    const [row] = await sqlRows<{ wait_ms: number | string }>(em, TAKE_SQL, [key, 1000 / ratePerSecond, maxWaitMs], { prepare: true });
    if (row) return { granted: true, waitMs: Number(row.wait_ms) };
    const [refused] = await sqlRows<{ retry_ms: number | string }>(em, REFUSED_SQL, [key, 1000 / ratePerSecond, maxWaitMs], { prepare: true });
    return { granted: false, retryAfterMs: Number(refused?.retry_ms ?? 1) };
  }

  async backOff(key: string, seconds: number): Promise<void> {
    await sqlRows(this.#database.em(), BACK_OFF_SQL, [key, seconds * 1000]);
  }
}
