import type { Migration } from './migration.ts';

/**
 * The dashboard's alert of failed workflow runs (docs/workflows.md, "Failed runs"): a partial index lists an
 * organization's FAILED runs by failure time (a run's `updated_at` does not move once it failed) without
 * touching the active runs, and one row per organization records how far its members acknowledged them.
 */
export const workflowFailureAlert: Migration = {
  id: '0068-workflow-failure-alert',
  statements: [
    `create index workflow_runs_failed on workflow_runs (organization_id, updated_at desc, id desc) where status = 'FAILED'`,
    `create table workflow_failure_acknowledgements (
      organization_id text primary key references organizations (id) on delete cascade,
      acknowledged_through timestamptz not null,
      acknowledged_by text null,
      acknowledged_at timestamptz not null
    )`,
  ],
};
