/** Two-factor sign-in (docs/security.md, "Two-factor sign-in"; ADR 0038). Pure types and rules, no I/O. */

/** A TOTP authenticator of a user: pending until confirmed with a first code. The secret is sealed (CredentialCipher). */
export interface TotpFactor {
  userId: string;
  sealedSecret: string;
  confirmedAt: Date | null;
  /** The RFC 6238 time step of the last accepted code: codes of that step or earlier are refused (replay protection). */
  lastUsedStep: number | null;
  createdAt: Date;
}

/** A registered WebAuthn credential (a passkey or a security key) used as a second factor. */
export interface Passkey {
  /** The credential id, base64url. Globally unique. */
  id: string;
  userId: string;
  name: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

/**
 * What a password sign-in opens when the user needs a second step: `second_factor` (the user has a factor: prove it),
 * `enrolment` (an organization or the platform requires two-factor and the user has none: enrol one, then signed in).
 * `passkey_registration` holds the WebAuthn challenge of a signed-in user adding a passkey.
 */
export const CHALLENGE_KINDS = ['second_factor', 'enrolment', 'passkey_registration'] as const;
export type ChallengeKind = (typeof CHALLENGE_KINDS)[number];

/** A short-lived, single-use challenge. Only the SHA-256 of its token is stored (the id). */
export interface SignInChallenge {
  id: string;
  userId: string;
  kind: ChallengeKind;
  /** The WebAuthn challenge issued under this challenge (base64url), if any. */
  webauthnChallenge: string | null;
  expiresAt: Date;
  createdAt: Date;
}

export const RECOVERY_CODE_COUNT = 10;
/** Recovery codes: 16 characters of Crockford-like base32 (80 bits), shown as four groups of four. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ0123456789';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Turns a random base64url token (16+ characters, 6 bits each) into a recovery code `XXXX-XXXX-XXXX-XXXX` (5 bits per character kept). */
export function formatRecoveryCode(randomToken: string): string {
  if (randomToken.length < 16) throw new Error('a recovery code needs 16 random characters');
  let out = '';
  for (let i = 0; i < 16; i += 1) out += RECOVERY_ALPHABET[Math.max(0, BASE64URL.indexOf(randomToken[i]!)) % 32];
  return out.match(/.{4}/g)!.join('-');
}

/** One spelling for a typed recovery code: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

/** A TOTP code as typed: six digits, spaces ignored; null for anything else. */
export function normalizeTotpCode(code: string): string | null {
  const digits = code.replace(/\s/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}
