import type { Passkey, SignInChallenge, TotpFactor } from '../../core/domain/two-factor.ts';
import { AppError } from '../../core/errors.ts';
import { MAX_PASSKEYS_PER_USER, type SecondFactorRepository } from '../../core/ports/second-factor-repository.ts';
import type { SignInChallengeRepository } from '../../core/ports/sign-in-challenge-repository.ts';
import type { TwoFactorPolicyRepository } from '../../core/ports/two-factor-policy-repository.ts';
import type { MemoryState } from './memory-state.ts';

export class InMemorySecondFactorRepository implements SecondFactorRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async findTotp(userId: string): Promise<TotpFactor | null> {
    const totp = this.#state.totpFactors.get(userId);
    return totp ? { ...totp } : null;
  }

  async savePendingTotp(userId: string, sealedSecret: string, at: Date): Promise<void> {
    this.#state.totpFactors.set(userId, { userId, sealedSecret, confirmedAt: null, lastUsedStep: null, createdAt: at });
  }

  async confirmTotp(userId: string, step: number, at: Date): Promise<boolean> {
    const totp = this.#state.totpFactors.get(userId);
    if (!totp || totp.confirmedAt) return false;
    this.#state.totpFactors.set(userId, { ...totp, confirmedAt: at, lastUsedStep: step });
    return true;
  }

  async useTotpStep(userId: string, step: number): Promise<boolean> {
    const totp = this.#state.totpFactors.get(userId);
    if (!totp || !totp.confirmedAt || (totp.lastUsedStep !== null && totp.lastUsedStep >= step)) return false;
    this.#state.totpFactors.set(userId, { ...totp, lastUsedStep: step });
    return true;
  }

  async replaceRecoveryCodes(userId: string, codeHashes: readonly string[]): Promise<void> {
    this.#state.recoveryCodes.set(userId, new Map(codeHashes.map((hash) => [hash, null])));
  }

  async useRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean> {
    const codes = this.#state.recoveryCodes.get(userId);
    if (!codes || !codes.has(codeHash) || codes.get(codeHash) !== null) return false;
    codes.set(codeHash, at);
    return true;
  }

  async countUnusedRecoveryCodes(userId: string): Promise<number> {
    return [...(this.#state.recoveryCodes.get(userId)?.values() ?? [])].filter((usedAt) => usedAt === null).length;
  }

  async addPasskey(passkey: Passkey): Promise<void> {
    if (this.#state.passkeys.has(passkey.id)) throw new AppError('CONFLICT', 'passkey already exists');
    this.#state.passkeys.set(passkey.id, { ...passkey, transports: [...passkey.transports] });
  }

  async listPasskeys(userId: string): Promise<Passkey[]> {
    return [...this.#state.passkeys.values()].filter((p) => p.userId === userId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)).slice(0, MAX_PASSKEYS_PER_USER).map((p) => ({ ...p }));
  }

  async findPasskey(userId: string, credentialId: string): Promise<Passkey | null> {
    const passkey = this.#state.passkeys.get(credentialId);
    return passkey && passkey.userId === userId ? { ...passkey } : null;
  }

  async recordPasskeyUse(userId: string, credentialId: string, counter: number, at: Date): Promise<void> {
    const passkey = this.#state.passkeys.get(credentialId);
    if (passkey && passkey.userId === userId) this.#state.passkeys.set(credentialId, { ...passkey, counter, lastUsedAt: at });
  }

  async deletePasskey(userId: string, credentialId: string): Promise<boolean> {
    const passkey = this.#state.passkeys.get(credentialId);
    if (!passkey || passkey.userId !== userId) return false;
    return this.#state.passkeys.delete(credentialId);
  }

  async deleteAll(userId: string): Promise<void> {
    this.#state.totpFactors.delete(userId);
    this.#state.recoveryCodes.delete(userId);
    for (const [id, passkey] of this.#state.passkeys) if (passkey.userId === userId) this.#state.passkeys.delete(id);
  }
}

export class InMemorySignInChallengeRepository implements SignInChallengeRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async save(challenge: SignInChallenge): Promise<void> {
    for (const [id, c] of this.#state.signInChallenges) {
      if (c.userId === challenge.userId && c.expiresAt.getTime() < challenge.createdAt.getTime()) this.#state.signInChallenges.delete(id);
    }
    this.#state.signInChallenges.set(challenge.id, { ...challenge });
  }

  async find(id: string): Promise<SignInChallenge | null> {
    const challenge = this.#state.signInChallenges.get(id);
    return challenge ? { ...challenge } : null;
  }

  async setWebauthnChallenge(id: string, webauthnChallenge: string): Promise<boolean> {
    const challenge = this.#state.signInChallenges.get(id);
    if (!challenge) return false;
    this.#state.signInChallenges.set(id, { ...challenge, webauthnChallenge });
    return true;
  }

  async consume(id: string): Promise<boolean> {
    return this.#state.signInChallenges.delete(id);
  }
}

export class InMemoryTwoFactorPolicyRepository implements TwoFactorPolicyRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async setRequired(organizationId: string, required: boolean, at: Date): Promise<void> {
    if (!required) this.#state.twoFactorPolicies.delete(organizationId);
    else if (!this.#state.twoFactorPolicies.has(organizationId)) this.#state.twoFactorPolicies.set(organizationId, at);
  }

  async isRequired(organizationId: string): Promise<boolean> {
    return this.#state.twoFactorPolicies.has(organizationId);
  }

  async requiredForUser(userId: string): Promise<boolean> {
    return [...this.#state.memberships.values()].some((m) => m.userId === userId && this.#state.twoFactorPolicies.has(m.organizationId));
  }
}
