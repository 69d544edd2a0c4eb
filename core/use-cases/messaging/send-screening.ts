import type { Organization } from '../../domain/organization.ts';
import { recipientCountKey } from '../../ports/message-repository.ts';
import type { Repositories } from '../../ports/storage.ts';
import type { Suppression } from '../../ports/suppression-repository.ts';
import type { PreparedMessage } from './message-preparation.ts';
import type { FraudLimits } from './send-context.ts';

const HOUR_MS = 3_600_000;

/** Why a send is refused (a REJECTED delivery log with this errorCode), or null when it may go. */
export interface Verdict { code: string; message: string }

/** One message to screen and the organization sending it. */
export interface Candidate { organization: Organization; prepared: PreparedMessage }

/**
 * Screens the messages of a group-committed batch (one or several organizations), in order: tenant
 * paused, premium-rate numbers, suppression and the recipient's category preferences (docs/consent.md), recipient velocity and the new-tenant cap. The counts take
 * the batch itself into account (a message let through counts against the next), so a batch gets the
 * verdicts its messages would have had one by one. Two lookups for the whole batch (recipient counts,
 * suppression), plus one count per young organization.
 */
export async function screenCandidates(tx: Repositories, candidates: readonly Candidate[], limits: FraudLimits, now: Date): Promise<Array<Verdict | null>> {
  const live = candidates.filter((c) => !c.organization.paused);
  const since = new Date(now.getTime() - HOUR_MS);
  const perRecipient = await tx.messages.countSinceByRecipient(since, live.map((c) => ({ organizationId: c.organization.id, recipient: c.prepared.recipient })));
  const suppressed = await tx.suppressions.findMatches(live.map((c) => ({ organizationId: c.organization.id, channel: c.prepared.channel, recipient: c.prepared.recipient, category: c.prepared.category })));
  const sentThisHour = new Map<string, number>();
  for (const org of new Map(live.map((c) => [c.organization.id, c.organization])).values()) {
    if (isYoung(org, limits, now)) sentThisHour.set(org.id, await tx.messages.countSince(org.id, since));
  }
  let next = 0;
  return candidates.map(({ organization, prepared }) => {
    if (organization.paused) return { code: 'FRAUD_TENANT_PAUSED', message: 'The organization is paused' };
    const key = recipientCountKey(organization.id, prepared.recipient);
    const verdict = screenOne(prepared, suppressed[next++] ?? null, perRecipient.get(key) ?? 0, sentThisHour.get(organization.id) ?? null, limits);
    if (!verdict) {
      perRecipient.set(key, (perRecipient.get(key) ?? 0) + 1);
      if (sentThisHour.has(organization.id)) sentThisHour.set(organization.id, sentThisHour.get(organization.id)! + 1);
    }
    return verdict;
  });
}

function isYoung(org: Organization, limits: FraudLimits, now: Date): boolean {
  return now.getTime() - org.createdAt.getTime() < limits.newTenantDays * 24 * HOUR_MS;
}

function screenOne(p: PreparedMessage, suppressed: Suppression | null, toRecipient: number, organizationCount: number | null, limits: FraudLimits): Verdict | null {
  if (p.premiumRate) {
    return { code: 'FRAUD_PREMIUM_RATE', message: p.premiumRate === 'premium-rate' ? 'Premium-rate numbers are blocked' : 'International network numbers are blocked' };
  }
  if (suppressed?.category) {
    return { code: 'RECIPIENT_OPTED_OUT', message: `The recipient opted out of ${suppressed.category} messages${suppressed.channel ? ` on ${suppressed.channel}` : ''}` };
  }
  if (suppressed) {
    return { code: 'RECIPIENT_SUPPRESSED', message: 'The recipient is on the suppression list' };
  }
  if (toRecipient >= limits.recipientPerHour) {
    return { code: 'FRAUD_RECIPIENT_VELOCITY', message: `More than ${limits.recipientPerHour} messages to this recipient within an hour` };
  }
  if (organizationCount !== null && organizationCount >= limits.newTenantPerHour) {
    return { code: 'FRAUD_NEW_TENANT_CAP', message: `New organizations may send ${limits.newTenantPerHour} messages per hour` };
  }
  return null;
}
