import { AppError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { SessionTokens } from '../../ports/session-tokens.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * POST /admin/exit-impersonation: trades an impersonation token for a fresh administrator token
 * (the normal session lifetime) and revokes the impersonation token: it is refused from now on, in
 * every process. Audited as tenant.impersonate.exit.
 * Errors: NOT_IMPERSONATING (a normal session), FORBIDDEN (the administrator lost the platform role).
 */
export class ExitImpersonation {
  readonly #deps: { storage: Storage; sessions: SessionTokens; ids: IdGenerator; clock: Clock; sessionTtlSeconds: number };
  constructor(deps: { storage: Storage; sessions: SessionTokens; ids: IdGenerator; clock: Clock; sessionTtlSeconds: number }) { this.#deps = deps; }

  async execute(session: { impersonatorId: string | null; impersonatedOrganizationId?: string | null | undefined; session?: { tokenId: string; expiresAt: Date } }) {
    if (!session.impersonatorId) throw new AppError('NOT_IMPERSONATING', 'This session is not an impersonation session');
    const { storage, sessions, ids, clock, sessionTtlSeconds } = this.#deps;
    const admin = await storage.users.findById(session.impersonatorId);
    if (!admin || admin.platformRole !== 'PLATFORM_SUPER_ADMIN') throw new AppError('FORBIDDEN', 'Platform administrator access required');
    const issued = await sessions.issue({ userId: admin.id }, sessionTtlSeconds);
    if (session.session?.tokenId) await storage.sessionRevocations.revokeToken(session.session.tokenId, session.session.expiresAt);
    await storage.auditLog.record({
      id: ids.next(), actorUserId: admin.id, impersonatorUserId: admin.id, organizationId: session.impersonatedOrganizationId ?? null,
      action: 'tenant.impersonate.exit', target: session.impersonatedOrganizationId ? `organization:${session.impersonatedOrganizationId}` : null,
      details: {}, createdAt: clock.now(),
    });
    return { token: issued.token, expiresAt: issued.expiresAt.toISOString(), userId: admin.id };
  }
}
