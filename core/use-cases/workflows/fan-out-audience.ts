import { AppError } from '../../errors.ts';
import type { Contact } from '../../domain/contact.ts';
import type { FanOutRecipient } from '../../domain/fan-out.ts';
import type { Audience } from '../../domain/segment-rules.ts';
import type { Repositories } from '../../ports/storage.ts';

/**
 * Who a fan-out addresses (docs/workflows.md, "Fan-out"): a segment's contacts (its rules now when dynamic, its
 * frozen members when static), or a topic's: the contacts carrying the topic as a tag. Opted-out contacts stay
 * in the audience and are recorded as skipped (screenFanOutPage), so the fan-out's counts show them.
 */
export async function fanOutAudience(repos: Pick<Repositories, 'segments'>, organizationId: string, target: { segmentId: string | null; topic: string | null }): Promise<Audience> {
  if (target.topic !== null) return { rule: { field: 'tags', op: 'contains', value: target.topic }, memberOf: null };
  const segment = target.segmentId ? await repos.segments.findById(organizationId, target.segmentId) : null;
  if (!segment) throw new AppError('NOT_FOUND', 'Segment not found', { segmentId: target.segmentId });
  return { rule: segment.rules, memberOf: segment.isDynamic ? null : segment.id };
}

/**
 * Splits one page of contacts into those who get a run or a trigger and those skipped as the send pipeline
 * would skip them: opted out, no address at all, or every address on the organization's suppression list
 * (a whole-list entry; category opt-outs are checked by each send, as for any message).
 */
export async function screenFanOutPage(repos: Pick<Repositories, 'suppressions'>, organizationId: string, contacts: readonly Contact[]):
  Promise<{ eligible: Contact[]; skipped: FanOutRecipient[] }> {
  const skip = (contact: Contact, reason: string): FanOutRecipient => ({ contactId: contact.id, runId: null, triggerId: null, skipReason: reason });
  const skipped: FanOutRecipient[] = [];
  const candidates: Contact[] = [];
  for (const contact of contacts) {
    if (contact.optedOutAt) skipped.push(skip(contact, 'the contact opted out'));
    else if (!contact.phone && !contact.email && !contact.fcmToken && !contact.attributes['subscriberId']) skipped.push(skip(contact, 'the contact has no address'));
    else candidates.push(contact);
  }
  const lookups = candidates.flatMap((c) => [
    ...(c.phone ? [{ contact: c, candidate: { organizationId, channel: 'SMS' as const, recipient: c.phone } }] : []),
    ...(c.email ? [{ contact: c, candidate: { organizationId, channel: 'EMAIL' as const, recipient: c.email } }] : []),
  ]);
  const matches = lookups.length > 0 ? await repos.suppressions.findMatches(lookups.map((l) => l.candidate)) : [];
  const blocked = new Map<string, number>();
  lookups.forEach((l, i) => { if (matches[i] && matches[i]!.channel === null) blocked.set(l.contact.id, (blocked.get(l.contact.id) ?? 0) + 1); });
  const eligible: Contact[] = [];
  for (const contact of candidates) {
    const addresses = (contact.phone ? 1 : 0) + (contact.email ? 1 : 0);
    const reachableOtherwise = Boolean(contact.fcmToken || contact.attributes['subscriberId']);
    if (addresses > 0 && blocked.get(contact.id) === addresses && !reachableOtherwise) skipped.push(skip(contact, 'the contact is on the suppression list'));
    else eligible.push(contact);
  }
  return { eligible, skipped };
}
