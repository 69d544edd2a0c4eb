import type { SignInChallenge } from '../domain/two-factor.ts';

/**
 * Short-lived challenges of two-factor sign-in (ADR 0038): the state between the password step and the second
 * step, and the WebAuthn challenges issued under them. Stored by the SHA-256 of their token; single use.
 * Global, not tenant data.
 */
export interface SignInChallengeRepository {
  /** Inserts or replaces the challenge with this id; forgets the user's expired challenges on the way. */
  save(challenge: SignInChallenge): Promise<void>;
  /** The challenge, expired or not (the caller checks `expiresAt`), or null. */
  find(id: string): Promise<SignInChallenge | null>;
  /** Sets the WebAuthn challenge of an existing challenge; false when it is gone. */
  setWebauthnChallenge(id: string, webauthnChallenge: string): Promise<boolean>;
  /** Deletes the challenge atomically; true for the one caller that deleted it (single use under concurrency). */
  consume(id: string): Promise<boolean>;
}
