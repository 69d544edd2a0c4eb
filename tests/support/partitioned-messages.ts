import type { Database } from '../../adapters/postgres/database.ts';
import { v7At } from './uuid-v7-at.ts';

/** Rows of past months for the partition maintenance and retention tests. */

export const NOW = new Date('2026-11-25T09:00:00Z');
export const clock = { now: () => NOW };
/** A day (the 10th by default, at noon UTC) `months` months before NOW. */
export const ago = (months: number, day = 10) => new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() - months, day, 12));
/** The partition suffix of a month: `202511`. */
export const key = (d: Date) => `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;

export const count = async (db: Database, sql: string, params: unknown[] = []) => Number(Object.values((await db.em().execute<Record<string, unknown>[]>(sql, params))[0]!)[0]);

async function ensureMonth(db: Database, at: Date): Promise<void> {
  const month = `${at.toISOString().slice(0, 7)}-01`;
  for (const t of ['messages', 'message_attempts', 'message_status_events']) await db.em().execute('select nkra_create_month_partition(?, ?::date)', [t, month]);
}

let seq = 0;
/** One message of `org` at `at`, with an attempt and a status event, in the partitions of its month (created if missing). */
export async function message(db: Database, org: string, at: Date): Promise<string> {
  await ensureMonth(db, at);
  const id = v7At(at, seq++);
  await db.em().execute(`insert into messages (id, organization_id, internal_message_id, channel, recipient, body, status, cost, price, segments, is_sandbox, provider, created_at, updated_at)
    values (?, ?, ?, 'SMS', '+233240000001', 'a "quoted", multi
line body', 'SENT', 3, 3, 1, false, 'p1', ?, ?)`, [id, org, `msg_${id.replace(/-/g, '')}`, at, at]);
  await db.em().execute(`insert into message_attempts (id, message_id, attempt, provider, outcome, retryable, duration_ms, created_at) values (?, ?, 1, 'p1', 'ACCEPTED', false, 5, ?)`, [v7At(at, seq++), id, at]);
  await db.em().execute(`insert into message_status_events (id, message_id, organization_id, status, source, detail, created_at) values (?, ?, ?, 'SENT', 'delivery', '', ?)`, [v7At(at, seq++), id, org, at]);
  return id;
}

/** `n` more messages of `org` at `at` (one statement), each with one attempt: enough rows to need several export batches. */
export async function manyMessages(db: Database, org: string, at: Date, n: number): Promise<void> {
  await ensureMonth(db, at);
  const ms = at.getTime().toString(16).padStart(12, '0');
  const prefix = `${ms.slice(0, 8)}-${ms.slice(8)}-7fff-`;
  await db.em().execute(`insert into messages (id, organization_id, internal_message_id, channel, recipient, body, status, cost, price, segments, is_sandbox, provider, created_at, updated_at)
    select ? || '8000-' || lpad(to_hex(g), 12, '0'), ?, 'msg_bulk_' || g, 'SMS', '+233240000002', 'bulk body ' || g, 'DELIVERED', 3, 3, 1, false, 'p1', ?, ?
    from generate_series(1, ?) g`, [prefix, org, at, at, n]);
  await db.em().execute(`insert into message_attempts (id, message_id, attempt, provider, outcome, retryable, duration_ms, created_at)
    select ? || '9000-' || lpad(to_hex(g), 12, '0'), ? || '8000-' || lpad(to_hex(g), 12, '0'), 1, 'p1', 'ACCEPTED', false, 5, ?
    from generate_series(1, ?) g`, [prefix, prefix, at, n]);
}
