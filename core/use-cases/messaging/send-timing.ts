import { isExemptCategory } from '../../domain/channel.ts';
import type { Contact } from '../../domain/contact.ts';
import type { Organization } from '../../domain/organization.ts';
import { COUNTRY_TIME_ZONES, heldByQuietHours, nextAllowedTime, type SendWindow } from '../../domain/send-window.ts';
import type { SendWindowSource } from '../../ports/send-window-repository.ts';
import type { Repositories } from '../../ports/storage.ts';
import type { PreparedMessage } from './message-preparation.ts';

/** What the send path needs to hold messages to send windows and quiet hours (docs/consent.md). */
export interface SendTiming {
  /** The windows per country and category; absent: read from storage on each batch. */
  windows?: SendWindowSource | undefined;
  /** False switches send windows off (SEND_WINDOWS=off: staging, tests); quiet hours still apply. */
  enforceWindows?: boolean | undefined;
}

/** One message of a batch to time: who sends it and whether it was refused already. */
export interface TimingCandidate { organization: Organization; prepared: PreparedMessage; refused: boolean }

/**
 * When each message of a batch may go out: its `sendAt` (or now) moved to the next moment its
 * country's window for its category is open and its organization's quiet hours are over, both in
 * the recipient's local time (the contact's zone, else the country's, else the organization's).
 * TRANSACTIONAL and OTP messages, and refused ones, keep their time. Deferred, not refused: the
 * message is then SCHEDULED. One contact lookup per organization with messages to time.
 */
export async function timeMessages(tx: Repositories, timing: SendTiming, candidates: readonly TimingCandidate[], now: Date): Promise<Array<Date | null>> {
  // A batch of refused, transactional or OTP messages (a Verify batch) is never held: no windows to read.
  if (candidates.every(({ refused, prepared }) => refused || isExemptCategory(prepared.category))) return candidates.map((c) => c.prepared.sendAt);
  const windows = timing.enforceWindows === false ? [] : await (timing.windows ? timing.windows.windows(tx.sendWindows) : tx.sendWindows.list());
  const rules = candidates.map(({ organization, prepared, refused }) => {
    if (refused || isExemptCategory(prepared.category)) return null;
    const window = windows.find((w) => w.country === prepared.country && w.category === prepared.category) ?? null;
    const quiet = heldByQuietHours(prepared.category) ? organization.quietHours ?? null : null;
    return window || quiet ? { window, quiet } : null;
  });
  if (rules.every((r) => r === null)) return candidates.map((c) => c.prepared.sendAt);
  const contacts = await contactsOf(tx, candidates.filter((_, i) => rules[i] !== null));
  return candidates.map(({ organization, prepared }, i) => {
    const rule = rules[i];
    if (!rule) return prepared.sendAt;
    const contact = contacts.get(`${organization.id}\u0000${prepared.recipient.toLowerCase()}`);
    const zone = contact?.timeZone ?? COUNTRY_TIME_ZONES[prepared.country ?? contact?.countryCode ?? ''] ?? organization.timezone;
    const from = prepared.sendAt && prepared.sendAt.getTime() > now.getTime() ? prepared.sendAt : now;
    const allowed = nextAllowedTime(from, zone, rule.window as SendWindow | null, rule.quiet);
    return allowed && allowed.getTime() > from.getTime() ? allowed : prepared.sendAt;
  });
}

async function contactsOf(tx: Repositories, candidates: readonly TimingCandidate[]): Promise<Map<string, Contact>> {
  const byOrganization = new Map<string, { phones: string[]; emails: string[] }>();
  for (const { organization, prepared } of candidates) {
    const entry = byOrganization.get(organization.id) ?? { phones: [], emails: [] };
    (prepared.channel === 'EMAIL' ? entry.emails : entry.phones).push(prepared.channel === 'EMAIL' ? prepared.recipient.toLowerCase() : prepared.recipient);
    byOrganization.set(organization.id, entry);
  }
  const found = new Map<string, Contact>();
  for (const [organizationId, { phones, emails }] of byOrganization) {
    for (const contact of await tx.contacts.findByAddresses(organizationId, phones, emails)) {
      if (contact.phone) found.set(`${organizationId}\u0000${contact.phone.toLowerCase()}`, contact);
      if (contact.email) found.set(`${organizationId}\u0000${contact.email}`, contact);
    }
  }
  return found;
}
