import { DEAD_TOKEN_CODE } from '../../domain/push-content.ts';
import type { Contact } from '../../domain/contact.ts';
import type { Message } from '../../domain/message.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Repositories } from '../../ports/storage.ts';
import type { WebhookSubscriptions } from '../../ports/webhook-subscriptions.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';

export const PUSH_TOKEN_REMOVED = 'contact.push_token_removed';

/** Whether a PUSH message failed because its device token is dead (the vendor said so: FCM UNREGISTERED, APNs 410, Expo DeviceNotRegistered). */
export function diedOfDeadToken(message: Pick<Message, 'channel'>, errorCode: string | null): boolean {
  return message.channel === 'PUSH' && errorCode === DEAD_TOKEN_CODE;
}

/** Whether `contact.push_token_removed` events must be recorded for the organization (no webhooks port: always, as tests want). */
export async function publishesTokenRemoval(webhooks: WebhookSubscriptions | undefined, organizationId: string): Promise<boolean> {
  return webhooks ? webhooks.hasSubscribers(organizationId, PUSH_TOKEN_REMOVED) : true;
}

/**
 * Clears a dead push token from the contacts of the message's organization that hold it (only that
 * token, only that organization: docs/contacts.md, "Dead push tokens"), so campaigns and events stop
 * using it, and records one `contact.push_token_removed` webhook event per contact. Runs inside the
 * transaction that fails the message.
 */
export async function removeDeadPushToken(tx: Repositories, ids: IdGenerator,
  message: Pick<Message, 'id' | 'organizationId' | 'internalMessageId' | 'recipient' | 'provider'>, detail: string, now: Date, publish: boolean): Promise<Contact[]> {
  const reason = `${DEAD_TOKEN_CODE}: ${detail}`.slice(0, 500);
  const contacts = await tx.contacts.clearPushToken(message.organizationId, message.recipient, now, reason);
  if (publish) {
    for (const contact of contacts) {
      await publishOutboundEvent(tx, {
        id: ids.next(), organizationId: message.organizationId, kind: PUSH_TOKEN_REMOVED, occurredAt: now,
        data: {
          contactId: contact.id, token: message.recipient, reason: DEAD_TOKEN_CODE, detail, messageId: message.id,
          internalMessageId: message.internalMessageId, provider: message.provider, removedAt: now.toISOString(),
        },
      });
    }
  }
  return contacts;
}
