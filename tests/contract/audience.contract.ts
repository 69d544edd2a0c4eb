import { expect } from 'chai';
import type { Campaign } from '../../core/domain/campaign.ts';
import { NO_PROGRESS } from '../../core/domain/campaign-progress.ts';
import type { Contact } from '../../core/domain/contact.ts';
import type { ContactImport } from '../../core/domain/contact-import.ts';
import type { Message } from '../../core/domain/message.ts';
import { parseSegmentRule, type Audience } from '../../core/domain/segment-rules.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { at, rejection, seedOrganization, uniqueId } from './contract-fixtures.ts';

let serial = 0;
function aContact(organizationId: string, overrides: Partial<Contact> = {}): Contact {
  serial += 1;
  return {
    id: uniqueId(`c${String(serial).padStart(4, '0')}`), organizationId, firstName: 'Kofi', lastName: 'Boateng', phone: null, email: null, countryCode: 'GH',
    tags: [], fcmToken: null, attributes: {}, optedOutAt: null, createdAt: at(serial), updatedAt: at(serial), ...overrides,
  };
}
const audience = (rules: unknown, memberOf: string | null = null): Audience => ({ rule: parseSegmentRule(rules), memberOf });

/** The people every rule test runs against (same data on every implementation). */
function people(org: string): Contact[] {
  return [
    aContact(org, { firstName: 'Ama', lastName: 'Mensah', phone: '+233241000001', email: 'ama@example.com', tags: ['vip', 'accra'], createdAt: at(10) }),
    aContact(org, { firstName: 'Kofi', lastName: 'Owusu', phone: '+233551000002', email: null, tags: ['accra'], createdAt: at(20) }),
    aContact(org, { firstName: 'Yaw', lastName: 'Asante', phone: '+233201000003', email: 'yaw@test.org', tags: [], fcmToken: 'tok-1', createdAt: at(30) }),
    aContact(org, { firstName: 'Efua', lastName: null, phone: null, email: 'efua@example.com', tags: ['vip'], countryCode: 'NG', optedOutAt: at(40), createdAt: at(40) }),
  ];
}

/** ContactRepository (rules, search, bulk), SegmentRepository, CampaignRepository and ContactImportRepository, on every Storage. */
export function describeAudienceContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`Audience repositories contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    async function seeded() {
      const org = await seedOrganization(storage);
      const list = people(org.id);
      await storage.contacts.insertMany(list);
      return { org: org.id, list };
    }
    async function names(org: string, rules: unknown): Promise<string[]> {
      const page = await storage.contacts.page(org, audience(rules), null, 100);
      expect(await storage.contacts.count(org, audience(rules))).to.equal(page.length);
      return page.map((c) => c.firstName ?? '').sort();
    }

    it('evaluates every rule operator the same way', async () => {
      const { org } = await seeded();
      expect(await names(org, { all: [] })).to.deep.equal(['Ama', 'Efua', 'Kofi', 'Yaw']);
      expect(await names(org, { any: [] })).to.deep.equal([]);
      expect(await names(org, { field: 'tags', op: 'contains', value: 'VIP' })).to.deep.equal(['Ama', 'Efua']);
      expect(await names(org, { field: 'tags', op: 'notContains', value: 'vip' })).to.deep.equal(['Kofi', 'Yaw']);
      expect(await names(org, { field: 'firstName', op: 'equals', value: 'ama' })).to.deep.equal(['Ama']);
      expect(await names(org, { field: 'lastName', op: 'contains', value: 'ns' })).to.deep.equal(['Ama']);
      expect(await names(org, { field: 'lastName', op: 'startsWith', value: ['As', 'Ow'] })).to.deep.equal(['Kofi', 'Yaw']);
      expect(await names(org, { field: 'email', op: 'contains', value: '@EXAMPLE.com' })).to.deep.equal(['Ama', 'Efua']);
      expect(await names(org, { field: 'phone', op: 'startsWith', value: ['024', '054', '055', '059'] })).to.deep.equal(['Ama', 'Kofi']);
      expect(await names(org, { field: 'phone', op: 'equals', value: '020 100 0003' })).to.deep.equal(['Yaw']);
      expect(await names(org, { field: 'phone', op: 'contains', value: '1000002' })).to.deep.equal(['Kofi']);
      expect(await names(org, { field: 'countryCode', op: 'equals', value: 'ng' })).to.deep.equal(['Efua']);
      expect(await names(org, { field: 'createdAt', op: 'before', value: at(20).toISOString() })).to.deep.equal(['Ama']);
      expect(await names(org, { field: 'createdAt', op: 'after', value: at(20).toISOString() })).to.deep.equal(['Efua', 'Yaw']);
      expect(await names(org, { field: 'address', op: 'exists', value: 'email' })).to.deep.equal(['Ama', 'Efua', 'Yaw']);
      expect(await names(org, { field: 'address', op: 'exists', value: 'fcmToken' })).to.deep.equal(['Yaw']);
      expect(await names(org, { field: 'optedOut', op: 'equals', value: false })).to.deep.equal(['Ama', 'Kofi', 'Yaw']);
      expect(await names(org, {
        all: [{ field: 'optedOut', op: 'equals', value: false }, { any: [{ field: 'tags', op: 'contains', value: 'vip' }, { field: 'firstName', op: 'equals', value: 'Yaw' }] }],
      })).to.deep.equal(['Ama', 'Yaw']);
    });

    it('treats rule values as data, never as SQL or patterns', async () => {
      const { org } = await seeded();
      expect(await names(org, { field: 'lastName', op: 'contains', value: "%' or 1=1 --" })).to.deep.equal([]);
      expect(await names(org, { field: 'email', op: 'contains', value: '_' })).to.deep.equal([]);
    });

    it('pages an audience in id order after a cursor and never crosses organizations', async () => {
      const { org, list } = await seeded();
      const other = await seededOther();
      const ids = list.map((c) => c.id).sort();
      const first = await storage.contacts.page(org, audience({ all: [] }), null, 2);
      expect(first.map((c) => c.id)).to.deep.equal(ids.slice(0, 2));
      const rest = await storage.contacts.page(org, audience({ all: [] }), first[1]!.id, 10);
      expect(rest.map((c) => c.id)).to.deep.equal(ids.slice(2));
      expect((await storage.contacts.page(other, audience({ all: [] }), null, 10)).map((c) => c.organizationId)).to.deep.equal([other]);
    });
    async function seededOther(): Promise<string> {
      const org = await seedOrganization(storage);
      await storage.contacts.insert(aContact(org.id, { phone: '+233241000001' }));
      return org.id;
    }

    it('searches names, phone and email case-insensitively, newest first, with an exact total', async () => {
      const { org } = await seeded();
      const found = await storage.contacts.search(org, { search: 'EXAMPLE', offset: 0, limit: 1, countUpTo: 100 });
      expect(found.total).to.equal(2);
      expect(found.items.map((c) => c.firstName)).to.deep.equal(['Efua']);
      expect((await storage.contacts.search(org, { search: 'ama mens', offset: 0, limit: 10, countUpTo: 100 })).items.map((c) => c.firstName)).to.deep.equal(['Ama']);
      expect((await storage.contacts.search(org, { search: '0000', offset: 0, limit: 10, countUpTo: 100 })).total).to.equal(3);
      expect((await storage.contacts.search(org, { search: '%', offset: 0, limit: 10, countUpTo: 100 })).total).to.equal(0);
      expect((await storage.contacts.search(org, { search: '', offset: 0, limit: 1, countUpTo: 3 })).total).to.equal(3);
    });

    it('updates, bulk-updates, finds by address and deletes within the organization only', async () => {
      const { org, list } = await seeded();
      const ama = list[0]!;
      expect(await storage.contacts.update({ ...ama, organizationId: (await seedOrganization(storage)).id, firstName: 'X' })).to.equal(false);
      expect(await storage.contacts.update({ ...ama, firstName: 'Adwoa', tags: ['new'] })).to.equal(true);
      expect((await storage.contacts.findById(org, ama.id))!.firstName).to.equal('Adwoa');
      expect((await rejection(storage.contacts.update({ ...list[1]!, phone: ama.phone })))).to.have.property('code', 'CONFLICT');
      await storage.contacts.updateMany([{ ...list[1]!, lastName: 'Bulk', tags: ['b'] }, { ...list[2]!, lastName: 'Bulk' }]);
      expect((await storage.contacts.findById(org, list[1]!.id))!.tags).to.deep.equal(['b']);
      const found = await storage.contacts.findByAddresses(org, ['+233551000002'], ['yaw@test.org']);
      expect(found.map((c) => c.lastName).sort()).to.deep.equal(['Bulk', 'Bulk']);
      const byBoth = await storage.contacts.findByAddresses(org, ['+233201000003', '+233201000003'], ['yaw@test.org']);
      expect(byBoth.map((c) => c.firstName)).to.deep.equal(['Yaw']); // found by its phone and its email: once
      expect(await storage.contacts.findByAddresses((await seedOrganization(storage)).id, ['+233201000003'], ['yaw@test.org'])).to.deep.equal([]);
      expect(await storage.contacts.delete(org, ama.id)).to.equal(true);
      expect(await storage.contacts.delete(org, ama.id)).to.equal(false);
      expect(await storage.contacts.findById(org, ama.id)).to.equal(null);
    });

    it('bulk-inserts any text and instants as given (quotes, backslashes, braces, commas, line breaks, "NULL")', async () => {
      const org = (await seedOrganization(storage)).id;
      const odd = [
        aContact(org, { firstName: 'O"Neil \\ {x,y}', lastName: 'NULL', email: 'odd@example.com', tags: ['a "b"', 'c\\d', '{e}'], createdAt: new Date('2026-01-02T03:04:05.678Z') }),
        aContact(org, { firstName: 'Line\nbreak, ünïcödé ✓', lastName: null, phone: '+233241000077', fcmToken: 'tok,en', optedOutAt: new Date('2026-01-03T00:00:00.001Z') }),
      ];
      await storage.contacts.insertMany(odd);
      for (const contact of odd) expect(await storage.contacts.findById(org, contact.id)).to.deep.equal(contact);
    });

    it('inserts a batch of new contacts all or none: a taken phone or email refuses the whole batch, and the transaction goes on', async () => {
      const { org } = await seeded();
      const other = (await seedOrganization(storage)).id;
      const newcomer = aContact(org, { firstName: 'Abena', phone: '+233241000099' });
      const clashing = aContact(org, { firstName: 'Esi', email: 'yaw@test.org' });
      const outcome = await storage.transaction(async (tx) => {
        const refused = await tx.contacts.insertManyUnlessTaken([newcomer, clashing]);
        const accepted = await tx.contacts.insertManyUnlessTaken([newcomer, aContact(org, { firstName: 'Esi', email: 'esi@test.org' })]);
        return { refused, accepted };
      });
      expect(outcome).to.deep.equal({ refused: false, accepted: true });
      expect((await storage.contacts.search(org, { search: '', offset: 0, limit: 100, countUpTo: 100 })).items.map((c) => c.firstName).sort())
        .to.deep.equal(['Abena', 'Ama', 'Efua', 'Esi', 'Kofi', 'Yaw']);
      expect(await storage.contacts.insertManyUnlessTaken([aContact(other, { email: 'yaw@test.org' })])).to.equal(true); // another organization's address
      expect(await storage.contacts.insertManyUnlessTaken([aContact(org, { phone: '+233551000002' })])).to.equal(false); // outside a transaction too
      expect(await storage.contacts.insertManyUnlessTaken([])).to.equal(true);
    });

    it('freezes a static segment\'s members: later contacts do not join it', async () => {
      const { org } = await seeded();
      const segment = { id: uniqueId('seg'), organizationId: org, name: 'VIP', description: null, rules: parseSegmentRule({ field: 'tags', op: 'contains', value: 'vip' }),
        isDynamic: false, createdByUserId: null, createdAt: at(50), updatedAt: at(50) };
      await storage.segments.insert(segment);
      expect(await storage.segments.freezeMembers(segment)).to.equal(2);
      await storage.contacts.insert(aContact(org, { email: 'late@example.com', tags: ['vip'] }));
      expect(await storage.contacts.count(org, { rule: segment.rules, memberOf: segment.id })).to.equal(2);
      expect(await storage.contacts.count(org, { rule: segment.rules, memberOf: null })).to.equal(3);
      expect(await storage.segments.findById(org, segment.id)).to.deep.equal(segment);
      expect(await storage.segments.findById((await seedOrganization(storage)).id, segment.id)).to.equal(null);
      expect((await storage.segments.list(org, 10)).map((s) => s.id)).to.deep.equal([segment.id]);
    });

    it('records a campaign\'s recipients once and counts them by message status', async () => {
      const { org, list } = await seeded();
      const campaign: Campaign = {
        id: uniqueId('camp'), organizationId: org, name: 'Promo', channel: 'SMS', templateId: null, segmentId: null, scheduledAt: null, status: 'SENDING',
        approvalRequestId: null, riskScore: 10, cursor: null, fanOutDone: false, progress: NO_PROGRESS, failureReason: null, createdByUserId: null,
        createdAt: at(1), updatedAt: at(1), startedAt: at(2), completedAt: null, cancelledAt: null,
      };
      await storage.campaigns.insert(campaign);
      expect(await storage.campaigns.findById(org, campaign.id)).to.deep.equal(campaign);
      const message = aMessage(org, 'DELIVERED');
      await storage.messages.insertMany([message]);
      await storage.transaction(async (tx) => {
        expect((await tx.campaigns.lock(org, campaign.id))!.id).to.equal(campaign.id);
        await tx.campaigns.addRecipients(org, campaign.id, [{ contactId: list[0]!.id, messageId: message.id, skipReason: null }, { contactId: list[1]!.id, messageId: null, skipReason: 'no phone' }]);
        await tx.campaigns.update({ ...campaign, cursor: list[1]!.id });
      });
      const failed = await storage.transaction((tx) => rejection(tx.campaigns.addRecipients(org, campaign.id, [{ contactId: list[0]!.id, messageId: null, skipReason: null }])));
      expect(failed.code).to.equal('CONFLICT');
      const counted = { recipients: 1, queued: 0, pending: 0, sent: 0, delivered: 1, failed: 0, rejected: 0, scheduled: 0, cancelled: 0, skipped: 1 };
      expect(await storage.campaigns.counts(org, campaign.id)).to.deep.equal(counted);
      expect(await storage.campaigns.recentCounts(org, campaign.id, 5)).to.deep.equal(counted);
      expect((await storage.campaigns.findById(org, campaign.id))!.cursor).to.equal(list[1]!.id);
      const stranger = (await seedOrganization(storage)).id;
      expect(await storage.campaigns.findById(stranger, campaign.id)).to.equal(null);
      for (const counts of [await storage.campaigns.counts(stranger, campaign.id), await storage.campaigns.recentCounts(stranger, campaign.id, 5)]) {
        expect(counts).to.deep.equal({ recipients: 0, queued: 0, pending: 0, sent: 0, delivered: 0, failed: 0, rejected: 0, scheduled: 0, cancelled: 0, skipped: 0 });
      }
    });

    it('stores an import\'s file in chunks and streams them back in order', async () => {
      const org = await seedOrganization(storage);
      const job: ContactImport = {
        id: uniqueId('imp'), organizationId: org.id, status: 'PENDING', fileName: 'a.csv', sizeBytes: 6, totalRows: 1, rowsDone: 0, created: 0, updated: 0,
        skipped: 0, errorCount: 0, errors: [], failureReason: null, createdByUserId: null, createdAt: at(1), updatedAt: at(1), finishedAt: null,
      };
      await storage.contactImports.insert(job);
      await storage.contactImports.appendChunk(job.id, 0, new TextEncoder().encode('abc'));
      await storage.contactImports.appendChunk(job.id, 1, new TextEncoder().encode('def'));
      const parts: string[] = [];
      for await (const chunk of storage.contactImports.chunks(job.id)) parts.push(new TextDecoder().decode(chunk));
      expect(parts).to.deep.equal(['abc', 'def']);
      const updated = { ...job, status: 'COMPLETED' as const, sizeBytes: 6_000_000_000, totalRows: 2, rowsDone: 1, created: 1, updated: 2, skipped: 3, errorCount: 4,
        errors: [{ line: 2, reason: 'bad' }], failureReason: 'x', updatedAt: at(2), finishedAt: at(3) };
      await storage.contactImports.update(updated);
      expect(await storage.contactImports.findById(org.id, job.id)).to.deep.equal(updated);
      expect(await storage.contactImports.findForProcessing(job.id)).to.deep.equal(updated);
      expect(await storage.contactImports.findById((await seedOrganization(storage)).id, job.id)).to.equal(null);
      await storage.contactImports.deleteChunks(job.id);
      for await (const _ of storage.contactImports.chunks(job.id)) expect.fail('chunks were deleted');
    });
  });
}

function aMessage(organizationId: string, status: Message['status']): Message {
  const id = uniqueId('m');
  return {
    id, organizationId, internalMessageId: `msg_${id}`, channel: 'SMS', recipient: '+233241000001', country: 'GH', subject: null, body: 'Hi', templateId: null, category: 'TRANSACTIONAL', scheduledAt: null,
    status, errorCode: null, errorMessage: null, cost: 0, price: 0, segments: 1, encoding: 'GSM-7', isSandbox: false, apiKeyId: null, userId: null, senderId: null,
    provider: null, providerMessageId: null, attempts: 0, leaseUntil: null, createdAt: at(1), updatedAt: at(1), sentAt: null, deliveredAt: null, failedAt: null,
  };
}
