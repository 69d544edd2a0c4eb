import { expect } from 'chai';
import type { PasswordReset } from '../../core/ports/password-reset-repository.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { at, seedUser, T0, uniqueId } from './contract-fixtures.ts';

/** The PasswordResetRepository contract (core/ports/password-reset-repository.ts), run against every Storage. */
export function describePasswordResetRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`PasswordResetRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    /** Inserts a reset token for the user (a new user unless given), valid for 30 minutes after T0. */
    async function reset(overrides: Partial<PasswordReset> = {}): Promise<PasswordReset> {
      const userId = overrides.userId ?? (await seedUser(storage)).id;
      const row: PasswordReset = {
        id: uniqueId('reset'), userId, tokenHash: uniqueId('token-hash'), expiresAt: at(30 * 60), usedAt: null, createdAt: T0, ...overrides,
      };
      await storage.passwordResets.insert(row);
      return row;
    }

    it('consumes an open token once, returning its user id', async () => {
      const token = await reset();
      expect(await storage.passwordResets.consume(token.tokenHash, at(60))).to.equal(token.userId);
      expect(await storage.passwordResets.consume(token.tokenHash, at(61))).to.equal(null);
    });

    it('answers null for an unknown token', async () => {
      expect(await storage.passwordResets.consume(uniqueId('token-hash'), at(1))).to.equal(null);
    });

    it('answers null for a token at or after its expiry, and does not use it up', async () => {
      const token = await reset({ expiresAt: at(600) });
      expect(await storage.passwordResets.consume(token.tokenHash, at(600))).to.equal(null);
      expect(await storage.passwordResets.consume(token.tokenHash, at(601))).to.equal(null);
      expect(await storage.passwordResets.consume(token.tokenHash, at(599))).to.equal(token.userId);
    });

    it('answers null for a token already used', async () => {
      const token = await reset({ usedAt: at(10) });
      expect(await storage.passwordResets.consume(token.tokenHash, at(20))).to.equal(null);
    });

    it('lets exactly one of 10 concurrent consumes of one token succeed', async () => {
      const token = await reset();
      const results = await Promise.all(Array.from({ length: 10 }, () => storage.passwordResets.consume(token.tokenHash, at(60))));
      expect(results.filter((r) => r !== null)).to.deep.equal([token.userId]);
    });

    it("invalidates every open token of a user and no one else's", async () => {
      const first = await reset();
      const second = await reset({ userId: first.userId });
      const stranger = await reset();
      await storage.passwordResets.invalidateForUser(first.userId, at(30));
      expect(await storage.passwordResets.consume(first.tokenHash, at(31))).to.equal(null);
      expect(await storage.passwordResets.consume(second.tokenHash, at(31))).to.equal(null);
      expect(await storage.passwordResets.consume(stranger.tokenHash, at(31))).to.equal(stranger.userId);
    });
  });
}
