import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
  type AuthenticationResponseJSON, type AuthenticatorTransport, type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey } from '../../core/domain/two-factor.ts';
import type { PasskeyVerifier, RegisteredCredential } from '../../core/ports/passkey-verifier.ts';

export interface RelyingParty {
  /** The RP id: the dashboard's host name (WEBAUTHN_RP_ID). */
  id: string;
  name: string;
  /** Origins the dashboard is served from (WEBAUTHN_ORIGINS). */
  origins: string[];
}

const TIMEOUT_MS = 120_000;

/** WebAuthn on @simplewebauthn/server: no attestation (any authenticator), user verification preferred. */
export class SimpleWebAuthnPasskeyVerifier implements PasskeyVerifier {
  readonly #rp: RelyingParty;
  constructor(rp: RelyingParty) { this.#rp = rp; }

  async registrationOptions(user: { id: string; name: string; displayName: string }, exclude: readonly Passkey[]) {
    const options = await generateRegistrationOptions({
      rpName: this.#rp.name, rpID: this.#rp.id, userName: user.name, userDisplayName: user.displayName,
      userID: new TextEncoder().encode(user.id), attestationType: 'none', timeout: TIMEOUT_MS,
      excludeCredentials: exclude.map((p) => ({ id: p.id, transports: p.transports as AuthenticatorTransport[] })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    return { options, challenge: options.challenge };
  }

  async verifyRegistration(response: unknown, expectedChallenge: string): Promise<RegisteredCredential | null> {
    try {
      const result = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON, expectedChallenge, expectedOrigin: this.#rp.origins, expectedRPID: this.#rp.id, requireUserVerification: false,
      });
      if (!result.verified) return null;
      const { credential } = result.registrationInfo;
      return { id: credential.id, publicKey: Buffer.from(credential.publicKey).toString('base64url'), counter: credential.counter, transports: credential.transports ?? [] };
    } catch {
      return null;
    }
  }

  async authenticationOptions(allow: readonly Passkey[]) {
    const options = await generateAuthenticationOptions({
      rpID: this.#rp.id, timeout: TIMEOUT_MS, userVerification: 'preferred',
      allowCredentials: allow.map((p) => ({ id: p.id, transports: p.transports as AuthenticatorTransport[] })),
    });
    return { options, challenge: options.challenge };
  }

  credentialIdOf(response: unknown): string | null {
    const id = (response as { id?: unknown } | null)?.id;
    return typeof id === 'string' && /^[A-Za-z0-9_-]{1,1024}$/.test(id) ? id : null;
  }

  async verifyAuthentication(response: unknown, expectedChallenge: string, passkey: Passkey): Promise<{ counter: number } | null> {
    try {
      const result = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON, expectedChallenge, expectedOrigin: this.#rp.origins, expectedRPID: this.#rp.id,
        credential: { id: passkey.id, publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')), counter: passkey.counter, transports: passkey.transports as AuthenticatorTransport[] },
        requireUserVerification: false,
      });
      return result.verified ? { counter: result.authenticationInfo.newCounter } : null;
    } catch {
      return null;
    }
  }
}
