import { organizationView } from '../../domain/organization.ts';
import { AppError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { SessionTokens } from '../../ports/session-tokens.ts';
import type { Storage } from '../../ports/storage.ts';
import type { AdminActor } from './admin-actor.ts';

/** Lifetime of an impersonation token: 30 minutes (docs/admin.md). */
export const IMPERSONATION_TTL_SECONDS = 30 * 60;

/**
 * POST /admin/tenants/{id}/impersonate: a short-lived session token that opens exactly one
 * organization (as TENANT_ADMIN, see IMPERSONATION_ROLE) and names the administrator behind it.
 * With it, admin routes answer 403 and so does any other organization; every write made with it is
 * audited (impersonation.request). Audited as tenant.impersonate. Errors: NOT_FOUND (unknown organization).
 */
export class ImpersonateTenant {
  readonly #deps: { storage: Storage; sessions: SessionTokens; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; sessions: SessionTokens; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(admin: AdminActor, organizationId: string) {
    const { storage, sessions, ids, clock } = this.#deps;
    const organization = await storage.organizations.findById(organizationId);
    if (!organization) throw new AppError('NOT_FOUND', 'Organization not found');
    const session = await sessions.issue({ userId: admin.userId, impersonatorId: admin.userId, organizationId }, IMPERSONATION_TTL_SECONDS);
    await storage.auditLog.record({
      id: ids.next(), actorUserId: admin.userId, impersonatorUserId: admin.userId, organizationId, action: 'tenant.impersonate',
      target: `organization:${organizationId}`, details: { expiresAt: session.expiresAt.toISOString() }, createdAt: clock.now(),
    });
    return {
      token: session.token, expiresAt: session.expiresAt.toISOString(), expiresInSeconds: IMPERSONATION_TTL_SECONDS,
      impersonatorId: admin.userId, organization: organizationView(organization),
    };
  }
}
