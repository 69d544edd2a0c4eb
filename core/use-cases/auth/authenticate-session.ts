import { AppError } from '../../errors.ts';
import { roleAllows, type MemberRole, type Permission, type PlatformRole } from '../../domain/roles.ts';
import type { SessionTokens } from '../../ports/session-tokens.ts';
import type { Storage } from '../../ports/storage.ts';

export interface SessionRequest {
  token: string;
  /** The X-Organization-Id header; required when `permission` is given. */
  organizationId?: string | undefined;
  /** Needed for organization-scoped routes; omitted for user-level routes such as /auth/me. */
  permission?: Permission | undefined;
}

export interface AuthenticatedSession {
  userId: string;
  platformRole: PlatformRole | null;
  impersonatorId: string | null;
  /** On an impersonation session: the one organization it opens. */
  impersonatedOrganizationId?: string | null;
  tenant: { organizationId: string; role: MemberRole } | null;
  /** The token's id and expiry: what log out and impersonation exit revoke. */
  tokenId: string;
  expiresAt: Date;
}

/** Role an administrator acts with inside the organization they impersonate. */
export const IMPERSONATION_ROLE: MemberRole = 'TENANT_ADMIN';

/**
 * Checks a dashboard session: the token, that it was not revoked (log out, impersonation exit, a password
 * reset since it was issued), the user behind it, and for organization-scoped requests the membership and
 * the role's permission. Errors: UNAUTHORIZED (bad, expired or revoked token, deleted user),
 * ORGANIZATION_REQUIRED (no organization header), FORBIDDEN (not a member, role lacks the permission,
 * or an impersonation token used outside its organization).
 */
export class AuthenticateSession {
  readonly #deps: { storage: Storage; sessions: SessionTokens };
  constructor(deps: { storage: Storage; sessions: SessionTokens }) { this.#deps = deps; }

  async execute(request: SessionRequest): Promise<AuthenticatedSession> {
    const claims = await this.#deps.sessions.verify(request.token);
    const [user, revoked] = await Promise.all([
      this.#deps.storage.users.findById(claims.userId),
      this.#deps.storage.sessionRevocations.isRevoked({ tokenId: claims.tokenId, userId: claims.userId, issuedAt: claims.issuedAt }),
    ]);
    if (!user) throw new AppError('UNAUTHORIZED', 'Session user no longer exists');
    if (revoked) throw new AppError('UNAUTHORIZED', 'This session has ended; sign in again');
    // An impersonation session ends with the administrator's platform role.
    if (claims.impersonatorId && user.platformRole !== 'PLATFORM_SUPER_ADMIN') throw new AppError('UNAUTHORIZED', 'Impersonation session is no longer valid');
    const session: AuthenticatedSession = {
      userId: user.id, platformRole: user.platformRole, impersonatorId: claims.impersonatorId ?? null, tenant: null,
      tokenId: claims.tokenId, expiresAt: claims.expiresAt,
    };
    if (claims.impersonatorId) session.impersonatedOrganizationId = claims.organizationId ?? null;
    if (!request.permission) return session;

    const organizationId = request.organizationId?.trim();
    if (!organizationId) throw new AppError('ORGANIZATION_REQUIRED', 'X-Organization-Id header is required with a Bearer token');
    if (claims.organizationId) {
      if (claims.organizationId !== organizationId) throw new AppError('FORBIDDEN', 'This impersonation session is limited to another organization');
      session.tenant = { organizationId, role: IMPERSONATION_ROLE };
    } else {
      const membership = await this.#deps.storage.memberships.find(organizationId, user.id);
      if (!membership) throw new AppError('FORBIDDEN', 'You are not a member of this organization');
      session.tenant = { organizationId, role: membership.role };
    }
    if (!roleAllows(session.tenant.role, request.permission)) {
      throw new AppError('FORBIDDEN', `Your role (${session.tenant.role}) does not allow ${request.permission}`);
    }
    return session;
  }
}
