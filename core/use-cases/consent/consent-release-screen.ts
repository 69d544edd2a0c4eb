import type { Message } from '../../domain/message.ts';
import type { Repositories } from '../../ports/storage.ts';

/**
 * The consent check again at release (docs/consent.md, docs/scheduling.md): a SCHEDULED message whose
 * recipient was suppressed or opted out of its category since it was accepted is refused then
 * (REJECTED with RECIPIENT_SUPPRESSED or RECIPIENT_OPTED_OUT, refunded by the release). One lookup for
 * the batch, the same the send path makes.
 */
export async function consentReleaseScreen(tx: Repositories, messages: readonly Message[]): Promise<Array<{ messageId: string; code: string; message: string }>> {
  if (messages.length === 0) return [];
  const matches = await tx.suppressions.findMatches(messages.map((m) => ({ organizationId: m.organizationId, channel: m.channel, recipient: m.recipient, category: m.category })));
  return messages.flatMap((m, i) => {
    const entry = matches[i];
    if (!entry) return [];
    return [entry.category
      ? { messageId: m.id, code: 'RECIPIENT_OPTED_OUT', message: `The recipient opted out of ${entry.category} messages${entry.channel ? ` on ${entry.channel}` : ''} before this message was released` }
      : { messageId: m.id, code: 'RECIPIENT_SUPPRESSED', message: 'The recipient was put on the suppression list before this message was released' }];
  });
}
