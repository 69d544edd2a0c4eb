import type { PgBoss } from 'pg-boss';
import { isAppError } from '../../core/errors.ts';
import type { Logger } from '../logger.ts';
import { CompletedWith, type JobHandler } from './job-handler.ts';
import { traceJobs, type WithinJob } from './job-tracing.ts';
import { tracingOn } from '../../adapters/telemetry/tracing.ts';
import { startPeriodicTasks, type PeriodicTask } from './periodic-task.ts';
import { WORKER_POLICY_BY_CODE } from './retry-policy.ts';

export interface RunningWorker {
  /** Stops fetching and waits for in-flight jobs (pg-boss graceful stop happens in Infrastructure.close). */
  stop(): Promise<void>;
}

/**
 * Subscribes every handler to its queue. A failure that the retry policy calls permanent is completed
 * with its reason instead of thrown, so pg-boss does not retry it; anything else is thrown and retried
 * with the queue's exponential backoff.
 */
export async function startWorker(boss: PgBoss, handlers: readonly JobHandler[], logger: Logger, tasks: readonly PeriodicTask[] = [],
  pollingIntervalSeconds = 0.5): Promise<RunningWorker> {
  const ids: string[] = [];
  for (const handler of handlers) {
    // Notify-enabled queues (pg-boss-factory.ts) are woken by NOTIFY; the poll is their safety net.
    const options = {
      batchSize: handler.batchSize, pollingIntervalSeconds, notifyPollingIntervalSeconds: pollingIntervalSeconds, burstWhenBatchFull: true, localConcurrency: handler.fetchers ?? 1, perJobResults: true,
    } as const;
    // Per-job results: one job's failure retries that job only, never the rest of its batch.
    const work = async (jobs: ReadonlyArray<{ id: string; data: Record<string, unknown> }>) => {
      const run = (within: WithinJob) => (handler.handleBatch
        ? handler.handleBatch(jobs.map((job) => job.data)).catch((error: unknown) => jobs.map(() => error ?? new Error('batch failed')))
        : Promise.all(jobs.map(async (job, i) => within(i, () => handler.handle(job.data)).then(() => null, (error: unknown) => error ?? new Error('job failed')))));
      // Tracing off: no span, no context, nothing looked up (docs/observability.md).
      const outcomes = tracingOn() ? await traceJobs(handler.queue, jobs, run) : await run(untraced);
      return jobs.map((job, index) => jobResult(handler.queue, job.id, outcomes[index] ?? null, logger));
    };
    ids.push(await boss.work<Record<string, unknown>, unknown, typeof options>(handler.queue, options, work));
    if (handler.express) {
      const express = { ...options, batchSize: handler.express.batchSize, localConcurrency: handler.express.fetchers, minPriority: handler.express.minPriority };
      ids.push(await boss.work<Record<string, unknown>, unknown, typeof express>(handler.queue, express, work));
    }
  }
  const periodic = startPeriodicTasks(tasks, logger);
  logger.info({ queues: handlers.map((h) => h.queue), tasks: tasks.map((t) => t.name) }, 'worker started');
  return {
    async stop() {
      await periodic.stop();
      await Promise.all(handlers.map((h) => boss.offWork(h.queue, { wait: true } as never).catch(() => undefined)));
    },
  };
}

const untraced: WithinJob = (_index, fn) => fn();

/** A job's result for pg-boss: completed, or failed (retried) unless the retry policy calls the error permanent. */
function jobResult(queue: string, jobId: string, error: unknown, logger: Logger) { // error: the handler's outcome for the job
  if (error === null) return { id: jobId, status: 'completed' as const };
  if (error instanceof CompletedWith) return { id: jobId, status: 'completed' as const, output: error.output };
  const permanent = isAppError(error) && !error.retryable && WORKER_POLICY_BY_CODE[error.code] === 'fail';
  logger.warn({ queue, jobId, err: error, permanent }, 'job failed');
  const reason = { message: error instanceof Error ? error.message : String(error), code: isAppError(error) ? error.code : null };
  return { id: jobId, status: permanent ? 'completed' as const : 'failed' as const, output: reason };
}
