import { expect } from 'chai';
import type { Storage } from '../../core/ports/storage.ts';
import { at, seedUser, uniqueId } from './contract-fixtures.ts';

/** The SessionRevocationRepository contract (core/ports/session-revocation-repository.ts), run against every Storage. */
export function describeSessionRevocationContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`SessionRevocationRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('refuses a revoked token only, and revoking twice is harmless', async () => {
      const user = await seedUser(storage);
      const [revoked, other] = [uniqueId('jti'), uniqueId('jti')];
      await storage.sessionRevocations.revokeToken(revoked, at(3600));
      await storage.sessionRevocations.revokeToken(revoked, at(3600));
      expect(await storage.sessionRevocations.isRevoked({ tokenId: revoked, userId: user.id, issuedAt: at(0) })).to.equal(true);
      expect(await storage.sessionRevocations.isRevoked({ tokenId: other, userId: user.id, issuedAt: at(0) })).to.equal(false);
    });

    it('refuses every token of a user issued before the cutoff, not after it, and never those of another user', async () => {
      const [user, someoneElse] = [await seedUser(storage), await seedUser(storage)];
      await storage.sessionRevocations.revokeUserSessionsBefore(user.id, at(100));
      await storage.sessionRevocations.revokeUserSessionsBefore(user.id, at(50)); // an earlier cutoff does not reopen anything
      const check = (userId: string, seconds: number) => storage.sessionRevocations.isRevoked({ tokenId: uniqueId('jti'), userId, issuedAt: at(seconds) });
      expect(await check(user.id, 99.999)).to.equal(true);
      expect(await check(user.id, 100)).to.equal(false);
      expect(await check(user.id, 101)).to.equal(false);
      expect(await check(someoneElse.id, 0)).to.equal(false);
    });

    it('purges token revocations once their token has expired', async () => {
      const [soon, later] = [uniqueId('jti'), uniqueId('jti')];
      await storage.sessionRevocations.revokeToken(soon, at(10));
      await storage.sessionRevocations.revokeToken(later, at(100_000_000));
      expect(await storage.sessionRevocations.purgeExpired(at(11))).to.be.at.least(1);
      const user = await seedUser(storage);
      expect(await storage.sessionRevocations.isRevoked({ tokenId: soon, userId: user.id, issuedAt: at(0) })).to.equal(false);
      expect(await storage.sessionRevocations.isRevoked({ tokenId: later, userId: user.id, issuedAt: at(0) })).to.equal(true);
    });
  });
}
