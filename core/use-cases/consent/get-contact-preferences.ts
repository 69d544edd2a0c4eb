import { AppError } from '../../errors.ts';
import { addressFor, PREFERENCE_CHANNELS } from '../../domain/preferences.ts';
import type { Channel } from '../../domain/channel.ts';
import type { Contact } from '../../domain/contact.ts';
import type { Repositories } from '../../ports/storage.ts';
import { preferenceGrid } from './preference-grid.ts';

/** GET /contacts/{id}/preferences: the contact's preference grid (docs/consent.md). */
export class GetContactPreferences {
  readonly #deps: { storage: Repositories };
  constructor(deps: { storage: Repositories }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, contactId: string) {
    const contact = await this.#deps.storage.contacts.findById(scope.organizationId, contactId);
    if (!contact) throw new AppError('NOT_FOUND', 'Contact not found');
    return contactPreferences(this.#deps.storage, contact);
  }
}

/** The addresses a contact's preferences are kept under, per channel it can be reached on. */
export function contactAddresses(contact: Contact): Map<Channel, string> {
  return new Map(PREFERENCE_CHANNELS.flatMap((channel) => { const a = addressFor(contact, channel); return a ? [[channel, a] as const] : []; }));
}

export async function contactPreferences(tx: Repositories, contact: Contact) {
  const addresses = contactAddresses(contact);
  const entries = await tx.suppressions.findPreferenceEntries(contact.organizationId, [...new Set(addresses.values())]);
  const suppressed = contact.optedOutAt !== null;
  return { contactId: contact.id, ...preferenceGrid(addresses, entries, suppressed) };
}
