import type { Migration } from './migration.ts';

/**
 * Webhook endpoints and their deliveries (docs/webhooks.md), and the exact daily roll-up of delivery
 * logs that analytics read (docs/analytics.md): `message_daily_stats` holds, per organization, UTC day,
 * channel, status, provider and bucket (hashtext(id) & 7, so concurrent workers rarely wait on one
 * counter row), the count, segments and cost of the messages. Triggers keep it in step with
 * `messages` inside the same transaction: inserts and deletes per statement (transition tables),
 * updates per row and only when a counted column changes. QUEUED and PENDING (not sent yet) count as
 * one status, QUEUED, so a delivery's claim (QUEUED -> PENDING) does not fire the trigger: one
 * firing per delivery (PENDING -> SENT/FAILED), plus one per delivery report.
 *
 * Lock order (no deadlocks): every upsert locks its counter rows in key order (ORDER BY), and a
 * transaction that changes counted message columns AND locks the wallet must lock the wallet first,
 * as the send path (accept-messages.ts) and the refunding failures (deliver-message.ts,
 * apply-delivery-report.ts) do. Otherwise a refund holding a counter row could wait for the wallet
 * while a send holding the wallet waits for that counter row. `ledger_daily_stats` does the same for the
 * ledger (entries are never updated: inserts and deletes only).
 */
export const webhooksAnalytics: Migration = {
  id: '0010-webhooks-analytics',
  statements: [
    `create table webhook_endpoints (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      url text not null,
      events jsonb not null default '[]',
      is_active boolean not null,
      secret_ciphertext text not null,
      previous_secret_ciphertext text null,
      previous_secret_expires_at timestamptz null,
      disabled_reason text null,
      failing_since timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    `create index webhook_endpoints_org_created on webhook_endpoints (organization_id, created_at desc, id desc)`,
    `create index webhook_endpoints_org_active on webhook_endpoints (organization_id) where is_active`,
    `create table webhook_deliveries (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      endpoint_id text not null references webhook_endpoints (id) on delete cascade,
      event_id text not null,
      kind text not null,
      status text not null check (status in ('PENDING','SUCCEEDED','FAILED')),
      attempts integer not null default 0,
      response_code integer null,
      last_error text null,
      next_attempt_at timestamptz null,
      last_attempt_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (endpoint_id, event_id)
    )`,
    `create index webhook_deliveries_endpoint_created on webhook_deliveries (endpoint_id, created_at desc, id desc)`,
    `create table message_daily_stats (
      organization_id text not null,
      day date not null,
      channel text not null,
      status text not null,
      provider text not null,
      bucket smallint not null,
      messages bigint not null,
      segments bigint not null,
      cost bigint not null,
      primary key (organization_id, day, channel, status, provider, bucket)
    )`,
    `insert into message_daily_stats (organization_id, day, channel, status, provider, bucket, messages, segments, cost)
      select organization_id, (created_at at time zone 'UTC')::date, channel, case when status = 'PENDING' then 'QUEUED' else status end,
        coalesce(provider, ''), hashtext(id) & 7, count(*), sum(segments), sum(cost)
      from messages group by 1, 2, 3, 4, 5, 6`,
    `create function message_daily_stats_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into message_daily_stats as s (organization_id, day, channel, status, provider, bucket, messages, segments, cost)
          select organization_id, (created_at at time zone 'UTC')::date, channel, case when status = 'PENDING' then 'QUEUED' else status end,
            coalesce(provider, ''), hashtext(id) & 7, count(*), sum(segments), sum(cost)
          from new_rows group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
          on conflict (organization_id, day, channel, status, provider, bucket) do update
          set messages = s.messages + excluded.messages, segments = s.segments + excluded.segments, cost = s.cost + excluded.cost;
      elsif tg_op = 'DELETE' then
        update message_daily_stats s set messages = s.messages - d.messages, segments = s.segments - d.segments, cost = s.cost - d.cost
          from (select organization_id, (created_at at time zone 'UTC')::date as day, channel, case when status = 'PENDING' then 'QUEUED' else status end as status,
                  coalesce(provider, '') as provider,
                  hashtext(id) & 7 as bucket, count(*) as messages, sum(segments) as segments, sum(cost) as cost
                from old_rows group by 1, 2, 3, 4, 5, 6) d
          where s.organization_id = d.organization_id and s.day = d.day and s.channel = d.channel and s.status = d.status
            and s.provider = d.provider and s.bucket = d.bucket;
      else
        insert into message_daily_stats as s (organization_id, day, channel, status, provider, bucket, messages, segments, cost)
          select k.organization_id, k.day, k.channel, k.status, k.provider, k.bucket, sum(k.messages), sum(k.segments), sum(k.cost)
          from (values (old.organization_id, (old.created_at at time zone 'UTC')::date, old.channel, case when old.status = 'PENDING' then 'QUEUED' else old.status end,
                  coalesce(old.provider, ''), hashtext(old.id) & 7, -1, -old.segments::bigint, -old.cost),
                 (new.organization_id, (new.created_at at time zone 'UTC')::date, new.channel, case when new.status = 'PENDING' then 'QUEUED' else new.status end,
                  coalesce(new.provider, ''), hashtext(new.id) & 7, 1, new.segments::bigint, new.cost))
            as k (organization_id, day, channel, status, provider, bucket, messages, segments, cost)
          group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
          on conflict (organization_id, day, channel, status, provider, bucket) do update
          set messages = s.messages + excluded.messages, segments = s.segments + excluded.segments, cost = s.cost + excluded.cost;
      end if;
      return null;
    end $$`,
    `create trigger message_daily_stats_insert after insert on messages referencing new table as new_rows
      for each statement execute function message_daily_stats_apply()`,
    `create trigger message_daily_stats_delete after delete on messages referencing old table as old_rows
      for each statement execute function message_daily_stats_apply()`,
    `create trigger message_daily_stats_update after update of status, cost, segments, channel, provider, created_at, organization_id on messages
      for each row when ((case when old.status = 'PENDING' then 'QUEUED' else old.status end) is distinct from (case when new.status = 'PENDING' then 'QUEUED' else new.status end)
        or old.cost is distinct from new.cost or old.segments is distinct from new.segments
        or old.channel is distinct from new.channel or old.provider is distinct from new.provider or old.created_at is distinct from new.created_at
        or old.organization_id is distinct from new.organization_id)
      execute function message_daily_stats_apply()`,
    `create table ledger_daily_stats (
      organization_id text not null,
      day date not null,
      kind text not null,
      amount bigint not null,
      entries bigint not null,
      primary key (organization_id, day, kind)
    )`,
    `insert into ledger_daily_stats (organization_id, day, kind, amount, entries)
      select organization_id, (created_at at time zone 'UTC')::date, kind, sum(amount), count(*) from ledger_entries group by 1, 2, 3`,
    `create function ledger_daily_stats_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into ledger_daily_stats as s (organization_id, day, kind, amount, entries)
          select organization_id, (created_at at time zone 'UTC')::date, kind, sum(amount), count(*) from new_rows group by 1, 2, 3
          on conflict (organization_id, day, kind) do update set amount = s.amount + excluded.amount, entries = s.entries + excluded.entries;
      else
        update ledger_daily_stats s set amount = s.amount - d.amount, entries = s.entries - d.entries
          from (select organization_id, (created_at at time zone 'UTC')::date as day, kind, sum(amount) as amount, count(*) as entries
                from old_rows group by 1, 2, 3) d
          where s.organization_id = d.organization_id and s.day = d.day and s.kind = d.kind;
      end if;
      return null;
    end $$`,
    `create trigger ledger_daily_stats_insert after insert on ledger_entries referencing new table as new_rows
      for each statement execute function ledger_daily_stats_apply()`,
    `create trigger ledger_daily_stats_delete after delete on ledger_entries referencing old table as old_rows
      for each statement execute function ledger_daily_stats_apply()`,
  ],
};
