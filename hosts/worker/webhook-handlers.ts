import { QUEUES } from '../../core/ports/job-queue.ts';
import type { DeliverWebhook } from '../../core/use-cases/webhooks/deliver-webhook.ts';
import type { DispatchOutboundEvent } from '../../core/use-cases/webhooks/dispatch-outbound-event.ts';
import type { JobHandler } from './job-handler.ts';

function ids(data: Record<string, unknown>, key: string): { organizationId: string; id: string } | null {
  const organizationId = data['organizationId'];
  const id = data[key];
  return typeof organizationId === 'string' && typeof id === 'string' ? { organizationId, id } : null;
}

/** webhook-dispatch: fans an outbox event out to subscribed endpoints (idempotent: deliveries are unique per endpoint and event). */
export function webhookDispatchHandler(dispatch: DispatchOutboundEvent, batchSize: number): JobHandler {
  return {
    queue: QUEUES.webhookDispatch, batchSize,
    async handle(data) {
      const job = ids(data, 'eventId');
      if (job) await dispatch.execute(job.organizationId, job.id);
    },
  };
}

/** webhook-deliver: one attempt; the use case schedules the next one itself (startAfter), so a failed attempt completes its job. */
export function webhookDeliverHandler(deliver: DeliverWebhook, batchSize: number): JobHandler {
  return {
    queue: QUEUES.webhookDeliver, batchSize,
    async handle(data) {
      const job = ids(data, 'deliveryId');
      if (job) await deliver.execute(job.organizationId, job.id);
    },
  };
}
