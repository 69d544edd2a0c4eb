import { QUEUES } from '../../core/ports/job-queue.ts';
import type { RunFanOut } from '../../core/use-cases/workflows/run-fan-out.ts';
import type { Logger } from '../logger.ts';
import type { JobHandler } from './job-handler.ts';

/** workflow-fan-out `{ fanOutId, organizationId }`: streams a fan-out's audience page by page (a retried job resumes at the cursor). */
export function workflowFanOutHandler(run: RunFanOut, logger: Logger): JobHandler {
  return {
    queue: QUEUES.workflowFanOut,
    batchSize: 2,
    async handle(data) {
      const fanOutId = typeof data['fanOutId'] === 'string' && data['fanOutId'].length <= 64 ? data['fanOutId'] : null;
      const organizationId = typeof data['organizationId'] === 'string' && data['organizationId'].length <= 64 ? data['organizationId'] : null;
      if (!fanOutId || !organizationId) return;
      const fanOut = await run.execute({ fanOutId, organizationId });
      if (fanOut && fanOut.status !== 'RUNNING') {
        logger[fanOut.status === 'FAILED' ? 'warn' : 'info']({ event: 'fan-out.finished', fanOutId, organizationId, status: fanOut.status,
          processed: fanOut.processed, started: fanOut.started, skipped: fanOut.skipped, ...(fanOut.failureReason ? { failureReason: fanOut.failureReason } : {}) }, 'fan-out finished');
      }
    },
  };
}
