import type { Message } from '../../domain/message.ts';
import { messageStatusUpdatedEvent } from '../../domain/webhook.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';
import { diedOfDeadToken, publishesTokenRemoval, removeDeadPushToken } from '../contacts/remove-dead-push-token.ts';
import { scheduleTriggerFallback } from '../events/schedule-trigger-fallback.ts';
import { schedulePasscodeFallback } from '../verify/schedule-passcode-fallback.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';

/** What failing a delivery needs (a part of DeliverMessageDeps). */
export interface DeliveryFailureDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  webhooks?: WebhookSubscriptions | undefined;
  onStatusChange?: ((message: Message) => void) | undefined;
}

/**
 * A delivery that ended for good (DeliverMessage): FAILED plus the refund in one transaction, with what
 * follows a failure in the same transaction (an event's next channel, a passcode's fallback, a dead push
 * token's removal), then the status change in the message's history. Null when the message had moved on.
 */
export async function failDelivery(deps: DeliveryFailureDeps, message: Message, errorCode: string, errorMessage: string, provider: string | null): Promise<Message | null> {
  const { storage, clock } = deps;
  const deadToken = diedOfDeadToken(message, errorCode);
  const publishRemoval = deadToken && await publishesTokenRemoval(deps.webhooks, message.organizationId);
  const failed = await storage.transaction(async (tx) => {
    const now = clock.now();
    // Wallet row first, as the send path does: the transition below also locks analytics counter rows (migration 0010).
    if (message.cost > 0) await tx.wallets.update(message.organizationId, () => null, now);
    const moved = await tx.messages.transition(message.id, ['PENDING'], {
      status: 'FAILED', errorCode, errorMessage, failedAt: now, cost: 0, leaseUntil: null, updatedAt: now, provider, ...(message.sealedContent ? { sealedContent: null } : {}),
    });
    if (moved && message.cost > 0) {
      await tx.wallets.update(message.organizationId, () => ({
        amount: message.cost, kind: 'REFUND', reference: message.id, description: `Refund: ${message.channel} message ${message.internalMessageId} failed (${errorCode})`,
      }), now);
    }
    if (moved) await scheduleTriggerFallback(tx, message.id);
    if (moved) await schedulePasscodeFallback(tx, moved);
    if (moved && deadToken) await removeDeadPushToken(tx, deps.ids, moved, errorMessage, now, publishRemoval);
    return moved;
  });
  return recordStatusChange(deps, failed, provider ? `provider:${provider}` : 'worker');
}

/** Records the status change in the message's history (the source of message.status.updated events). */
async function recordStatusChange(deps: DeliveryFailureDeps, message: Message | null, source: string): Promise<Message | null> {
  if (!message) return message;
  const { storage, ids, clock } = deps;
  const statusEvent = {
    id: ids.next(), messageId: message.id, organizationId: message.organizationId, status: message.status, source,
    detail: message.errorCode, createdAt: clock.now(),
  };
  // Only organizations with a subscribed endpoint pay for the outbox row (cached lookup: no statement otherwise).
  if (deps.webhooks && await deps.webhooks.hasSubscribers(message.organizationId, 'message.status.updated')) {
    await storage.transaction(async (tx) => {
      await tx.messageStatus.recordEvent(statusEvent);
      await publishOutboundEvent(tx, messageStatusUpdatedEvent(ids.next(), message, statusEvent.createdAt));
    });
  } else {
    await storage.messageStatus.recordEvent(statusEvent);
  }
  deps.onStatusChange?.(message);
  return message;
}
