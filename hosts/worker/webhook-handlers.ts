import { QUEUES } from '../../core/ports/job-queue.ts';
import type { DeliverWebhook } from '../../core/use-cases/webhooks/deliver-webhook.ts';
import type { DispatchJob, DispatchOutboundEvents } from '../../core/use-cases/webhooks/dispatch-outbound-events.ts';
import type { JobHandler } from './job-handler.ts';

function ids(data: Record<string, unknown>, key: string): { organizationId: string; id: string } | null {
  const organizationId = data['organizationId'];
  const id = data[key];
  return typeof organizationId === 'string' && typeof id === 'string' ? { organizationId, id } : null;
}

function dispatchJob(data: Record<string, unknown>): DispatchJob | null {
  const job = ids(data, 'eventId');
  return job ? { organizationId: job.organizationId, eventId: job.id } : null;
}

/**
 * webhook-dispatch: fans outbox events out to subscribed endpoints and makes the first attempts, a
 * fetched batch at once (set-based: a few statements per batch, not per event). Idempotent (deliveries
 * are unique per endpoint and event). A failure fails the batch's jobs, which pg-boss retries.
 * `fetchers` batches are in flight at once, so a batch waiting on a slow receiver does not idle the queue.
 */
export function webhookDispatchHandler(dispatch: DispatchOutboundEvents, batchSize: number, fetchers = 2): JobHandler {
  return {
    queue: QUEUES.webhookDispatch, batchSize, fetchers,
    async handle(data) {
      const job = dispatchJob(data);
      if (job) await dispatch.execute([job]);
    },
    async handleBatch(batch) {
      await dispatch.execute(batch.map(dispatchJob).filter((job) => job !== null)); // malformed jobs: nothing to dispatch
      return batch.map(() => null);
    },
  };
}

/** webhook-deliver: one retry (or replay) attempt; the use case schedules the next one itself (startAfter), so a failed attempt completes its job. */
export function webhookDeliverHandler(deliver: DeliverWebhook, batchSize: number): JobHandler {
  return {
    queue: QUEUES.webhookDeliver, batchSize,
    async handle(data) {
      const job = ids(data, 'deliveryId');
      if (job) await deliver.execute(job.organizationId, job.id);
    },
  };
}
