import type { Contact } from '../../domain/contact.ts';
import type { InboundChannel } from '../../domain/conversation.ts';
import { decideKeyword, type KeywordAction } from '../../domain/inbound-keywords.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Repositories } from '../../ports/storage.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';

export interface KeywordOutcome {
  action: KeywordAction;
  keyword: string;
  /** Text to send back on the channel the contact used, if any. */
  replyText: string | null;
}

/**
 * The keyword step of an inbound message (docs/conversations.md, "Keywords"), inside the transaction
 * that stores the message, so a STOP is never stored without its effect:
 * - OPT_OUT (STOP, UNSUBSCRIBE, ARRET, GYAE ... or a tenant's own): the contact's phone is suppressed on
 *   that channel (reason "keyword STOP"), a `contact.opted_out` event is published (with `channel` and
 *   `keyword`) and the organization's audit log records it. Idempotent: already suppressed, nothing more.
 * - OPT_IN (START, UNSTOP ...): removes the suppression of that phone on that channel; an opt-out for
 *   every channel (the contact's own opt-out, a tenant's suppression) stays. Audited.
 * - AUTO_REPLY: nothing here; the caller sends `replyText`.
 * The per-category preference centre can hook in here (the decision is `decideKeyword`).
 */
export async function applyInboundKeyword(tx: Repositories, ids: IdGenerator,
  input: { organizationId: string; contact: Contact; channel: InboundChannel; phone: string; body: string; inboundMessageId: string; now: Date }): Promise<KeywordOutcome | null> {
  const decision = decideKeyword(input.body, await tx.conversations.listKeywords(input.organizationId));
  if (!decision) return null;
  const { organizationId, contact, channel, phone, now } = input;
  const audit = (action: string, details: Record<string, unknown>) => tx.auditLog.record({
    id: ids.next(), actorUserId: `contact:${contact.id}`, impersonatorUserId: null, organizationId, action, target: `contact:${contact.id}`,
    details: { channel, keyword: decision.keyword, inboundMessageId: input.inboundMessageId, ...details }, createdAt: now,
  });
  if (decision.action === 'OPT_OUT') {
    if (await tx.suppressions.findMatch(organizationId, channel, phone)) return decision;
    await tx.suppressions.insert({ id: ids.next(), organizationId, phone, email: null, channel, category: null, reason: `keyword ${decision.keyword}`, createdAt: now });
    await publishOutboundEvent(tx, {
      id: ids.next(), organizationId, kind: 'contact.opted_out', occurredAt: now,
      data: { contactId: contact.id, phone, email: contact.email, optedOutAt: now.toISOString(), channel, source: 'keyword', keyword: decision.keyword,
        preferences: [{ category: null, channel }] },
    });
    await audit('contact.keyword_opt_out', {});
  } else if (decision.action === 'OPT_IN') {
    let removed = 0;
    for (let match = await tx.suppressions.findMatch(organizationId, channel, phone); match && match.channel === channel && removed < 10;
      match = await tx.suppressions.findMatch(organizationId, channel, phone)) {
      await tx.suppressions.remove(organizationId, match.id);
      removed += 1;
    }
    if (removed > 0) await audit('contact.keyword_opt_in', { removed });
  }
  return decision;
}
