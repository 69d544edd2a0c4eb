import { normalizeIpAddress } from '../../../core/domain/ip-address.ts';
import type { OrgAuditAction } from '../../../core/domain/org-audit.ts';
import type { OrgAuditContext, RecordOrgAuditEvent } from '../../../core/use-cases/audit/record-org-audit-event.ts';
import type { Logger } from '../../logger.ts';
import type { RequestInput, RouteDefinition, RouteResult } from '../route.ts';

/** How one route is recorded in the organization's audit log (hosts/api/audit/org-audit-routes.ts lists them). */
export interface RouteAudit {
  action: OrgAuditAction;
  targetType: string;
  /** The target id: a path parameter (default `id` when the path has one), a field of the response data, or none. */
  targetId?: { param: string } | { result: string } | null;
  /**
   * The target before the change, read through a GET route of the same app with the same path
   * parameters (`'GET /templates/:id'`); with `pickById`, a list route whose item with the path's
   * `id` is the target (`'GET /api-keys'`).
   */
  before?: { route: string; pickById?: boolean };
  /** The target after the change: the response data (default), nothing (deletes), or a picked part of it. */
  after?: 'result' | 'none' | ((data: Record<string, unknown>, input: RequestInput) => unknown);
  /** Secrets of this target beyond the common field names. */
  secretFields?: readonly string[];
  /** Recorded only for member sessions: API-key sends are the integration's traffic, not audit events. */
  membersOnly?: boolean;
  /** The organization when the route has no tenant principal (impersonation start and end). */
  organization?: (input: RequestInput) => string | null;
  /** The caller is a platform administrator acting on the organization from outside it (impersonation start). */
  staff?: boolean;
}

/** Who asked, from where: from the authenticated principals, never from the body. */
export function auditContext(input: RequestInput, organizationId: string, staff = false): OrgAuditContext {
  const tenant = input.tenant;
  return {
    organizationId,
    userId: tenant?.userId ?? input.user?.userId ?? null,
    impersonatorId: input.user?.impersonatorId ?? (staff ? input.user?.userId ?? null : null),
    apiKeyId: tenant?.apiKey?.id ?? null,
    clientAddress: normalizeIpAddress(input.ip) ?? (input.ip || null),
    requestId: input.requestId,
  };
}

const asRecord = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {});

/**
 * Wraps every route listed in `audits` so that a successful call is recorded in the organization's
 * audit log (docs/audit-log.md): the actor and client address, the action, the target and the
 * changed fields (before read through the route's GET counterpart, after from the answer), secrets
 * redacted. A failed call changed nothing and is not recorded. A failure to record is logged with the
 * request id and the answer stands (the change has happened; docs/audit-log.md, "Guarantees").
 */
export function withOrgAudit(routes: readonly RouteDefinition[], audits: Readonly<Record<string, RouteAudit>>,
  recorder: Pick<RecordOrgAuditEvent, 'execute'>, logger: Logger): RouteDefinition[] {
  const byKey = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
  return routes.map((route) => {
    const audit = audits[`${route.method} ${route.path}`];
    if (!audit) return route;
    const paramName = audit.targetId === undefined && route.path.includes('/:id') ? 'id' : null;
    return {
      ...route,
      handler: async (input: RequestInput) => {
        const organizationId = audit.organization ? audit.organization(input) : input.tenant?.organizationId ?? null;
        if (!organizationId || (audit.membersOnly && input.tenant?.apiKey)) return route.handler(input);
        const before = audit.before ? await readBefore(byKey.get(audit.before.route), audit.before.pickById ?? false, input) : null;
        const result: RouteResult | void = await route.handler(input);
        const data = asRecord(result?.data);
        const after = audit.after === 'none' ? null : typeof audit.after === 'function' ? audit.after(data, input) : result ? data : null;
        const targetId = audit.targetId === null ? null
          : audit.targetId && 'param' in audit.targetId ? input.params[audit.targetId.param] ?? null
            : audit.targetId && 'result' in audit.targetId ? String(data[audit.targetId.result] ?? '') || null
              : paramName ? input.params[paramName] ?? null : (typeof data['id'] === 'string' ? data['id'] : null);
        await recorder.execute(auditContext(input, organizationId, audit.staff ?? false), {
          action: audit.action, targetType: audit.targetType, targetId, before, after, ...(audit.secretFields ? { secretFields: audit.secretFields } : {}),
        }).catch((error: unknown) => logger.error({ err: error, requestId: input.requestId, action: audit.action }, 'organization audit entry not recorded'));
        return result;
      },
    };
  });
}

/** The target's view before the change, or null when it cannot be read (the handler then answers the error itself). */
async function readBefore(getRoute: RouteDefinition | undefined, pickById: boolean, input: RequestInput): Promise<unknown> {
  if (!getRoute) throw new Error('audit before-route is not a route of this app');
  try {
    const result = await getRoute.handler({ ...input, body: undefined, query: {} });
    const data = result ? result.data : null;
    if (!pickById) return data;
    const items = Array.isArray(data) ? data : asRecord(data)['items'];
    return Array.isArray(items) ? items.find((item) => asRecord(item)['id'] === input.params['id']) ?? null : null;
  } catch {
    return null;
  }
}
