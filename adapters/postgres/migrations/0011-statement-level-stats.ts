import type { Migration } from './migration.ts';

/** Counter rows per key: each connection writes its own (`pg_backend_pid() & 15`), so concurrent transactions rarely share one. */
const BUCKET = 'pg_backend_pid() & 15';

/** The roll-up key and signed counts of each message in a transition table: `sign` -1 takes it out, +1 puts it in. */
const signed = (table: string, sign: 1 | -1) => `select organization_id, (created_at at time zone 'UTC')::date as day, channel,
    case when status = 'PENDING' then 'QUEUED' else status end as status, coalesce(provider, '') as provider, ${BUCKET} as bucket,
    ${sign}::bigint as messages, ${sign} * segments::bigint as segments, ${sign} * cost::bigint as cost
  from ${table}`;

/** Sums signed rows per key, drops keys whose net change is zero, and upserts the rest in key order. */
const upsert = (rows: string) => `insert into message_daily_stats as s (organization_id, day, channel, status, provider, bucket, messages, segments, cost)
    select organization_id, day, channel, status, provider, bucket, sum(messages), sum(segments), sum(cost)
    from (${rows}) k
    group by 1, 2, 3, 4, 5, 6
    having sum(messages) <> 0 or sum(segments) <> 0 or sum(cost) <> 0
    order by 1, 2, 3, 4, 5, 6
    on conflict (organization_id, day, channel, status, provider, bucket) do update
    set messages = s.messages + excluded.messages, segments = s.segments + excluded.segments, cost = s.cost + excluded.cost;`;

/**
 * `message_daily_stats` (migration 0010) for set-based writes:
 *
 * - Updates are counted per statement, like inserts and deletes: deliveries are recorded set-based
 *   (one statement moves a whole batch to SENT, docs/messaging.md), and the per-row trigger upserted
 *   two counter rows per message, in message order, so two workers' batches could lock the same
 *   counter rows in opposite orders and deadlock; it also cost 4-5 times as much. The statement
 *   trigger sums the statement's changes (old rows out, new rows in), drops counters whose net change
 *   is zero (a delivery's claim, QUEUED -> PENDING, changes nothing) and upserts the rest in key
 *   order. PostgreSQL allows transition tables only on triggers without a column list, so it fires
 *   on every update of messages; one that changes no counted column costs an aggregate over its own
 *   rows and writes nothing.
 * - The bucket is the writer's connection, not the message: with buckets by message id, every bulk
 *   insert of 100 messages touched all 8 counter rows of its organization and day and held them until
 *   commit, so concurrent sends of one organization queued behind each other. Sums over buckets (all
 *   that analytics read) stay exact; a single bucket may go negative.
 */
export const statementLevelStats: Migration = {
  id: '0011-statement-level-stats',
  statements: [
    'drop trigger message_daily_stats_update on messages',
    `create or replace function message_daily_stats_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        ${upsert(signed('new_rows', 1))}
      elsif tg_op = 'DELETE' then
        ${upsert(signed('old_rows', -1))}
      else
        ${upsert(`${signed('old_rows', -1)} union all ${signed('new_rows', 1)}`)}
      end if;
      return null;
    end $$`,
    `create trigger message_daily_stats_update after update on messages referencing old table as old_rows new table as new_rows
      for each statement execute function message_daily_stats_apply()`,
  ],
};
