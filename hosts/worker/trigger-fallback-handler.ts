import { QUEUES } from '../../core/ports/job-queue.ts';
import type { AdvanceTrigger } from '../../core/use-cases/events/advance-trigger.ts';
import type { JobHandler } from './job-handler.ts';

/** trigger-fallback: the next step of an event trigger whose message failed; AdvanceTrigger ignores stale or repeated jobs. */
export function triggerFallbackHandler(advance: AdvanceTrigger, batchSize: number): JobHandler {
  return {
    queue: QUEUES.triggerFallback,
    batchSize,
    async handle(data) {
      const triggerId = typeof data['triggerId'] === 'string' ? data['triggerId'] : null;
      const messageId = typeof data['messageId'] === 'string' ? data['messageId'] : null;
      if (!triggerId || !messageId) return; // malformed job: nothing to advance
      await advance.execute(triggerId, messageId);
    },
  };
}
