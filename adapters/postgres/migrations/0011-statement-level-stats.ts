import type { Migration } from './migration.ts';

/** The roll-up row of each message in a transition table, signed: `sign` -1 takes it out, +1 puts it in. */
const signedRollUp = (table: string, sign: 1 | -1) => `select organization_id, (created_at at time zone 'UTC')::date as day, channel,
    case when status = 'PENDING' then 'QUEUED' else status end as status, coalesce(provider, '') as provider, hashtext(id) & 7 as bucket,
    ${sign}::bigint as messages, ${sign} * segments::bigint as segments, ${sign} * cost::bigint as cost
  from ${table}`;

/**
 * `message_daily_stats` (migration 0010) follows message updates per statement instead of per row:
 * deliveries are recorded set-based (one statement moves a whole batch to SENT, docs/messaging.md), and
 * a per-row trigger would upsert two counter rows per message, in message order, so two workers'
 * batches could lock the same counter rows in opposite orders and deadlock. The statement trigger sums
 * the batch's changes (old rows out, new rows in), drops the counters whose net change is zero (a
 * delivery's claim, QUEUED -> PENDING, counts as no change) and upserts the rest in key order: one
 * upsert per statement, deadlock-free. PostgreSQL allows transition tables only on triggers without a
 * column list, so it fires on every update of messages; one that changes no counted column costs an
 * aggregate over its own rows and writes nothing.
 */
export const statementLevelStats: Migration = {
  id: '0011-statement-level-stats',
  statements: [
    'drop trigger message_daily_stats_update on messages',
    `create function message_daily_stats_apply_update() returns trigger language plpgsql as $$
    begin
      insert into message_daily_stats as s (organization_id, day, channel, status, provider, bucket, messages, segments, cost)
        select organization_id, day, channel, status, provider, bucket, sum(messages), sum(segments), sum(cost)
        from (${signedRollUp('old_rows', -1)} union all ${signedRollUp('new_rows', 1)}) k
        group by 1, 2, 3, 4, 5, 6
        having sum(messages) <> 0 or sum(segments) <> 0 or sum(cost) <> 0
        order by 1, 2, 3, 4, 5, 6
        on conflict (organization_id, day, channel, status, provider, bucket) do update
        set messages = s.messages + excluded.messages, segments = s.segments + excluded.segments, cost = s.cost + excluded.cost;
      return null;
    end $$`,
    `create trigger message_daily_stats_update after update on messages referencing old table as old_rows new table as new_rows
      for each statement execute function message_daily_stats_apply_update()`,
  ],
};
