import type Koa from 'koa';
import type * as v from 'valibot';
import type { ApiKeyScope } from '../../core/domain/api-key.ts';
import type { MemberRole, Permission, PlatformRole } from '../../core/domain/roles.ts';

/**
 * Who may call a route:
 * - `none`: anyone (register, login, health ...);
 * - `user`: a valid session token, no organization (e.g. /auth/me);
 * - `platform-admin`: a session of a PLATFORM_SUPER_ADMIN;
 * - `tenant`: a session plus X-Organization-Id of an organization the user belongs to, with `permission`;
 * - `tenant-or-api-key`: as `tenant`, or an X-API-Key of the organization carrying `apiKeyScope`.
 */
export type RouteAuth = 'none' | 'user' | 'platform-admin' | 'tenant' | 'tenant-or-api-key';

export interface UserPrincipal {
  userId: string;
  platformRole: PlatformRole | null;
  impersonatorId: string | null;
  /** On an impersonation session: the one organization it opens. */
  impersonatedOrganizationId?: string | null;
  /** The session token's id and expiry (log out and impersonation exit revoke it). */
  session: { tokenId: string; expiresAt: Date };
}

export interface TenantPrincipal {
  organizationId: string;
  /** Null when the caller is an API key. */
  userId: string | null;
  role: MemberRole | null;
  apiKey: { id: string; isSandbox: boolean; scopes: readonly ApiKeyScope[] } | null;
}

export interface RequestInput {
  body: unknown;
  query: Record<string, string | undefined>;
  params: Record<string, string>;
  user: UserPrincipal | null;
  tenant: TenantPrincipal | null;
  ip: string;
  requestId: string;
  headers: Koa.Context['headers'];
  /** For the rare route that must write its own response (CSV streams, redirects, HTML). */
  koa: Koa.Context;
}

export interface RouteResult {
  status?: number;
  data: unknown;
}

export interface RouteDefinition {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Koa path syntax: `/messages/:id`. */
  path: string;
  tag: string;
  summary: string;
  auth: RouteAuth;
  permission?: Permission;
  apiKeyScope?: ApiKeyScope;
  /** Schemas for the OpenAPI document; the use case validates with the same ones. */
  body?: v.GenericSchema;
  query?: v.GenericSchema;
  /** Status and description of each documented response. */
  responses: Record<number, string>;
  /** The handler's `body` is the exact request bytes (a Buffer) instead of parsed JSON: signature checks need them. */
  rawBody?: boolean;
  /**
   * multipart/form-data upload: files are streamed to temporary files (at most `maxBytes` each, else 413
   * PAYLOAD_TOO_LARGE) and the handler's `body` is `{ files: { [field]: UploadedFileRef }, fields }`; the
   * temporary files are deleted when the handler returns.
   */
  multipart?: { maxBytes: number };
  /** The route writes ctx.body itself (RouteResult ignored). */
  custom?: boolean;
  handler: (input: RequestInput) => Promise<RouteResult | void>;
}

/** A file of a multipart request, as the handler sees it (hosts/api/middleware/multipart.ts). */
export interface UploadedFileRef {
  path: string;
  name: string | null;
  size: number;
}

export function ok(data: unknown, status = 200): RouteResult {
  return { status, data };
}

export function requireTenant(input: RequestInput): TenantPrincipal {
  if (!input.tenant) throw new Error('route declared tenant auth but no tenant principal was set');
  return input.tenant;
}

/** The member session behind a `tenant` route that API keys may not use (the auth rule refuses keys there). */
export function requireMember(input: RequestInput): { organizationId: string; userId: string } {
  const tenant = requireTenant(input);
  if (!tenant.userId) throw new Error('this route needs a member session, not an API key');
  return { organizationId: tenant.organizationId, userId: tenant.userId };
}

export function requireUser(input: RequestInput): UserPrincipal {
  if (!input.user) throw new Error('route declared user auth but no user principal was set');
  return input.user;
}
