import { expect } from 'chai';
import type { Storage } from '../../core/ports/storage.ts';
import { aUser, rejection, seedUser, uniqueId } from './contract-fixtures.ts';

/** The UserRepository contract (core/ports/user-repository.ts), run against every Storage. */
export function describeUserRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`UserRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('finds an inserted user by id with every field intact', async () => {
      const user = await seedUser(storage, { platformRole: 'PLATFORM_SUPER_ADMIN', firstName: 'Kwame', lastName: 'Nkrumah' });
      expect(await storage.users.findById(user.id)).to.deep.equal(user);
    });

    it('answers null for an unknown id and an unknown email', async () => {
      expect(await storage.users.findById(uniqueId('nobody'))).to.equal(null);
      expect(await storage.users.findByEmail(`${uniqueId('nobody')}@example.com`)).to.equal(null);
    });

    it('stores the email lowercased and finds it by email in any case', async () => {
      const local = uniqueId('Ama.Mensah');
      const user = aUser({ email: `${local}@Example.COM` });
      await storage.users.insert(user);
      const lower = `${local.toLowerCase()}@example.com`;
      expect((await storage.users.findById(user.id))?.email).to.equal(lower);
      expect((await storage.users.findByEmail(lower))?.id).to.equal(user.id);
      expect((await storage.users.findByEmail(lower.toUpperCase()))?.id).to.equal(user.id);
    });

    it('rejects a second user with the same email in another case with CONFLICT and keeps the first', async () => {
      const first = await seedUser(storage);
      const error = await rejection(storage.users.insert(aUser({ email: first.email.toUpperCase(), firstName: 'Impostor' })));
      expect(error.code).to.equal('CONFLICT');
      expect(await storage.users.findByEmail(first.email)).to.deep.equal(first);
    });

    it('finds many users by id, skipping unknown ids', async () => {
      const a = await seedUser(storage);
      const b = await seedUser(storage);
      await seedUser(storage);
      const found = await storage.users.findManyByIds([b.id, uniqueId('missing'), a.id]);
      expect(found.map((u) => u.id).sort()).to.deep.equal([a.id, b.id].sort());
      expect(found.find((u) => u.id === a.id)).to.deep.equal(a);
    });

    it('finds no users for an empty id list', async () => {
      expect(await storage.users.findManyByIds([])).to.deep.equal([]);
    });

    it('updates the password hash and nothing else', async () => {
      const user = await seedUser(storage);
      const other = await seedUser(storage);
      await storage.users.updatePassword(user.id, 'hash$two');
      expect(await storage.users.findById(user.id)).to.deep.equal({ ...user, passwordHash: 'hash$two' });
      expect(await storage.users.findById(other.id)).to.deep.equal(other);
    });

    it('grants and removes the platform role', async () => {
      const user = await seedUser(storage);
      await storage.users.setPlatformRole(user.id, 'PLATFORM_SUPER_ADMIN');
      expect((await storage.users.findById(user.id))?.platformRole).to.equal('PLATFORM_SUPER_ADMIN');
      await storage.users.setPlatformRole(user.id, null);
      expect(await storage.users.findById(user.id)).to.deep.equal(user);
    });

    it('ignores updates to an unknown user', async () => {
      const id = uniqueId('ghost');
      await storage.users.updatePassword(id, 'hash$x');
      await storage.users.setPlatformRole(id, 'PLATFORM_SUPER_ADMIN');
      expect(await storage.users.findById(id)).to.equal(null);
    });
  });
}
