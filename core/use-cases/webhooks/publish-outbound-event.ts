import type { OutboundEvent } from '../../domain/outbound-event.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories } from '../../ports/storage.ts';

/**
 * Records an outbound webhook event and enqueues its fan-out, through `tx` so both commit with the
 * change the event describes. Call it from inside a `Storage.transaction`.
 */
export async function publishOutboundEvent(tx: Pick<Repositories, 'outboundEvents' | 'jobs'>, event: OutboundEvent): Promise<void> {
  await tx.outboundEvents.record(event);
  await tx.jobs.enqueue(QUEUES.webhookDispatch, { eventId: event.id, organizationId: event.organizationId });
}
