import type { OutboundEvent } from '../../domain/outbound-event.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories } from '../../ports/storage.ts';
import type { TraceCarrier } from '../../ports/trace-capture.ts';

/**
 * Records an outbound webhook event and enqueues its fan-out, through `tx` so both commit with the
 * change the event describes. Call it from inside a `Storage.transaction`. `trace` (tracing on, a group commit):
 * the trace of the change's own caller, null for none; without it the queue takes the active one.
 */
export async function publishOutboundEvent(tx: Pick<Repositories, 'outboundEvents' | 'jobs'>, event: OutboundEvent, trace?: TraceCarrier | null): Promise<void> {
  await tx.outboundEvents.record(event);
  const data = { eventId: event.id, organizationId: event.organizationId };
  await tx.jobs.enqueue(QUEUES.webhookDispatch, trace === undefined ? data : { ...data, trace });
}
