import type { Passkey, TotpFactor } from '../domain/two-factor.ts';

/**
 * A user's second factors (docs/security.md, "Two-factor sign-in"): one TOTP authenticator, recovery codes
 * (stored as digests, single use) and passkeys. Global, not tenant data (users are not scoped to an organization).
 * Every method is keyed by the user id; a user never reads or changes another user's factors.
 */
export interface SecondFactorRepository {
  findTotp(userId: string): Promise<TotpFactor | null>;
  /** Stores a pending (unconfirmed) authenticator, replacing an earlier pending one. The caller checks none is confirmed. */
  savePendingTotp(userId: string, sealedSecret: string, at: Date): Promise<void>;
  /** Confirms the pending authenticator with the time step of its first code; false when there is none pending. */
  confirmTotp(userId: string, step: number, at: Date): Promise<boolean>;
  /**
   * The replay guard: records `step` as the last used one only when it is later than the recorded one, atomically
   * (two concurrent requests with one code: one wins). False when the code's step was already used.
   */
  useTotpStep(userId: string, step: number): Promise<boolean>;
  /** Replaces every recovery code of the user with these digests (all unused). */
  replaceRecoveryCodes(userId: string, codeHashes: readonly string[], at: Date): Promise<void>;
  /** Marks one unused code as used, atomically; false when unknown or already used. */
  useRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean>;
  countUnusedRecoveryCodes(userId: string): Promise<number>;
  /** Throws AppError CONFLICT when the credential id is already registered (to anyone). */
  addPasskey(passkey: Passkey): Promise<void>;
  /** The user's passkeys, oldest first (at most MAX_PASSKEYS_PER_USER). */
  listPasskeys(userId: string): Promise<Passkey[]>;
  findPasskey(userId: string, credentialId: string): Promise<Passkey | null>;
  /** After a successful assertion: the authenticator's new signature counter and the time. */
  recordPasskeyUse(userId: string, credentialId: string, counter: number, at: Date): Promise<void>;
  /** False when the user has no such passkey. */
  deletePasskey(userId: string, credentialId: string): Promise<boolean>;
  /** Removes the authenticator, every recovery code and every passkey of the user (two-factor disabled). */
  deleteAll(userId: string): Promise<void>;
}

export const MAX_PASSKEYS_PER_USER = 20;
