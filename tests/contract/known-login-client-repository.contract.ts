import { expect } from 'chai';
import { KNOWN_LOGIN_CLIENTS_PER_USER } from '../../core/ports/known-login-client-repository.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { at, seedUser } from './contract-fixtures.ts';

/** The KnownLoginClientRepository contract (core/ports/known-login-client-repository.ts), run against every Storage. */
export function describeKnownLoginClientContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`KnownLoginClientRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('knows the clients of a user since a moment, never another user\'s, and remembering twice refreshes', async () => {
      const [user, other] = [await seedUser(storage), await seedUser(storage)];
      await storage.knownLoginClients.remember(user.id, ['device-a', 'address-a'], at(100));
      await storage.knownLoginClients.remember(user.id, ['device-a'], at(500));
      await storage.knownLoginClients.remember(user.id, ['device-a'], at(200)); // an older sighting does not age it
      expect((await storage.knownLoginClients.findKnown(user.id, ['device-a', 'address-a', 'device-x'], at(0))).sort()).to.deep.equal(['address-a', 'device-a']);
      expect(await storage.knownLoginClients.findKnown(user.id, ['device-a', 'address-a'], at(300))).to.deep.equal(['device-a']);
      expect(await storage.knownLoginClients.findKnown(other.id, ['device-a', 'address-a'], at(0))).to.deep.equal([]);
      expect(await storage.knownLoginClients.findKnown(user.id, [], at(0))).to.deep.equal([]);
    });

    it('keeps only the most recently seen clients of a user', async () => {
      const user = await seedUser(storage);
      for (let i = 0; i < KNOWN_LOGIN_CLIENTS_PER_USER + 5; i += 1) await storage.knownLoginClients.remember(user.id, [`c${i}`], at(i));
      expect(await storage.knownLoginClients.findKnown(user.id, ['c0', 'c4'], at(0))).to.deep.equal([]);
      expect(await storage.knownLoginClients.findKnown(user.id, ['c5', `c${KNOWN_LOGIN_CLIENTS_PER_USER + 4}`], at(0))).to.have.length(2);
    });

    it('forgets every client of one user only', async () => {
      const [user, other] = [await seedUser(storage), await seedUser(storage)];
      await storage.knownLoginClients.remember(user.id, ['d1', 'a1'], at(0));
      await storage.knownLoginClients.remember(other.id, ['d1'], at(0));
      await storage.transaction((tx) => tx.knownLoginClients.forgetUser(user.id));
      expect(await storage.knownLoginClients.findKnown(user.id, ['d1', 'a1'], at(0))).to.deep.equal([]);
      expect(await storage.knownLoginClients.findKnown(other.id, ['d1'], at(0))).to.deep.equal(['d1']);
    });
  });
}
