import { QUEUES } from '../../core/ports/job-queue.ts';
import type { RunWorkflowStep } from '../../core/use-cases/workflows/run-workflow-step.ts';
import type { JobHandler } from './job-handler.ts';

/** workflow-step `{ runId }`: runs a workflow run on from its cursor (RunWorkflowStep ignores stale or repeated jobs); a malformed job is dropped. */
export function workflowStepHandler(run: RunWorkflowStep, batchSize: number): JobHandler {
  return {
    queue: QUEUES.workflowStep,
    batchSize,
    async handle(data) {
      const runId = typeof data['runId'] === 'string' ? data['runId'] : null;
      if (!runId || runId.length > 64) return;
      await run.execute(runId);
    },
  };
}
