import type { Channel } from '../../domain/channel.ts';
import type { Preference, PreferenceSource } from '../../domain/preferences.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Repositories } from '../../ports/storage.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';

export interface PreferenceChangeDeps { ids: IdGenerator; clock: Clock }

/** Who a change is for: a recipient's address on one or more channels, and the contact when known. */
export interface PreferenceSubject {
  organizationId: string;
  /** The address each channel's preference is kept under (phone or email). */
  addresses: ReadonlyMap<Channel, string>;
  contactId: string | null;
}

/**
 * Applies preference changes inside the caller's transaction (docs/consent.md). An opt-out becomes a
 * category entry of the suppression list (the send path's one lookup then refuses such sends with
 * RECIPIENT_OPTED_OUT); an opt-in removes it. Every real opt-out publishes one `contact.opted_out`
 * webhook event and one audit entry; a change to what is already so does nothing. Returns the number
 * of real changes.
 */
export async function applyPreferenceChanges(tx: Repositories, deps: PreferenceChangeDeps, subject: PreferenceSubject,
  changes: readonly Preference[], source: PreferenceSource, actorUserId: string | null): Promise<number> {
  const now = deps.clock.now();
  const recipients = [...new Set(subject.addresses.values())];
  const existing = await tx.suppressions.findPreferenceEntries(subject.organizationId, recipients);
  const optedOut: Preference[] = [];
  const optedIn: Preference[] = [];
  for (const change of changes) {
    const recipient = subject.addresses.get(change.channel);
    if (!recipient) continue;
    const email = change.channel === 'EMAIL';
    const present = existing.some((s) => s.channel === change.channel && s.category === change.category
      && (email ? s.email === recipient.toLowerCase() : s.phone === recipient));
    if (!change.optedIn && !present) {
      await tx.suppressions.insert({ id: deps.ids.next(), organizationId: subject.organizationId, phone: email ? null : recipient,
        email: email ? recipient.toLowerCase() : null, channel: change.channel, category: change.category, reason: `opted out (${source})`, createdAt: now });
      optedOut.push(change);
    } else if (change.optedIn && present && await tx.suppressions.removePreference(subject.organizationId, change.channel, recipient, change.category)) {
      optedIn.push(change);
    }
  }
  if (optedOut.length > 0) {
    await publishOutboundEvent(tx, {
      id: deps.ids.next(), organizationId: subject.organizationId, kind: 'contact.opted_out', occurredAt: now,
      data: {
        contactId: subject.contactId, source, optedOutAt: now.toISOString(),
        phone: [...subject.addresses].find(([c]) => c !== 'EMAIL')?.[1] ?? null, email: subject.addresses.get('EMAIL') ?? null,
        preferences: optedOut.map(({ category, channel }) => ({ category, channel })),
      },
    });
  }
  if (optedOut.length + optedIn.length > 0) {
    await tx.auditLog.record({
      id: deps.ids.next(), actorUserId: actorUserId ?? `recipient:${source}`, impersonatorUserId: null, organizationId: subject.organizationId,
      action: 'consent.preferences_changed', target: subject.contactId ? `contact:${subject.contactId}` : null,
      details: { source, optedOut: optedOut.map(cell), optedIn: optedIn.map(cell) }, createdAt: now,
    });
  }
  return optedOut.length + optedIn.length;
}

function cell(p: Preference): string { return `${p.category}/${p.channel}`; }
