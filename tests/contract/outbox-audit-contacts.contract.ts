import { expect } from 'chai';
import type { Contact } from '../../core/domain/contact.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { at, rejection, seedOrganization, uniqueId } from './contract-fixtures.ts';

function aContact(organizationId: string, overrides: Partial<Contact> = {}): Contact {
  const id = uniqueId('contact');
  return {
    id, organizationId, firstName: 'Kofi', lastName: 'Boateng', phone: null, email: `${id}@example.com`, countryCode: 'GH', tags: ['vip'],
    fcmToken: null, attributes: {}, optedOutAt: null, createdAt: at(0), updatedAt: at(0), ...overrides,
  };
}

/** OutboundEventRepository, AuditLogRepository and ContactRepository contracts, run against every Storage. */
export function describeOutboxAuditContactsContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`OutboundEvent, AuditLog and Contact repositories contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('records outbound events and finds them only within their organization, newest first', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const first = { id: uniqueId('evt'), organizationId: a.id, kind: 'contact.opted_out' as const, data: { contactId: 'c1', nested: { n: 1 } }, occurredAt: at(1) };
      const second = { ...first, id: uniqueId('evt'), kind: 'campaign.completed' as const, occurredAt: at(2) };
      await storage.transaction(async (tx) => { await tx.outboundEvents.record(first); await tx.outboundEvents.record(second); });
      expect(await storage.outboundEvents.find(a.id, first.id)).to.deep.equal(first);
      expect(await storage.outboundEvents.find(b.id, first.id)).to.equal(null);
      expect((await storage.outboundEvents.listRecent(a.id, 10)).map((e) => e.id)).to.deep.equal([second.id, first.id]);
    });

    it('finds many outbound events in one call, each only within the organization its key names', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const first = { id: uniqueId('evt'), organizationId: a.id, kind: 'contact.opted_out' as const, data: { contactId: 'c1' }, occurredAt: at(1) };
      const second = { ...first, id: uniqueId('evt'), kind: 'campaign.completed' as const, data: { campaignId: 'k' }, occurredAt: at(2) };
      const other = { ...first, id: uniqueId('evt'), organizationId: b.id };
      for (const e of [first, second, other]) await storage.outboundEvents.record(e);
      const found = await storage.outboundEvents.findMany([
        { organizationId: a.id, id: second.id }, { organizationId: a.id, id: first.id }, { organizationId: a.id, id: first.id },
        { organizationId: a.id, id: other.id }, { organizationId: b.id, id: first.id }, { organizationId: a.id, id: uniqueId('evt') },
      ]);
      expect(found.sort((x, y) => x.occurredAt.getTime() - y.occurredAt.getTime())).to.deep.equal([first, second]);
      expect(await storage.outboundEvents.findMany([])).to.deep.equal([]);
    });

    it('rolls an outbound event back with its transaction', async () => {
      const a = await seedOrganization(storage);
      const event = { id: uniqueId('evt'), organizationId: a.id, kind: 'contact.opted_out' as const, data: {}, occurredAt: at(1) };
      await storage.transaction(async (tx) => { await tx.outboundEvents.record(event); throw new Error('boom'); }).catch(() => undefined);
      expect(await storage.outboundEvents.find(a.id, event.id)).to.equal(null);
    });

    it('lists audit entries newest first, filtered by organization and bounded', async () => {
      const a = await seedOrganization(storage);
      const entry = (seconds: number) => ({
        id: uniqueId('audit'), actorUserId: 'admin-1', impersonatorUserId: null, organizationId: a.id, action: 'tenant.pause',
        target: `organization:${a.id}`, details: { reason: 'test' }, createdAt: at(seconds),
      });
      const older = entry(1); const newer = entry(2);
      await storage.auditLog.record(older); await storage.auditLog.record(newer);
      expect(await storage.auditLog.list({ limit: 10, organizationId: a.id })).to.deep.equal([newer, older]);
      expect(await storage.auditLog.list({ limit: 1, organizationId: a.id })).to.deep.equal([newer]);
      expect(await storage.auditLog.list({ limit: 10, organizationId: a.id, before: at(2) })).to.deep.equal([older]);
    });

    it('stores contacts per organization and refuses a second contact with the same phone or email', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const contact = aContact(a.id, { phone: '+233241234567', fcmToken: 'tok', optedOutAt: at(3) });
      await storage.contacts.insert(contact);
      expect(await storage.contacts.findById(a.id, contact.id)).to.deep.equal(contact);
      expect(await storage.contacts.findById(b.id, contact.id)).to.equal(null);
      expect((await rejection(storage.contacts.insert(aContact(a.id, { phone: '+233241234567' })))).code).to.equal('CONFLICT');
      expect((await rejection(storage.contacts.insert(aContact(a.id, { email: contact.email })))).code).to.equal('CONFLICT');
      await storage.contacts.insert(aContact(b.id, { phone: '+233241234567', email: contact.email }));
    });
  });
}
