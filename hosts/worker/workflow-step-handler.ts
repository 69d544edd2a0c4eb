import { QUEUES } from '../../core/ports/job-queue.ts';
import type { JoinDigestsInBatch } from '../../core/use-cases/workflows/join-digests-in-batch.ts';
import type { RunWorkflowStep } from '../../core/use-cases/workflows/run-workflow-step.ts';
import type { JobHandler } from './job-handler.ts';

/**
 * workflow-step `{ runId }`: runs a workflow run on from its cursor (RunWorkflowStep ignores stale or repeated jobs); a
 * malformed job is dropped. A fetched batch (`batchSize` jobs) first takes its set-wise paths: due delays of jobs
 * enqueued before the delay resumer (one statement), then the digest joins (one transaction, JoinDigestsInBatch);
 * the jobs left run one by one, at most `concurrency` at once (each holds a connection for its step's transaction).
 */
export function workflowStepHandler(run: RunWorkflowStep, batchSize: number, options: { joins?: JoinDigestsInBatch; concurrency?: number } = {}): JobHandler {
  const concurrency = Math.max(1, options.concurrency ?? batchSize);
  return {
    queue: QUEUES.workflowStep,
    batchSize,
    async handle(data) {
      const runId = typeof data['runId'] === 'string' ? data['runId'] : null;
      if (!runId || runId.length > 64) return;
      await run.execute(runId);
    },
    /** Set-wise paths for the whole batch, then every job not finished by them one by one (ids repeated in a batch run once more: harmless). */
    async handleBatch(batch) {
      const ids = batch.map((data) => (typeof data['runId'] === 'string' && data['runId'].length <= 64 ? data['runId'] : null));
      const valid = ids.filter((id): id is string => id !== null);
      const done = await run.resumeDueDelays(valid);
      // A refused batch join (a conflict, the database) rolled back as a whole: its runs go one by one below.
      const joined = options.joins ? await options.joins.execute(valid.filter((id) => !done.has(id))).catch(() => new Set<string>()) : new Set<string>();
      const outcomes: unknown[] = ids.map(() => null);
      const left = ids.flatMap((id, i) => (id && !done.has(id) && !joined.has(id) ? [i] : []));
      let next = 0;
      await Promise.all(Array.from({ length: Math.min(concurrency, left.length) }, async () => {
        while (next < left.length) {
          const i = left[next++]!;
          outcomes[i] = await run.execute(ids[i]!).then(() => null, (error: unknown) => error ?? new Error('job failed'));
        }
      }));
      return outcomes;
    },
  };
}
