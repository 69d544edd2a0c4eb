import { parseInput } from '../../validation.ts';
import { mergeAttributes } from '../../domain/contact.ts';
import { AppError } from '../../errors.ts';
import { contactView } from '../../domain/contact.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { ContactBody, contactFieldsOrThrow, refuseDuplicates } from './contact-schemas.ts';

export { ContactBody as UpdateContactInput };

/**
 * PATCH /contacts/{id}: fields present in the body replace the stored ones (null clears), absent ones
 * stay. A changed countryCode re-reads the phone. Opt-out is not changed here (POST .../opt-out).
 * Errors: VALIDATION_ERROR, NOT_FOUND, CONFLICT (another contact has the phone or email).
 */
export class UpdateContact {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string, raw: unknown) {
    const patch = parseInput(ContactBody, raw);
    const { storage, clock } = this.#deps;
    const current = await storage.contacts.findById(scope.organizationId, id);
    if (!current) throw new AppError('NOT_FOUND', 'Contact not found');
    const pick = <K extends keyof typeof patch>(key: K, fallback: unknown) => (patch[key] !== undefined ? patch[key] : fallback);
    const fields = contactFieldsOrThrow({
      firstName: pick('firstName', current.firstName) as string | null, lastName: pick('lastName', current.lastName) as string | null,
      phone: pick('phone', current.phone) as string | null, email: pick('email', current.email) as string | null,
      countryCode: pick('countryCode', current.countryCode) as string, tags: (patch.tags ?? current.tags), fcmToken: pick('fcmToken', current.fcmToken) as string | null,
      attributes: patch.attributes, locale: patch.locale !== undefined ? patch.locale : current.locale ?? null,
    });
    await refuseDuplicates(storage.contacts, scope.organizationId, fields, id);
    // Attributes given are merged into the stored ones (null or blank removes one); absent ones stay.
    const { timeZone: _stored, locale: _storedLocale, ...rest } = current;
    const timeZone = patch.timeZone !== undefined ? patch.timeZone : current.timeZone ?? null;
    const updated = { ...rest, ...fields, attributes: mergeAttributes(current.attributes, fields.attributes), ...(timeZone ? { timeZone } : {}), updatedAt: clock.now() };
    if (!(await storage.contacts.update(updated))) throw new AppError('NOT_FOUND', 'Contact not found');
    return contactView(updated);
  }
}
