import { parseInput } from '../../validation.ts';
import { contactView, mergeAttributes, type Contact } from '../../domain/contact.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { ContactBody, contactFieldsOrThrow, refuseDuplicates } from './contact-schemas.ts';

export { ContactBody as CreateContactInput };

/**
 * POST /contacts. Phone is stored in E.164 (read with countryCode, default GH), email lowercased.
 * Errors: VALIDATION_ERROR naming the field; CONFLICT when another contact of the organization has
 * the same phone or email (details.existingContactId).
 */
export class CreateContact {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown): Promise<ReturnType<typeof contactView>> {
    const input = parseInput(ContactBody, raw);
    const fields = contactFieldsOrThrow(input);
    const { storage, ids, clock } = this.#deps;
    await refuseDuplicates(storage.contacts, scope.organizationId, fields, null);
    const now = clock.now();
    const contact: Contact = { id: ids.next(), organizationId: scope.organizationId, ...fields, attributes: mergeAttributes({}, fields.attributes), ...(input.timeZone ? { timeZone: input.timeZone } : {}), optedOutAt: null, createdAt: now, updatedAt: now };
    await storage.contacts.insert(contact); // a concurrent duplicate still ends as CONFLICT (unique indexes)
    return contactView(contact);
  }
}
