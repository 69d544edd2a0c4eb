import * as v from 'valibot';
import { AppError, fieldError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { VENDOR_CHANNELS as CHANNELS } from '../../domain/channel.ts';
import { PREFERENCE_CATEGORIES } from '../../domain/preferences.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { applyPreferenceChanges } from './apply-preference-changes.ts';
import { contactAddresses, contactPreferences } from './get-contact-preferences.ts';

const UpdatePreferencesInput = v.object({
  preferences: v.pipe(v.array(v.object({
    category: v.picklist(PREFERENCE_CATEGORIES, `must be one of ${PREFERENCE_CATEGORIES.join(', ')} (TRANSACTIONAL and OTP cannot be opted out of)`),
    channel: v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`),
    optedIn: v.boolean('must be true or false'),
  })), v.minLength(1, 'must name at least one preference'), v.maxLength(100, 'at most 100 preferences per request')),
});

/**
 * PUT /contacts/{id}/preferences: opts the contact in or out of categories per channel (docs/consent.md).
 * A channel the contact has no address for is a 400 VALIDATION_ERROR naming it; nothing is written then.
 */
export class UpdateContactPreferences {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string | null }, contactId: string, raw: unknown) {
    const input = parseInput(UpdatePreferencesInput, raw);
    return this.#deps.storage.transaction(async (tx) => {
      const contact = await tx.contacts.findById(scope.organizationId, contactId);
      if (!contact) throw new AppError('NOT_FOUND', 'Contact not found');
      const addresses = contactAddresses(contact);
      const unreachable = input.preferences.findIndex((p) => !addresses.has(p.channel));
      if (unreachable >= 0) {
        const channel = input.preferences[unreachable]!.channel;
        throw fieldError(`preferences[${unreachable}].channel`, channel === 'PUSH' ? 'PUSH preferences are kept by the device\'s own settings'
          : `the contact has no ${channel === 'EMAIL' ? 'email' : 'phone'} for ${channel}`);
      }
      await applyPreferenceChanges(tx, this.#deps, { organizationId: scope.organizationId, addresses, contactId: contact.id }, input.preferences, 'api', scope.userId);
      return contactPreferences(tx, contact);
    });
  }
}
