import type { Migration } from './migration.ts';

/**
 * Fan-outs (issue 31, docs/workflows.md "Fan-out", docs/adr/0048-fan-out-exactly-once.md): a trigger to a
 * segment or a topic, streamed by the worker in keyset pages; one row per (fan-out, contact) whose primary key
 * makes each recipient's run or trigger happen once, whatever the job's retries.
 */
export const eventFanOuts: Migration = {
  id: '0067-event-fan-outs',
  statements: [
    `create table event_fan_outs (
      id text primary key,
      organization_id text not null references organizations(id),
      event_id text not null references notification_events(id),
      event_slug text not null,
      kind text not null check (kind in ('RUNS','TRIGGERS')),
      segment_id text null,
      topic text null,
      request jsonb not null,
      status text not null check (status in ('RUNNING','COMPLETED','FAILED')),
      cursor text null,
      total integer not null,
      processed integer not null default 0,
      started integer not null default 0,
      skipped integer not null default 0,
      failure_reason text null,
      api_key_id text null,
      user_id text null,
      is_sandbox boolean not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      completed_at timestamptz null,
      check ((segment_id is null) <> (topic is null)))`,
    'create index event_fan_outs_org on event_fan_outs (organization_id, created_at desc)',
    `create table event_fan_out_recipients (
      fan_out_id text not null references event_fan_outs(id),
      contact_id text not null,
      organization_id text not null,
      run_id text null,
      trigger_id text null,
      skip_reason text null,
      primary key (fan_out_id, contact_id))`,
  ],
};
