import type { Migration } from './migration.ts';

/**
 * Workflow waits for a read, a reply or a click (docs/workflows.md): the place that records such an event
 * (the inbox, the inbound webhook, the link redirect's click flush) looks up the organization's WAITING runs
 * by their `waiting_for` key (`read:<subscriber>`, `reply:<phone>`, `click:<trigger>`). A partial index: only
 * waiting runs carry a key.
 */
export const workflowWaitingFor: Migration = {
  id: '0066-workflow-waiting-for',
  statements: [
    `create index workflow_runs_waiting_for on workflow_runs (organization_id, waiting_for) where waiting_for is not null and status = 'WAITING'`,
  ],
};
