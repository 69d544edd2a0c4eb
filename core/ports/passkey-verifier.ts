import type { Passkey } from '../domain/two-factor.ts';

/** A WebAuthn credential a browser registered, as verified. */
export interface RegisteredCredential {
  id: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/**
 * WebAuthn ceremonies for the configured relying party (id and origins: docs/security.md). Options are the
 * JSON the browser's `navigator.credentials` calls take (via @simplewebauthn/browser); responses are the
 * browser's JSON answers. A response that fails verification answers null, never throws.
 */
export interface PasskeyVerifier {
  registrationOptions(user: { id: string; name: string; displayName: string }, exclude: readonly Passkey[]): Promise<{ options: unknown; challenge: string }>;
  verifyRegistration(response: unknown, expectedChallenge: string): Promise<RegisteredCredential | null>;
  authenticationOptions(allow: readonly Passkey[]): Promise<{ options: unknown; challenge: string }>;
  /** The credential id a response names (to find the passkey), or null when the response is malformed. */
  credentialIdOf(response: unknown): string | null;
  /** The new signature counter when the assertion is valid for this passkey and challenge; null otherwise. */
  verifyAuthentication(response: unknown, expectedChallenge: string, passkey: Passkey): Promise<{ counter: number } | null>;
}
