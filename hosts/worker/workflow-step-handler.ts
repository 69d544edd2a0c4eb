import { QUEUES } from '../../core/ports/job-queue.ts';
import type { JoinDigestsInBatch } from '../../core/use-cases/workflows/join-digests-in-batch.ts';
import type { RunWorkflowStep } from '../../core/use-cases/workflows/run-workflow-step.ts';
import type { SendStepsInBatch } from '../../core/use-cases/workflows/send-steps-in-batch.ts';
import type { JobHandler } from './job-handler.ts';

/**
 * workflow-step `{ runId }`: runs a workflow run on from its cursor (RunWorkflowStep ignores stale or repeated jobs); a
 * malformed job is dropped. A fetched batch (`batchSize` jobs) takes the set-wise paths: due delays of jobs enqueued
 * before the delay resumer (one statement), the digest joins (one transaction, JoinDigestsInBatch); the runs left
 * go one by one up to their send step, at most `concurrency` at once (each holds a connection for its step's
 * transaction); the runs standing at a send step are accepted together (SendStepsInBatch); then those with steps
 * left (or that the batch send left out) go on one by one. A set-wise path that fails rolled back as a whole: its
 * runs take the one-by-one path.
 */
export function workflowStepHandler(run: RunWorkflowStep, batchSize: number,
  options: { joins?: JoinDigestsInBatch; sends?: SendStepsInBatch; concurrency?: number } = {}): JobHandler {
  const concurrency = Math.max(1, options.concurrency ?? batchSize);
  const none = new Set<string>();
  return {
    queue: QUEUES.workflowStep,
    batchSize,
    async handle(data) {
      const runId = typeof data['runId'] === 'string' ? data['runId'] : null;
      if (!runId || runId.length > 64) return;
      await run.execute(runId);
    },
    /** Outcomes per job, in order (ids repeated in a batch run once more: harmless). */
    async handleBatch(batch) {
      const ids = batch.map((data) => (typeof data['runId'] === 'string' && data['runId'].length <= 64 ? data['runId'] : null));
      const valid = ids.filter((id): id is string => id !== null);
      const done = await run.resumeDueDelays(valid);
      const joined = options.joins ? await options.joins.execute(valid.filter((id) => !done.has(id))).catch(() => none) : none;
      const outcomes: unknown[] = ids.map(() => null);
      const left = ids.flatMap((id, i) => (id && !done.has(id) && !joined.has(id) ? [i] : []));
      const atSend = new Set<number>();
      const oneByOne = async (indexes: number[], stopAtSend: boolean) => {
        let next = 0;
        await Promise.all(Array.from({ length: Math.min(concurrency, indexes.length) }, async () => {
          while (next < indexes.length) {
            const i = indexes[next++]!;
            outcomes[i] = await run.execute(ids[i]!, { stopAtSend }).then((stopped) => { if (stopped) atSend.add(i); return null; }, (error: unknown) => error ?? new Error('job failed'));
          }
        }));
      };
      if (!options.sends) { await oneByOne(left, false); return outcomes; }
      await oneByOne(left, true);
      const waiting = [...atSend];
      const sent = await options.sends.execute(waiting.map((i) => ids[i]!)).catch(() => none);
      atSend.clear();
      await oneByOne(waiting.filter((i) => !sent.has(ids[i]!)), false);
      return outcomes;
    },
  };
}
