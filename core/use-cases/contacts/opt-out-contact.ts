import { AppError } from '../../errors.ts';
import { contactView } from '../../domain/contact.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { publishOutboundEvent } from '../webhooks/publish-outbound-event.ts';

/**
 * POST /contacts/{id}/opt-out. In one transaction: sets optedOutAt, adds the contact's phone and
 * email to the suppression list for every channel (reason "opted out"), and records the
 * contact.opted_out event. Idempotent: opting out again changes nothing and emits nothing.
 */
export class OptOutContact {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const { storage, ids, clock } = this.#deps;
    return storage.transaction(async (tx) => {
      const contact = await tx.contacts.findById(scope.organizationId, id);
      if (!contact) throw new AppError('NOT_FOUND', 'Contact not found');
      if (contact.optedOutAt !== null) return contactView(contact);
      const now = clock.now();
      const updated = { ...contact, optedOutAt: now, updatedAt: now };
      await tx.contacts.update(updated);
      const addresses = [{ phone: contact.phone, email: null }, { phone: null, email: contact.email }].filter((a) => a.phone !== null || a.email !== null);
      for (const address of addresses) {
        const recipient = (address.phone ?? address.email)!;
        if (await tx.suppressions.findMatch(scope.organizationId, 'SMS', recipient).then((s) => s !== null && s.channel === null)) continue;
        await tx.suppressions.insert({ id: ids.next(), organizationId: scope.organizationId, ...address, channel: null, category: null, reason: 'opted out', createdAt: now });
      }
      await publishOutboundEvent(tx, {
        id: ids.next(), organizationId: scope.organizationId, kind: 'contact.opted_out', occurredAt: now,
        data: { contactId: contact.id, phone: contact.phone, email: contact.email, optedOutAt: now.toISOString() },
      });
      return contactView(updated);
    });
  }
}
