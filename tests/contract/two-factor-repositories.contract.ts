import { expect } from 'chai';
import type { Passkey } from '../../core/domain/two-factor.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { at, rejection, seedOrganization, seedUser, uniqueId } from './contract-fixtures.ts';

function aPasskey(userId: string, overrides: Partial<Passkey> = {}): Passkey {
  return { id: uniqueId('cred'), userId, name: 'Laptop', publicKey: 'pQECAyYgASFYIA', counter: 0, transports: ['internal'], createdAt: at(0), lastUsedAt: null, ...overrides };
}

/**
 * The two-factor ports (core/ports/second-factor-repository.ts, sign-in-challenge-repository.ts,
 * two-factor-policy-repository.ts), run against every Storage.
 */
export function describeTwoFactorContracts(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`SecondFactorRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('keeps a pending authenticator until confirmed, then refuses a time step at or before the last used one', async () => {
      const [user, other] = [await seedUser(storage), await seedUser(storage)];
      expect(await storage.secondFactors.findTotp(user.id)).to.equal(null);
      expect(await storage.secondFactors.useTotpStep(user.id, 5)).to.equal(false);
      await storage.secondFactors.savePendingTotp(user.id, 'sealed-1', at(0));
      await storage.secondFactors.savePendingTotp(user.id, 'sealed-2', at(1));
      expect(await storage.secondFactors.useTotpStep(user.id, 5)).to.equal(false); // pending: not usable
      expect(await storage.secondFactors.confirmTotp(user.id, 100, at(2))).to.equal(true);
      expect(await storage.secondFactors.confirmTotp(user.id, 101, at(3))).to.equal(false);
      const totp = await storage.secondFactors.findTotp(user.id);
      expect(totp).to.deep.include({ userId: user.id, sealedSecret: 'sealed-2', lastUsedStep: 100 });
      expect(totp!.confirmedAt!.toISOString()).to.equal(at(2).toISOString());
      expect(await storage.secondFactors.useTotpStep(user.id, 100)).to.equal(false);
      expect(await storage.secondFactors.useTotpStep(user.id, 99)).to.equal(false);
      expect(await storage.secondFactors.useTotpStep(user.id, 101)).to.equal(true);
      expect(await storage.secondFactors.findTotp(other.id)).to.equal(null);
    });

    it('lets exactly one of two concurrent uses of one time step through', async () => {
      const user = await seedUser(storage);
      await storage.secondFactors.savePendingTotp(user.id, 'sealed', at(0));
      await storage.secondFactors.confirmTotp(user.id, 10, at(0));
      const results = await Promise.all([11, 11, 11, 11].map((step) => storage.secondFactors.useTotpStep(user.id, step)));
      expect(results.filter(Boolean)).to.have.length(1);
    });

    it('uses each recovery code once, only its own user\'s, and replacing forgets the old ones', async () => {
      const [user, other] = [await seedUser(storage), await seedUser(storage)];
      await storage.secondFactors.replaceRecoveryCodes(user.id, ['h1', 'h2', 'h3'], at(0));
      expect(await storage.secondFactors.countUnusedRecoveryCodes(user.id)).to.equal(3);
      expect(await storage.secondFactors.useRecoveryCode(other.id, 'h1', at(1))).to.equal(false);
      const twice = await Promise.all([storage.secondFactors.useRecoveryCode(user.id, 'h1', at(1)), storage.secondFactors.useRecoveryCode(user.id, 'h1', at(1))]);
      expect(twice.filter(Boolean)).to.have.length(1);
      expect(await storage.secondFactors.useRecoveryCode(user.id, 'nope', at(1))).to.equal(false);
      expect(await storage.secondFactors.countUnusedRecoveryCodes(user.id)).to.equal(2);
      await storage.secondFactors.replaceRecoveryCodes(user.id, ['h4'], at(2));
      expect(await storage.secondFactors.useRecoveryCode(user.id, 'h2', at(3))).to.equal(false);
      expect(await storage.secondFactors.countUnusedRecoveryCodes(user.id)).to.equal(1);
    });

    it('stores passkeys per user, refuses a duplicate credential id with CONFLICT, records use, deletes one or all', async () => {
      const [user, other] = [await seedUser(storage), await seedUser(storage)];
      const first = aPasskey(user.id, { createdAt: at(0) });
      const second = aPasskey(user.id, { createdAt: at(5), transports: ['usb', 'nfc'] });
      await storage.secondFactors.addPasskey(second);
      await storage.secondFactors.addPasskey(first);
      expect((await rejection(storage.secondFactors.addPasskey(aPasskey(other.id, { id: first.id })))).code).to.equal('CONFLICT');
      expect((await storage.secondFactors.listPasskeys(user.id)).map((p) => p.id)).to.deep.equal([first.id, second.id]);
      expect(await storage.secondFactors.findPasskey(other.id, first.id)).to.equal(null);
      await storage.secondFactors.recordPasskeyUse(user.id, second.id, 7, at(9));
      const used = await storage.secondFactors.findPasskey(user.id, second.id);
      expect(used).to.deep.include({ counter: 7, transports: ['usb', 'nfc'] });
      expect(used!.lastUsedAt!.toISOString()).to.equal(at(9).toISOString());
      expect(await storage.secondFactors.deletePasskey(other.id, first.id)).to.equal(false);
      expect(await storage.secondFactors.deletePasskey(user.id, first.id)).to.equal(true);
      await storage.secondFactors.savePendingTotp(user.id, 's', at(0));
      await storage.secondFactors.replaceRecoveryCodes(user.id, ['x'], at(0));
      await storage.transaction((tx) => tx.secondFactors.deleteAll(user.id));
      expect(await storage.secondFactors.listPasskeys(user.id)).to.deep.equal([]);
      expect(await storage.secondFactors.findTotp(user.id)).to.equal(null);
      expect(await storage.secondFactors.countUnusedRecoveryCodes(user.id)).to.equal(0);
    });
  });

  describe(`SignInChallengeRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('finds a saved challenge, sets its WebAuthn challenge, consumes it once and forgets a user\'s expired ones', async () => {
      const user = await seedUser(storage);
      const id = uniqueId('challenge');
      const old = uniqueId('challenge');
      await storage.signInChallenges.save({ id: old, userId: user.id, kind: 'second_factor', webauthnChallenge: null, expiresAt: at(10), createdAt: at(0) });
      await storage.signInChallenges.save({ id, userId: user.id, kind: 'enrolment', webauthnChallenge: null, expiresAt: at(400), createdAt: at(100) });
      expect(await storage.signInChallenges.find(old)).to.equal(null);
      expect(await storage.signInChallenges.setWebauthnChallenge(id, 'wa-1')).to.equal(true);
      const found = await storage.signInChallenges.find(id);
      expect(found).to.deep.include({ id, userId: user.id, kind: 'enrolment', webauthnChallenge: 'wa-1' });
      expect(found!.expiresAt.toISOString()).to.equal(at(400).toISOString());
      const consumed = await Promise.all([storage.signInChallenges.consume(id), storage.signInChallenges.consume(id)]);
      expect(consumed.filter(Boolean)).to.have.length(1);
      expect(await storage.signInChallenges.find(id)).to.equal(null);
      expect(await storage.signInChallenges.setWebauthnChallenge(id, 'wa-2')).to.equal(false);
    });
  });

  describe(`TwoFactorPolicyRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('requires two-factor per organization, and for a user when any of their organizations does', async () => {
      const [org, other] = [await seedOrganization(storage), await seedOrganization(storage)];
      const [member, outsider] = [await seedUser(storage), await seedUser(storage)];
      await storage.memberships.insert({ id: uniqueId('m'), organizationId: org.id, userId: member.id, role: 'VIEWER', createdAt: at(0) });
      await storage.memberships.insert({ id: uniqueId('m'), organizationId: other.id, userId: outsider.id, role: 'VIEWER', createdAt: at(0) });
      expect(await storage.twoFactorPolicies.requiredForUser(member.id)).to.equal(false);
      await storage.twoFactorPolicies.setRequired(org.id, true, at(1));
      await storage.twoFactorPolicies.setRequired(org.id, true, at(2));
      expect(await storage.twoFactorPolicies.isRequired(org.id)).to.equal(true);
      expect(await storage.twoFactorPolicies.isRequired(other.id)).to.equal(false);
      expect(await storage.twoFactorPolicies.requiredForUser(member.id)).to.equal(true);
      expect(await storage.twoFactorPolicies.requiredForUser(outsider.id)).to.equal(false);
      await storage.twoFactorPolicies.setRequired(org.id, false, at(3));
      expect(await storage.twoFactorPolicies.requiredForUser(member.id)).to.equal(false);
    });
  });
}
