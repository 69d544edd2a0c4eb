import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { emailDomain, ssoRedirectUri } from '../../domain/sso.ts';
import type { MemberRole } from '../../domain/roles.ts';
import { toUserProfile, type User } from '../../domain/user.ts';
import type { Clock } from '../../ports/clock.ts';
import type { CredentialCipher } from '../../ports/credential-cipher.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { OpenIdIdentity, OpenIdProvider } from '../../ports/openid-provider.ts';
import type { Secrets } from '../../ports/secrets.ts';
import type { SessionTokens } from '../../ports/session-tokens.ts';
import type { Storage } from '../../ports/storage.ts';
import { RecordOrgAuditEvent } from '../audit/record-org-audit-event.ts';
import { listUserOrganizations } from '../auth/list-user-organizations.ts';
import { rememberLoginClient } from '../auth/login-clients.ts';
import { clientSettings, NO_PASSWORD, openLoginState } from './sso-support.ts';

const param = v.optional(v.pipe(v.string('must be a string'), v.maxLength(4096, 'is too long')));
/** The query parameters the identity provider sent the browser back with, as the dashboard's callback page read them. */
export const CompleteSsoLoginInput = v.object({ code: param, state: param, iss: param, error: param, error_description: param, session_state: param });

export interface CompleteSsoLoginDeps {
  storage: Storage; provider: OpenIdProvider; cipher: CredentialCipher; secrets: Secrets; sessions: SessionTokens; ids: IdGenerator; clock: Clock;
  publicUrl: string; sessionTtlSeconds: number;
}

/**
 * POST /auth/sso/callback: checks the sealed state this browser started with (state, 10 minutes),
 * exchanges the code at the organization's provider (PKCE verifier, nonce checked in the ID token),
 * requires a verified email of one of the organization's verified domains, creates the user and the
 * membership (the connection's default role) just in time, and answers the session /auth/login answers.
 * Errors: SSO_STATE_MISMATCH, SSO_LOGIN_FAILED, SSO_DOMAIN_MISMATCH, SSO_NOT_CONFIGURED, SSO_PROVIDER_UNAVAILABLE.
 */
export class CompleteSsoLogin {
  readonly #deps: CompleteSsoLoginDeps;
  constructor(deps: CompleteSsoLoginDeps) { this.#deps = deps; }

  async execute(sealedState: string | undefined, raw: unknown, clientIp: string) {
    const params = parseInput(CompleteSsoLoginInput, raw);
    const { storage, provider, cipher, secrets, sessions, clock } = this.#deps;
    const started = openLoginState(cipher, sealedState, clock.now());
    if (!params.state || !secrets.safeEqual(params.state, started.state)) {
      throw new AppError('SSO_STATE_MISMATCH', 'This sign-in cannot be completed (state mismatch); start again', { reason: 'state mismatch' });
    }
    if (params.error) throw new AppError('SSO_LOGIN_FAILED', `The identity provider refused the sign-in: ${params.error}`, { error: params.error });
    const connection = await storage.sso.findConnection(started.organizationId);
    if (!connection) throw new AppError('SSO_NOT_CONFIGURED', 'The organization no longer signs in with single sign-on');

    const redirectUri = ssoRedirectUri(this.#deps.publicUrl);
    const query = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
    const identity = await provider.completeLogin(clientSettings(cipher, connection), `${redirectUri}?${query}`, { ...started, redirectUri });
    if (!identity.email || identity.emailVerified === false) {
      throw new AppError('SSO_LOGIN_FAILED', 'The identity provider did not vouch for a verified email address', { error: identity.email ? 'email_not_verified' : 'no_email' });
    }
    const domain = await storage.sso.findVerifiedDomain(emailDomain(identity.email));
    if (!domain || domain.organizationId !== connection.organizationId) {
      throw new AppError('SSO_DOMAIN_MISMATCH', `${emailDomain(identity.email)} is not a verified domain of this organization`, { domain: emailDomain(identity.email) });
    }

    const user = await this.#member(identity as OpenIdIdentity & { email: string }, connection.organizationId, connection.defaultRole, clientIp);
    const deviceToken = await rememberLoginClient({ storage, secrets, clock }, user.id, clientIp, null);
    const session = await sessions.issue({ userId: user.id }, this.#deps.sessionTtlSeconds);
    return {
      token: session.token, expiresAt: session.expiresAt.toISOString(), deviceToken, user: toUserProfile(user),
      organizations: await listUserOrganizations(storage, user.id), organizationId: connection.organizationId,
    };
  }

  /**
   * The user with this email, created if absent, and made a member with `role` if not one yet; a new
   * membership is recorded in the organization's audit log (`sso.member_provisioned`) in the same transaction.
   */
  async #member(identity: OpenIdIdentity & { email: string }, organizationId: string, role: MemberRole, clientIp: string): Promise<User> {
    const { storage, ids, clock } = this.#deps;
    for (let attempt = 0; ; attempt++) {
      try {
        return await storage.transaction(async (tx) => {
          const now = clock.now();
          let user = await tx.users.findByEmail(identity.email);
          if (!user) {
            user = { id: ids.next(), email: identity.email, passwordHash: NO_PASSWORD, firstName: (identity.givenName ?? '').slice(0, 100) || identity.email.split('@')[0]!.slice(0, 100),
              lastName: (identity.familyName ?? '').slice(0, 100), platformRole: null, createdAt: now };
            await tx.users.insert(user);
          }
          if (!(await tx.memberships.find(organizationId, user.id))) {
            await tx.memberships.insert({ id: ids.next(), organizationId, userId: user.id, role, createdAt: now });
            await new RecordOrgAuditEvent({ storage: tx, clock }).execute(
              { organizationId, userId: user.id, impersonatorId: null, apiKeyId: null, clientAddress: clientIp, requestId: null },
              { action: 'sso.member_provisioned', targetType: 'member', targetId: user.id, after: { email: user.email, role } });
          }
          return user;
        });
      } catch (error) {
        // Two callbacks of one new user at once: the loser's insert conflicts; the second pass finds the winner's rows.
        if (attempt === 0 && error instanceof AppError && error.code === 'CONFLICT') continue;
        throw error;
      }
    }
  }
}
