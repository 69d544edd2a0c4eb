import type { Migration } from './migration.ts';

/**
 * The delay resumer (docs/adr/0044-workflow-exactly-once.md, "Due delays"): every worker claims the WAITING
 * delay steps due now in resume-time order, in chunks. This partial index holds only the waiting delay steps,
 * so a claim reads the due ones in order and nothing else; a step leaves it when it is DONE.
 */
export const workflowDueDelays: Migration = {
  id: '0070-workflow-due-delays',
  statements: [
    `create index workflow_step_runs_due_delays on workflow_step_runs (resume_at) where status = 'WAITING' and type = 'delay'`,
  ],
};
