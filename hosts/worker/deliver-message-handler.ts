import { QUEUES } from '../../core/ports/job-queue.ts';
import type { DeliverMessage } from '../../core/use-cases/messaging/deliver-message.ts';
import type { JobHandler } from './job-handler.ts';

/** notification-send: one job per message id; DeliverMessage is idempotent, so a redelivered job is harmless. */
export function deliverMessageHandler(deliver: DeliverMessage, batchSize: number): JobHandler {
  return {
    queue: QUEUES.notificationSend,
    batchSize,
    async handle(data) {
      const messageId = typeof data['messageId'] === 'string' ? data['messageId'] : null;
      if (!messageId) return; // malformed job: nothing to deliver
      await deliver.execute(messageId);
    },
  };
}
