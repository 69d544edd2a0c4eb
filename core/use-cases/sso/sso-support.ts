import { AppError } from '../../errors.ts';
import { emailDomain, type SsoConnection } from '../../domain/sso.ts';
import type { User } from '../../domain/user.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { OpenIdClientSettings } from '../../ports/openid-provider.ts';
import type { Storage } from '../../ports/storage.ts';

/** How long a started sign-in may take at the identity provider. */
export const SSO_STATE_TTL_SECONDS = 600;

/** The password hash of an account created by single sign-on: no password verifies against it. */
export const NO_PASSWORD = '!sso-no-password';

/** What the browser carries between start and callback, sealed (AES-GCM: confidential and tamper-evident). */
export interface SsoLoginState { organizationId: string; state: string; nonce: string; codeVerifier: string; expiresAt: number }

export function sealLoginState(cipher: CredentialCipher, state: SsoLoginState): string {
  return Buffer.from(cipher.encrypt(JSON.stringify(state)), 'utf8').toString('base64url');
}

/** The sealed state, or SSO_STATE_MISMATCH when it is missing, tampered with or expired. */
export function openLoginState(cipher: CredentialCipher, sealed: string | undefined, now: Date): SsoLoginState {
  const mismatch = (why: string) => new AppError('SSO_STATE_MISMATCH', `This sign-in cannot be completed (${why}); start again`, { reason: why });
  if (!sealed) throw mismatch('no sign-in in progress in this browser');
  let state: SsoLoginState;
  try { state = JSON.parse(cipher.decrypt(Buffer.from(sealed, 'base64url').toString('utf8'))) as SsoLoginState; } catch { throw mismatch('sign-in state not readable'); }
  if (typeof state.expiresAt !== 'number' || state.expiresAt < now.getTime()) throw mismatch('sign-in expired');
  return state;
}

/** The settings a provider call needs, the secret opened only in memory. */
export function clientSettings(cipher: CredentialCipher, connection: SsoConnection): OpenIdClientSettings {
  return { issuerUrl: connection.issuerUrl, clientId: connection.clientId, clientSecret: cipher.decrypt(connection.clientSecretCiphertext), scopes: connection.scopes };
}

/**
 * Password sign-in (and registration) is refused with SSO_REQUIRED for an email whose domain is verified
 * by an organization with "SSO only" on. Platform administrators are never locked out this way.
 */
export async function assertPasswordAllowed(storage: Storage, user: Pick<User, 'email' | 'platformRole'>): Promise<void> {
  if (user.platformRole !== null) return;
  const domain = await storage.sso.findVerifiedDomain(emailDomain(user.email));
  if (!domain) return;
  const connection = await storage.sso.findConnection(domain.organizationId);
  if (connection?.ssoOnly) {
    throw new AppError('SSO_REQUIRED', `${domain.domain} accounts sign in with single sign-on`, { organizationId: domain.organizationId, domain: domain.domain });
  }
}
