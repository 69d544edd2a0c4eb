import { QUEUES } from '../../core/ports/job-queue.ts';
import type { DeliverJob, DeliverWebhooks } from '../../core/use-cases/webhooks/deliver-webhooks.ts';
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

function deliverJob(data: Record<string, unknown>): DeliverJob | null {
  const job = ids(data, 'deliveryId');
  return job ? { organizationId: job.organizationId, deliveryId: job.id } : null;
}

/**
 * webhook-deliver: retries and replays, a fetched batch at once (set-based, like webhook-dispatch); the
 * use case schedules each next attempt itself (startAfter), so a failed attempt completes its job.
 */
export function webhookDeliverHandler(deliver: DeliverWebhooks, batchSize: number): JobHandler {
  return {
    queue: QUEUES.webhookDeliver, batchSize,
    async handle(data) {
      const job = deliverJob(data);
      if (job) await deliver.execute([job]);
    },
    async handleBatch(batch) {
      await deliver.execute(batch.map(deliverJob).filter((job) => job !== null)); // malformed jobs: nothing to deliver
      return batch.map(() => null);
    },
  };
}
