import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import { emailDomain, ssoRedirectUri, type SsoConnection } from '../../domain/sso.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { OpenIdProvider } from '../../ports/openid-provider.ts';
import type { RateLimiter } from '../../ports/rate-limiter.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { Storage } from '../../ports/storage.ts';
import { clientSettings, sealLoginState, SSO_STATE_TTL_SECONDS } from './sso-support.ts';

export const StartSsoLoginInput = v.object({
  email: v.optional(fields.email()),
  organization: v.optional(v.pipe(v.string('must be a string'), v.trim(), v.toLowerCase(), v.minLength(1, 'is required'), v.maxLength(40, 'must be at most 40 characters'))),
});

export interface StartSsoLoginDeps {
  storage: Storage; provider: OpenIdProvider; cipher: CredentialCipher; secrets: Secrets; clock: Clock; rateLimiter: RateLimiter; publicUrl: string;
  /** Starts allowed per client IP in 10 minutes (each one costs a call to the issuer). */
  perIpLimit: number;
}

/**
 * POST /auth/sso/start: finds the organization by the email's verified domain (or by its SSO slug) and
 * answers the identity provider's authorization URL (code flow, PKCE S256, fresh state and nonce) plus
 * the sealed state the host keeps in a short-lived HttpOnly cookie. Errors: VALIDATION_ERROR,
 * SSO_NOT_CONFIGURED, SSO_PROVIDER_UNAVAILABLE, RATE_LIMITED.
 */
export class StartSsoLogin {
  readonly #deps: StartSsoLoginDeps;
  constructor(deps: StartSsoLoginDeps) { this.#deps = deps; }

  async execute(raw: unknown, clientIp: string) {
    const input = parseInput(StartSsoLoginInput, raw);
    if (!input.email && !input.organization) {
      throw new AppError('VALIDATION_ERROR', 'email or organization is required', { fieldErrors: { email: ['email or organization is required'] }, formErrors: [] });
    }
    const { storage, provider, cipher, secrets, clock, rateLimiter, publicUrl, perIpLimit } = this.#deps;
    const verdict = await rateLimiter.hit(`sso-start:${clientIp}`, perIpLimit, 600);
    if (!verdict.allowed) throw new AppError('RATE_LIMITED', 'Too many single sign-on attempts; try again later', { retryAfterSeconds: verdict.retryAfterSeconds });

    const connection = await this.#connection(input.email, input.organization);
    if (!connection) throw new AppError('SSO_NOT_CONFIGURED', input.email ? 'No organization signs in with single sign-on for this email' : 'No organization signs in with this name');
    const now = clock.now();
    const state = { organizationId: connection.organizationId, state: secrets.randomToken(24), nonce: secrets.randomToken(24), codeVerifier: secrets.randomToken(48), expiresAt: now.getTime() + SSO_STATE_TTL_SECONDS * 1000 };
    const authorizationUrl = await provider.authorizationUrl(clientSettings(cipher, connection), { ...state, redirectUri: ssoRedirectUri(publicUrl) });
    return { authorizationUrl, sealedState: sealLoginState(cipher, state), expiresAt: new Date(state.expiresAt).toISOString() };
  }

  async #connection(email: string | undefined, slug: string | undefined): Promise<SsoConnection | null> {
    const { storage } = this.#deps;
    if (slug) return storage.sso.findConnectionBySlug(slug);
    const domain = await storage.sso.findVerifiedDomain(emailDomain(email!));
    return domain ? storage.sso.findConnection(domain.organizationId) : null;
  }
}
