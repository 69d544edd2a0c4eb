import { QUEUES } from '../../core/ports/job-queue.ts';
import type { DeliverMessage } from '../../core/use-cases/messaging/deliver-message.ts';
import type { JobHandler } from './job-handler.ts';

const messageIdOf = (data: Record<string, unknown>): string | null => (typeof data['messageId'] === 'string' ? data['messageId'] : null);

/**
 * notification-send: one job per message id; DeliverMessage is idempotent, so a redelivered job is harmless.
 * A fetched batch is delivered set-based (one claim statement, one record statement for its accepted
 * attempts); `fetchers` batches are in flight at once, so a slow batch (one slow vendor) never idles the queue.
 */
export function deliverMessageHandler(deliver: DeliverMessage, batchSize: number, fetchers = 4): JobHandler {
  return {
    queue: QUEUES.notificationSend,
    batchSize,
    fetchers,
    async handle(data) {
      const messageId = messageIdOf(data);
      if (!messageId) return; // malformed job: nothing to deliver
      await deliver.execute(messageId);
    },
    async handleBatch(batch) {
      const ids = batch.map(messageIdOf);
      const outcomes = await deliver.executeMany(ids.filter((id): id is string => id !== null));
      let next = 0;
      return ids.map((id) => (id === null ? null : outcomes[next++]?.error ?? null)); // malformed jobs: nothing to deliver
    },
  };
}
