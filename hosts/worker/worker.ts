import type { PgBoss } from 'pg-boss';
import { isAppError } from '../../core/errors.ts';
import type { Logger } from '../logger.ts';
import type { JobHandler } from './job-handler.ts';
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
export async function startWorker(boss: PgBoss, handlers: readonly JobHandler[], logger: Logger): Promise<RunningWorker> {
  const ids: string[] = [];
  for (const handler of handlers) {
    const id = await boss.work<Record<string, unknown>>(handler.queue, { batchSize: handler.batchSize, pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 0.5, burstWhenBatchFull: true } as never, async (jobs) => {
      const list = Array.isArray(jobs) ? jobs : [jobs];
      await Promise.all(list.map(async (job: { id: string; data: Record<string, unknown> }) => {
        try {
          await handler.handle(job.data);
        } catch (error) {
          const permanent = isAppError(error) && !error.retryable && WORKER_POLICY_BY_CODE[error.code] === 'fail';
          logger.warn({ queue: handler.queue, jobId: job.id, err: error, permanent }, 'job failed');
          if (!permanent) throw error;
        }
      }));
    });
    ids.push(id);
  }
  logger.info({ queues: handlers.map((h) => h.queue) }, 'worker started');
  return {
    async stop() {
      await Promise.all(handlers.map((h) => boss.offWork(h.queue, { wait: true } as never).catch(() => undefined)));
    },
  };
}
