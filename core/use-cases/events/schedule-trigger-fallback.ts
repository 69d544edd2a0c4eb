import { QUEUES } from '../../ports/job-queue.ts';
import type { Repositories } from '../../ports/storage.ts';

/**
 * Delay of the job: a failure at send time is handled by the request itself (TriggerEvent answers
 * with the fallback already taken); the job is then a no-op. The delay lets the request win that
 * race, so its 201 shows the fallback's outcome; a failure reported later just falls back 3 s later.
 */
export const TRIGGER_FALLBACK_DELAY_SECONDS = 3;

/**
 * Called by the delivery path in the transaction that makes a message finally FAILED (DeliverMessage,
 * ApplyDeliveryReport): when an event trigger sent the message, enqueues `trigger-fallback` so the
 * trigger's next step (a retry or the next channel) runs in the worker. One indexed lookup, and only
 * for failed messages. AdvanceTrigger ignores a job whose message is no longer the trigger's current
 * one, so a fallback already taken inline (at send time) is never taken twice.
 */
export async function scheduleTriggerFallback(tx: Repositories, messageId: string): Promise<void> {
  const step = await tx.eventTriggers.findStepByMessage(messageId);
  if (step) await tx.jobs.enqueue(QUEUES.triggerFallback, { triggerId: step.triggerId, messageId }, { startAfterSeconds: TRIGGER_FALLBACK_DELAY_SECONDS });
}
