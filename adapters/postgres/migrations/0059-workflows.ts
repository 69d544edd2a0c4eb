import type { Migration } from './migration.ts';

/**
 * Workflows (issue 31, docs/workflows.md, docs/adr/0044-workflow-exactly-once.md): versions of an event's
 * step list, runs (each keeps the steps of its version), one row per executed step (primary key (run, index):
 * the claim that makes a step's side effect happen once), digest buckets with their items (a bucket is
 * flushed once: OPEN -> FLUSHED under its row lock), and throttle windows counted under a row lock.
 */
export const workflows: Migration = {
  id: '0059-workflows',
  statements: [
    `create table workflow_versions (
      id text primary key,
      organization_id text not null references organizations(id),
      event_id text not null references notification_events(id),
      version integer not null check (version >= 1),
      steps jsonb not null check (jsonb_typeof(steps) = 'array'),
      cancel_on jsonb not null default '[]'::jsonb,
      retry jsonb not null,
      created_at timestamptz not null,
      unique (event_id, version))`,
    'create index workflow_versions_org_event on workflow_versions (organization_id, event_id, version desc)',
    `create table workflow_runs (
      id text primary key,
      organization_id text not null references organizations(id),
      event_id text not null references notification_events(id),
      event_slug text not null,
      version integer not null,
      steps jsonb not null,
      cancel_on jsonb not null,
      retry jsonb not null,
      request jsonb not null,
      correlation_key text null,
      status text not null check (status in ('RUNNING','WAITING','COMPLETED','CANCELLED','FAILED')),
      cursor integer not null,
      attempts integer not null default 0,
      waiting_for text null,
      signal jsonb null,
      digest jsonb null,
      error jsonb null,
      api_key_id text null,
      user_id text null,
      is_sandbox boolean not null,
      created_at timestamptz not null,
      updated_at timestamptz not null)`,
    'create index workflow_runs_org_event on workflow_runs (organization_id, event_id, created_at desc, id desc)',
    `create index workflow_runs_active_key on workflow_runs (organization_id, correlation_key) where correlation_key is not null and status in ('RUNNING','WAITING')`,
    `create table workflow_step_runs (
      run_id text not null references workflow_runs(id),
      step_index integer not null,
      organization_id text not null,
      type text not null,
      status text not null check (status in ('WAITING','DONE','FAILED')),
      outcome text null,
      message_id text null,
      trigger_id text null,
      resume_at timestamptz null,
      detail jsonb not null default '{}'::jsonb,
      started_at timestamptz not null,
      finished_at timestamptz null,
      primary key (run_id, step_index))`,
    `create table workflow_digest_buckets (
      id text primary key,
      organization_id text not null,
      bucket_key text not null,
      owner_run_id text not null,
      status text not null check (status in ('OPEN','FLUSHED')),
      item_count integer not null default 0,
      flush_at timestamptz not null,
      created_at timestamptz not null)`,
    'create index workflow_digest_buckets_key on workflow_digest_buckets (organization_id, bucket_key, created_at desc)',
    `create table workflow_digest_items (
      bucket_id text not null references workflow_digest_buckets(id),
      run_id text not null,
      variables jsonb not null,
      added_at timestamptz not null,
      primary key (bucket_id, run_id))`,
    `create table workflow_throttles (
      organization_id text not null,
      throttle_key text not null,
      window_start timestamptz not null,
      taken integer not null,
      primary key (organization_id, throttle_key, window_start))`,
  ],
};
