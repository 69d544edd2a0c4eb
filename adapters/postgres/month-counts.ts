import type { EntityManager } from '@mikro-orm/sql';
import type { Database } from './database.ts';

/** A past month's partition waits at most this long for its in-flight writers; it is counted on a later run otherwise. */
const LOCK_TIMEOUT = '1s';
/** Transaction-level advisory lock (constant, arbitrary): one process counts at a time. */
const COUNTING_LOCK = 7_346_213;

const partitionOf = (month: Date) => `messages_p${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
const isoDay = (month: Date) => month.toISOString().slice(0, 10);

/**
 * Counts past months' `messages` partitions for the delivery-log list (migration 0042,
 * docs/adr/0031-counted-months.md), in three steps per partition:
 *
 * 1. Mark it "being counted", after attaching the trigger that deletes the mark on any write to it. The
 *    lock this takes waits for the writers already in the partition, so every write is either seen by
 *    step 2 or deletes the mark.
 * 2. Count its rows by organization, status and channel (no lock held: sends and status updates go on).
 * 3. Publish the counts, unless a write deleted the mark meanwhile (then the month is read row by row
 *    until a later run counts it again).
 */
export class MessageMonthCounts {
  readonly #database: Database;
  constructor(database: Database) { this.#database = database; }

  /** Counts each month's partition that exists and is not counted yet; returns the partitions counted. */
  async countMonths(months: readonly Date[]): Promise<string[]> {
    const done = new Set((await this.#database.em().execute<{ partition_name: string }[]>(
      'select partition_name from message_counted_months where counted')).map((r) => r.partition_name));
    const counted: string[] = [];
    for (const month of months) {
      const table = partitionOf(month);
      if (done.has(table) || !(await this.#mark(table, month))) continue;
      if (await this.#countAndPublish(table, month)) counted.push(table);
    }
    return counted;
  }

  /** Forgets the counts of partitions about to be dropped or detached (in the caller's transaction). */
  static async forget(em: EntityManager, tables: readonly string[]): Promise<void> {
    for (const table of tables) {
      const month = /^messages_p(\d{4})(\d{2})$/.exec(table); // attempts, status events and outbound events are not counted
      if (!month) continue;
      await em.execute('delete from message_counted_months where partition_name = ?', [table]);
      await em.execute('delete from message_month_counts where month = ?::date', [`${month[1]}-${month[2]}-01`]);
    }
  }

  async #tryLock(em: EntityManager): Promise<boolean> {
    const [row] = await em.execute<{ ok: boolean }[]>('select pg_try_advisory_xact_lock(?) as ok', [COUNTING_LOCK]);
    return Boolean(row?.ok);
  }

  async #mark(table: string, month: Date): Promise<boolean> {
    try {
      return await this.#database.em().transactional(async (em) => {
        if (!(await this.#tryLock(em))) return false;
        const [exists] = await em.execute<{ found: string | null }[]>('select to_regclass(?)::text as found', [table]);
        if (!exists?.found) return false;
        await em.execute(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
        const [trigger] = await em.execute<{ n: number }[]>('select 1 as n from pg_trigger where tgrelid = ?::regclass and tgname = ?', [table, `${table}_counted`]);
        if (trigger) {
          await em.execute(`lock table ${table} in share mode`);
        } else {
          await em.execute(`create trigger ${table}_counted after insert or update or delete on ${table} for each row execute function nkra_uncount_month()`);
          await em.execute(`create trigger ${table}_counted_truncate after truncate on ${table} for each statement execute function nkra_uncount_month()`);
        }
        await em.execute(`insert into message_counted_months (partition_name, relid, month, lo, hi, counted)
          values (?, ?::regclass::oid, ?::date, nkra_month_bound(?::date), nkra_month_bound((?::date + interval '1 month')::date), false)
          on conflict (partition_name) do update set relid = excluded.relid, counted = false, counted_at = null`, [table, table, isoDay(month), isoDay(month), isoDay(month)]);
        return true;
      });
    } catch (error) {
      if ((error as { code?: string }).code === '55P03') return false; // lock_not_available: writers still busy in that month
      throw error;
    }
  }

  async #countAndPublish(table: string, month: Date): Promise<boolean> {
    return this.#database.em().transactional(async (em) => {
      if (!(await this.#tryLock(em))) return false;
      const [mark] = await em.execute<{ counted: boolean }[]>('select counted from message_counted_months where partition_name = ?', [table]);
      if (!mark || mark.counted) return false; // written to since step 1, or counted by another process
      await em.execute('set local statement_timeout = 0');
      await em.execute('delete from message_month_counts where month = ?::date', [isoDay(month)]);
      // Grouping sets: each (status, channel), and '*' rows summing over either or both (one row per month for any filter).
      await em.execute(`insert into message_month_counts (organization_id, status, channel, month, messages, newest_at, oldest_at)
        select organization_id, coalesce(status, '*'), coalesce(channel, '*'), ?::date, count(*), max(created_at), min(created_at) from ${table}
        group by grouping sets ((organization_id, status, channel), (organization_id, status), (organization_id, channel), (organization_id))`, [isoDay(month)]);
      const published = await em.execute<{ n: number }[]>(
        'update message_counted_months set counted = true, counted_at = now() where partition_name = ? and not counted returning 1 as n', [table]);
      return published.length > 0;
    });
  }
}
