import { QUEUES, type QueueName } from '../../core/ports/job-queue.ts';
import type { AdvanceTrigger } from '../../core/use-cases/events/advance-trigger.ts';
import type { JobHandler } from './job-handler.ts';

/** trigger-fallback: the next step of an event trigger whose message failed; AdvanceTrigger ignores stale or repeated jobs. */
export function triggerFallbackHandler(advance: AdvanceTrigger, batchSize: number): JobHandler {
  return triggerStepHandler(QUEUES.triggerFallback, advance, batchSize);
}

/** A job `{ triggerId, messageId }` that moves an event trigger on; a malformed job is dropped (nothing to advance). */
export function triggerStepHandler(queue: QueueName, advance: { execute(triggerId: string, messageId: string): Promise<unknown> }, batchSize: number): JobHandler {
  return {
    queue,
    batchSize,
    async handle(data) {
      const triggerId = typeof data['triggerId'] === 'string' ? data['triggerId'] : null;
      const messageId = typeof data['messageId'] === 'string' ? data['messageId'] : null;
      if (!triggerId || !messageId) return;
      await advance.execute(triggerId, messageId);
    },
  };
}
