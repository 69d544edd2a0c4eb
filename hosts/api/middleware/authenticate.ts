import type Koa from 'koa';
import { AppError } from '../../../core/errors.ts';
import type { AuthenticateApiKey } from '../../../core/use-cases/api-keys/authenticate-api-key.ts';
import type { AuthenticateSession } from '../../../core/use-cases/auth/authenticate-session.ts';
import type { RouteDefinition, TenantPrincipal, UserPrincipal } from '../route.ts';

export interface Authenticators {
  session: AuthenticateSession;
  apiKey: AuthenticateApiKey;
}

export interface Principals {
  user: UserPrincipal | null;
  tenant: TenantPrincipal | null;
}

/**
 * Applies a route's `auth` rule (see RouteAuth): the single place credentials, organization
 * membership, roles and API key scopes are checked.
 */
export async function authenticate(ctx: Koa.Context, route: RouteDefinition, auth: Authenticators): Promise<Principals> {
  if (route.auth === 'none') return { user: null, tenant: null };

  const apiKey = ctx.get('x-api-key');
  const bearer = bearerToken(ctx.get('authorization'));
  if (!bearer && apiKey) {
    if (route.auth !== 'tenant-or-api-key' || !route.apiKeyScope) {
      throw new AppError('UNAUTHORIZED', 'API keys are accepted only on message send, bulk send, message lookup, event list and event trigger; use a Bearer token');
    }
    const key = await auth.apiKey.execute(apiKey, route.apiKeyScope, ctx.ip || null);
    return { user: null, tenant: { organizationId: key.organizationId, userId: null, role: null, apiKey: { id: key.id, isSandbox: key.isSandbox, scopes: key.scopes } } };
  }
  if (!bearer) throw new AppError('UNAUTHORIZED', route.auth === 'tenant-or-api-key' ? 'Authentication required: X-API-Key or Bearer token' : 'Authentication required: Bearer token');

  const needsTenant = route.auth === 'tenant' || route.auth === 'tenant-or-api-key';
  if (needsTenant && !route.permission) throw new Error(`route ${route.method} ${route.path} needs a permission`);
  const session = await auth.session.execute({
    token: bearer, organizationId: ctx.get('x-organization-id'), permission: needsTenant ? route.permission : undefined,
  });
  const user: UserPrincipal = { userId: session.userId, platformRole: session.platformRole, impersonatorId: session.impersonatorId, session: { tokenId: session.tokenId, expiresAt: session.expiresAt } };
  if (session.impersonatedOrganizationId !== undefined) user.impersonatedOrganizationId = session.impersonatedOrganizationId;
  if (route.auth === 'platform-admin') {
    if (session.impersonatorId) throw new AppError('FORBIDDEN', 'Exit impersonation to use administrator operations');
    if (session.platformRole !== 'PLATFORM_SUPER_ADMIN') throw new AppError('FORBIDDEN', 'Platform administrator access required');
  }
  const tenant: TenantPrincipal | null = session.tenant
    ? { organizationId: session.tenant.organizationId, userId: session.userId, role: session.tenant.role, apiKey: null }
    : null;
  return { user, tenant };
}

function bearerToken(header: string): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
