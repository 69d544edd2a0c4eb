import { expect } from 'chai';
import type { SenderId } from '../../core/domain/sender-id.ts';
import { senderIdKey } from '../../core/ports/sender-id-repository.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { anOrganization, at, rejection, uniqueId } from './contract-fixtures.ts';

function aSenderId(organizationId: string, name: string, overrides: Partial<SenderId> = {}): SenderId {
  return {
    id: uniqueId('sid'), organizationId, name, purpose: 'Order updates', sampleMessage: 'Your order is ready', networks: ['MTN'],
    status: 'PENDING', approvalId: uniqueId('appr'), reviewComment: null, createdAt: at(0), updatedAt: at(0), ...overrides,
  };
}

/** The SenderIdRepository contract (core/ports/sender-id-repository.ts), run against every Storage. */
export function describeSenderIdRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`SenderIdRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });
    const seedOrg = async () => { const org = anOrganization(); await storage.organizations.insert(org); return org.id; };

    it('keeps names unique per organization without regard to case, and finds them in any case', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const first = aSenderId(org, 'NkraShop');
      await storage.senderIds.insert(first);
      expect((await rejection(storage.senderIds.insert(aSenderId(org, 'NKRASHOP')))).code).to.equal('CONFLICT');
      await storage.senderIds.insert(aSenderId(other, 'NkraShop'));
      expect(await storage.senderIds.findByName(org, 'nkrashop')).to.deep.equal(first);
      expect(await storage.senderIds.findById(other, first.id)).to.equal(null);
      expect(await storage.senderIds.countByOrganization(org)).to.equal(1);
    });

    it('never passes a limit under concurrent inserts: of 30 at once exactly the limit land, the rest answer false', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      await storage.senderIds.insert(aSenderId(other, 'Elsewhere'));
      const landed = await Promise.all(Array.from({ length: 30 }, (_, i) => storage.senderIds.insertWithinLimit(aSenderId(org, `Race${i}`), 10)));
      expect(landed.filter(Boolean)).to.have.length(10);
      expect(await storage.senderIds.countByOrganization(org)).to.equal(10);
      expect(await storage.senderIds.insertWithinLimit(aSenderId(other, 'Second'), 2)).to.equal(true); // another organization's count is its own
      expect(await storage.senderIds.insertWithinLimit(aSenderId(other, 'Third'), 2)).to.equal(false);
      expect((await rejection(storage.senderIds.insertWithinLimit(aSenderId(other, 'ELSEWHERE'), 5))).code).to.equal('CONFLICT');
    });

    it('answers several (organization, name) pairs at once, keyed by senderIdKey, never crossing organizations', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      await storage.senderIds.insert(aSenderId(org, 'Alpha'));
      await storage.senderIds.insert(aSenderId(org, 'Beta Two', { status: 'APPROVED' }));
      await storage.senderIds.insert(aSenderId(other, 'Gamma'));
      const found = await storage.senderIds.findByNames([{ organizationId: org, name: 'ALPHA' }, { organizationId: org, name: 'beta two' }, { organizationId: org, name: 'Gamma' }]);
      expect([...found.keys()].sort()).to.deep.equal([senderIdKey(org, 'alpha'), senderIdKey(org, 'beta two')].sort());
      expect(found.get(senderIdKey(org, 'Beta Two'))?.status).to.equal('APPROVED');
      expect((await storage.senderIds.findByNames([])).size).to.equal(0);
    });

    it('moves status, resubmits a rejected one as PENDING, lists newest first, and deletes only its own', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const older = aSenderId(org, 'Older');
      const newer = aSenderId(org, 'Newer', { createdAt: at(10), updatedAt: at(10) });
      await storage.senderIds.insert(older);
      await storage.senderIds.insert(newer);
      expect((await storage.senderIds.list(org, 10)).map((s) => s.name)).to.deep.equal(['Newer', 'Older']);
      expect(await storage.senderIds.list(org, 1)).to.have.length(1);
      const rejected = await storage.senderIds.setStatus(org, older.id, 'REJECTED', 'No STOP wording', at(20));
      expect(rejected).to.include({ status: 'REJECTED', reviewComment: 'No STOP wording' });
      expect(await storage.senderIds.setStatus(other, older.id, 'APPROVED', null, at(20))).to.equal(null);
      const again = await storage.senderIds.resubmit(org, older.id, { purpose: 'Promotions', sampleMessage: 'Sale. STOP to opt out', networks: ['ALL'], approvalId: 'appr-2' }, at(30));
      expect(again).to.include({ status: 'PENDING', reviewComment: null, purpose: 'Promotions', approvalId: 'appr-2' });
      expect(again?.networks).to.deep.equal(['ALL']);
      expect(await storage.senderIds.delete(other, older.id)).to.equal(false);
      expect(await storage.senderIds.delete(org, older.id)).to.equal(true);
      expect(await storage.senderIds.findById(org, older.id)).to.equal(null);
    });
  });
}
