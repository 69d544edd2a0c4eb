import { expect } from 'chai';
import type { Membership } from '../../core/domain/organization.ts';
import type { Repositories, Storage } from '../../core/ports/storage.ts';
import { aUser, anOrganization, at, rejection, seedUser, topUp, uniqueId } from './contract-fixtures.ts';

/** The Storage.transaction contract (core/ports/storage.ts), run against every Storage. */
export function describeStorageTransactionContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`Storage.transaction contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    /** What a registration writes: a user, an organization, the owner membership and a credited wallet. */
    function registration() {
      const user = aUser();
      const organization = anOrganization();
      const membership: Membership = { id: uniqueId('member'), organizationId: organization.id, userId: user.id, role: 'TENANT_OWNER', createdAt: at(0) };
      const write = async (tx: Repositories) => {
        await tx.users.insert(user);
        await tx.organizations.insert(organization);
        await tx.memberships.insert(membership);
        await tx.wallets.create(organization.id, at(0));
        await tx.wallets.update(organization.id, () => topUp(1_000, 'welcome'), at(0));
      };
      return { user, organization, membership, write };
    }

    async function nothingStored(r: ReturnType<typeof registration>) {
      expect(await storage.users.findById(r.user.id)).to.equal(null);
      expect(await storage.users.findByEmail(r.user.email)).to.equal(null);
      expect(await storage.organizations.findById(r.organization.id)).to.equal(null);
      expect(await storage.memberships.find(r.organization.id, r.user.id)).to.equal(null);
      expect(await storage.wallets.get(r.organization.id)).to.equal(null);
      expect(await storage.wallets.findEntry(r.organization.id, 'TOP_UP', 'welcome')).to.equal(null);
    }

    it('commits every write made through tx together and returns what work returns', async () => {
      const r = registration();
      const result = await storage.transaction(async (tx) => { await r.write(tx); return 'done'; });
      expect(result).to.equal('done');
      expect(await storage.users.findById(r.user.id)).to.deep.equal(r.user);
      expect(await storage.organizations.findById(r.organization.id)).to.deep.equal(r.organization);
      expect(await storage.memberships.find(r.organization.id, r.user.id)).to.deep.equal(r.membership);
      expect((await storage.wallets.get(r.organization.id))?.balance).to.equal(1_000);
      expect(await storage.wallets.findEntry(r.organization.id, 'TOP_UP', 'welcome')).to.deep.include({ amount: 1_000, balanceAfter: 1_000 });
    });

    it('rolls every write back when work throws, and rethrows the same error', async () => {
      const r = registration();
      const boom = new Error('boom');
      const outcome = storage.transaction(async (tx) => { await r.write(tx); throw boom; });
      await outcome.then(() => expect.fail('the transaction should fail'), (error: unknown) => expect(error).to.equal(boom));
      await nothingStored(r);
    });

    it('rolls earlier writes back when a repository call inside fails with an AppError', async () => {
      const existing = await seedUser(storage);
      const r = registration();
      const error = await rejection(storage.transaction(async (tx) => {
        await tx.organizations.insert(r.organization);
        await tx.wallets.create(r.organization.id, at(0));
        await tx.users.insert(aUser({ email: existing.email }));
      }));
      expect(error.code).to.equal('CONFLICT');
      expect(await storage.organizations.findById(r.organization.id)).to.equal(null);
      expect(await storage.wallets.get(r.organization.id)).to.equal(null);
    });

    it('leaves writes committed before a failed transaction in place', async () => {
      const kept = await seedUser(storage);
      const r = registration();
      await storage.transaction(async (tx) => { await r.write(tx); throw new Error('boom'); }).catch(() => undefined);
      expect(await storage.users.findById(kept.id)).to.deep.equal(kept);
      await nothingStored(r);
    });

    it('sees its own uncommitted writes through tx', async () => {
      const r = registration();
      const seen = await storage.transaction(async (tx) => {
        await r.write(tx);
        return { user: await tx.users.findByEmail(r.user.email), wallet: await tx.wallets.get(r.organization.id) };
      });
      expect(seen.user).to.deep.equal(r.user);
      expect(seen.wallet?.balance).to.equal(1_000);
    });
  });
}
