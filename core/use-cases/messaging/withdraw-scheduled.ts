import type { Message } from '../../domain/message.ts';
import { messageStatusUpdatedEvent } from '../../domain/webhook.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Repositories } from '../../ports/storage.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';

export interface Withdrawal {
  status: 'CANCELLED' | 'REJECTED';
  errorCode: string | null;
  errorMessage: string | null;
  /** The status event's source (`api`, `scheduler`) and the refund's wording. */
  source: string;
  reason: string;
  /** Publish message.status.updated (the organization has subscribers). */
  publish: boolean;
}

/**
 * Takes a SCHEDULED message out before its release, inside `tx` (docs/scheduling.md): CANCELLED by its
 * sender, or REJECTED when the release-time screen refuses it. Its charge is refunded once (a REFUND
 * ledger entry referencing the message, as for a FAILED delivery), a status event is recorded and,
 * when asked, message.status.updated is published. The wallet row is locked before the message row,
 * as the send path and delivery reports do (the transition also locks analytics counter rows). Null
 * when the message is no longer SCHEDULED (released, cancelled or rejected meanwhile): nothing changed.
 */
export async function withdrawScheduled(tx: Repositories, ids: IdGenerator, message: Message, how: Withdrawal, now: Date): Promise<Message | null> {
  if (message.cost > 0) await tx.wallets.update(message.organizationId, () => null, now);
  const updated = await tx.messages.transition(message.id, ['SCHEDULED'], {
    status: how.status, errorCode: how.errorCode, errorMessage: how.errorMessage, cost: 0, updatedAt: now,
  });
  if (!updated) return null;
  if (message.cost > 0) {
    await tx.wallets.update(message.organizationId, () => ({
      amount: message.cost, kind: 'REFUND', reference: message.id, description: `Refund: ${message.channel} message ${message.internalMessageId} ${how.reason}`,
    }), now);
  }
  await tx.messageStatus.recordEvent({
    id: ids.next(), messageId: message.id, organizationId: message.organizationId, status: how.status, source: how.source, detail: how.reason, createdAt: now,
  });
  if (how.publish) await publishOutboundEvent(tx, messageStatusUpdatedEvent(ids.next(), updated, now));
  return updated;
}
