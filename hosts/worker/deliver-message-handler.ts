import { QUEUES } from '../../core/ports/job-queue.ts';
import type { DeliverMessage } from '../../core/use-cases/messaging/deliver-message.ts';
import type { JobHandler } from './job-handler.ts';

/** notification-send: one job per message id; DeliverMessage is idempotent, so a redelivered job is harmless. */
/** `fetchers` batches are in flight at once, so a slow batch (one slow vendor) never idles the queue. */
export function deliverMessageHandler(deliver: DeliverMessage, batchSize: number, fetchers = 4): JobHandler {
  return {
    queue: QUEUES.notificationSend,
    batchSize,
    fetchers,
    async handle(data) {
      const messageId = typeof data['messageId'] === 'string' ? data['messageId'] : null;
      if (!messageId) return; // malformed job: nothing to deliver
      await deliver.execute(messageId);
    },
  };
}
