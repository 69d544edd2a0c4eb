import { QUEUES } from '../../core/ports/job-queue.ts';
import type { DeliverMessage } from '../../core/use-cases/messaging/deliver-message.ts';
import { CompletedWith, type JobHandler } from './job-handler.ts';

const messageIdOf = (data: Record<string, unknown>): string | null => (typeof data['messageId'] === 'string' ? data['messageId'] : null);

/** The output of a job whose message went back to waiting for a rate slot (delivery-pacing.ts): a new job carries it on. */
export const POSTPONED = new CompletedWith({ postponed: true });

/**
 * notification-send: one job per message id; DeliverMessage is idempotent, so a redelivered job is harmless.
 * A fetched batch is delivered set-based (one claim statement, one record statement for its accepted
 * attempts); `fetchers` batches are in flight at once, so a slow batch (one slow vendor) never idles the queue,
 * and the express loop (when given) takes passcodes and quiet tenants' single messages as they come.
 */
export function deliverMessageHandler(deliver: DeliverMessage, batchSize: number, fetchers = 4, express?: JobHandler['express']): JobHandler {
  return {
    queue: QUEUES.notificationSend,
    batchSize,
    fetchers,
    ...(express ? { express } : {}),
    async handle(data) {
      const messageId = messageIdOf(data);
      if (!messageId) return; // malformed job: nothing to deliver
      await deliver.execute(messageId);
    },
    async handleBatch(batch) {
      const ids = batch.map(messageIdOf);
      const outcomes = await deliver.executeMany(ids.filter((id): id is string => id !== null));
      let next = 0;
      return ids.map((id) => { // malformed jobs: nothing to deliver
        if (id === null) return null;
        const outcome = outcomes[next++];
        if (outcome?.error !== undefined) return outcome.error;
        // Back to waiting without an error: postponed for a rate slot (a new job is queued), not delivered; the backlog's drain leaves it out.
        return outcome?.message && (outcome.message.status === 'QUEUED' || outcome.message.status === 'PENDING') ? POSTPONED : null;
      });
    },
  };
}
