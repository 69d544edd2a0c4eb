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
    /** Due delays of the whole batch in one statement, then every job not finished by it one by one (ids repeated in a batch run once more: harmless). */
    async handleBatch(batch) {
      const ids = batch.map((data) => (typeof data['runId'] === 'string' && data['runId'].length <= 64 ? data['runId'] : null));
      const done = await run.resumeDueDelays(ids.filter((id): id is string => id !== null));
      return Promise.all(ids.map(async (id) => {
        if (!id || done.has(id)) return null;
        return run.execute(id).then(() => null, (error: unknown) => error ?? new Error('job failed'));
      }));
    },
  };
}
