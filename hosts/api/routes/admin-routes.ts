import { ReplaceSendWindowsInput, type ReplaceSendWindows } from '../../../core/use-cases/admin/replace-send-windows.ts';
import type { ListSendWindows } from '../../../core/use-cases/admin/list-send-windows.ts';
import { DecideApprovalInput, type DecideApproval } from '../../../core/use-cases/admin/decide-approval.ts';
import type { ExitImpersonation } from '../../../core/use-cases/admin/exit-impersonation.ts';
import type { GetPlatformRevenue } from '../../../core/use-cases/admin/get-platform-revenue.ts';
import { IMPERSONATION_TTL_SECONDS, type ImpersonateTenant } from '../../../core/use-cases/admin/impersonate-tenant.ts';
import { ListAuditLogInput, type ListAuditLog } from '../../../core/use-cases/admin/list-audit-log.ts';
import { MAX_PENDING_LISTED, type ListPendingApprovals } from '../../../core/use-cases/admin/list-pending-approvals.ts';
import { ListTenantsInput, type ListTenants } from '../../../core/use-cases/admin/list-tenants.ts';
import { PauseTenantInput, type SetTenantPaused } from '../../../core/use-cases/admin/set-tenant-paused.ts';
import { approvalOutcomeView } from '../../../core/domain/approval.ts';
import { ok, requireUser, type RequestInput, type RouteDefinition } from '../route.ts';

export interface AdminRouteDeps {
  getPlatformRevenue: GetPlatformRevenue;
  listTenants: ListTenants;
  setTenantPaused: SetTenantPaused;
  impersonateTenant: ImpersonateTenant;
  exitImpersonation: ExitImpersonation;
  listPendingApprovals: ListPendingApprovals;
  decideApproval: DecideApproval;
  listAuditLog: ListAuditLog;
  listSendWindows: ListSendWindows;
  replaceSendWindows: ReplaceSendWindows;
}

const DENIED = {
  401: 'UNAUTHORIZED (no or bad Bearer token; API keys are not accepted)',
  403: 'FORBIDDEN (not a PLATFORM_SUPER_ADMIN, or an impersonation session)',
};

const admin = (input: RequestInput) => ({ userId: requireUser(input).userId });
const id = (input: RequestInput) => input.params['id'] ?? '';

export function adminRoutes(deps: AdminRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/admin/send-windows', tag: 'Admin', summary: 'Send windows per country and category (recipient local time; docs/consent.md)',
      auth: 'platform-admin', responses: { 200: '{ windows: [{ country, category, days (0 Sunday ... 6 Saturday), opensAt, closesAt }] }', ...DENIED },
      handler: async () => ok(await deps.listSendWindows.execute()),
    },
    {
      method: 'PUT', path: '/admin/send-windows', tag: 'Admin', summary: 'Replace every send window (audited; every process applies it within 10 s)',
      auth: 'platform-admin', body: ReplaceSendWindowsInput,
      responses: { 200: '{ windows }', 400: 'VALIDATION_ERROR (country, category, days 0-6, HH:MM, opensAt before closesAt, a country/category once, at most 500)', ...DENIED },
      handler: async (input) => ok(await deps.replaceSendWindows.execute(admin(input), input.body)),
    },
    {
      method: 'GET', path: '/admin/revenue', tag: 'Admin', summary: 'Total revenue (top-ups), usage revenue, message count and wallet balances',
      auth: 'platform-admin', responses: { 200: '{currency, totalRevenue, revenue {topUps, usage, debits, refunds}, usageRevenue, messageCount, walletBalances {total, wallets}}', ...DENIED },
      handler: async () => ok(await deps.getPlatformRevenue.execute()),
    },
    {
      method: 'GET', path: '/admin/tenants', tag: 'Admin', summary: 'Tenants with wallet balance and member count, newest first, paged and searchable',
      auth: 'platform-admin', query: ListTenantsInput,
      responses: { 200: '{items [{id, name, paused, wallet, memberCount ...}], page, limit, total, totalPages}', 400: 'VALIDATION_ERROR', ...DENIED },
      handler: async (input) => ok(await deps.listTenants.execute(input.query)),
    },
    {
      method: 'POST', path: '/admin/tenants/:id/pause', tag: 'Admin', summary: 'Pause a tenant: every send is REJECTED with FRAUD_TENANT_PAUSED (audited)',
      auth: 'platform-admin', body: PauseTenantInput,
      responses: { 200: 'The organization (paused: true)', 400: 'VALIDATION_ERROR', ...DENIED, 404: 'NOT_FOUND (unknown organization)' },
      handler: async (input) => ok(await deps.setTenantPaused.execute(admin(input), id(input), true, input.body)),
    },
    {
      method: 'POST', path: '/admin/tenants/:id/resume', tag: 'Admin', summary: 'Resume a paused tenant (audited)',
      auth: 'platform-admin', body: PauseTenantInput,
      responses: { 200: 'The organization (paused: false)', 400: 'VALIDATION_ERROR', ...DENIED, 404: 'NOT_FOUND (unknown organization)' },
      handler: async (input) => ok(await deps.setTenantPaused.execute(admin(input), id(input), false, input.body)),
    },
    {
      method: 'POST', path: '/admin/tenants/:id/impersonate', tag: 'Admin', summary: 'A short-lived token scoped to one organization (audited)',
      auth: 'platform-admin',
      responses: {
        200: `{token, expiresAt, expiresInSeconds (${IMPERSONATION_TTL_SECONDS}), impersonatorId, organization}: use the token with X-Organization-Id of that organization`,
        ...DENIED, 404: 'NOT_FOUND (unknown organization)',
      },
      handler: async (input) => ok(await deps.impersonateTenant.execute(admin(input), id(input))),
    },
    {
      method: 'POST', path: '/admin/exit-impersonation', tag: 'Admin', summary: 'Trade an impersonation token for a fresh administrator token',
      auth: 'user',
      responses: { 200: '{token, expiresAt, userId}', 400: 'NOT_IMPERSONATING (the session is not an impersonation session)', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN (no longer an administrator)' },
      handler: async (input) => ok(await deps.exitImpersonation.execute(requireUser(input))),
    },
    {
      method: 'GET', path: '/admin/approvals', tag: 'Admin', summary: 'Pending campaign and template approvals with their content and compliance result',
      auth: 'platform-admin', responses: { 200: `Pending requests, oldest first, at most ${MAX_PENDING_LISTED}`, ...DENIED },
      handler: async () => ok(await deps.listPendingApprovals.execute()),
    },
    {
      method: 'POST', path: '/admin/approvals/:id/approve', tag: 'Admin', summary: 'Approve a request (a template becomes APPROVED; audited)',
      auth: 'platform-admin', body: DecideApprovalInput,
      responses: { 200: 'The decided request', 400: 'VALIDATION_ERROR', ...DENIED, 404: 'NOT_FOUND (unknown approval)', 409: 'CONFLICT (already decided)' },
      handler: async (input) => ok(view(await deps.decideApproval.execute(admin(input), id(input), 'APPROVED', input.body))),
    },
    {
      method: 'POST', path: '/admin/approvals/:id/reject', tag: 'Admin', summary: 'Reject a request with an optional comment the tenant sees (audited)',
      auth: 'platform-admin', body: DecideApprovalInput,
      responses: { 200: 'The decided request', 400: 'VALIDATION_ERROR', ...DENIED, 404: 'NOT_FOUND (unknown approval)', 409: 'CONFLICT (already decided)' },
      handler: async (input) => ok(view(await deps.decideApproval.execute(admin(input), id(input), 'REJECTED', input.body))),
    },
    {
      method: 'GET', path: '/admin/audit-log', tag: 'Admin', summary: 'Administrative actions, newest first (approvals, pauses, impersonation ...)',
      auth: 'platform-admin', query: ListAuditLogInput,
      responses: { 200: '{items, limit, nextCursor}', 400: 'VALIDATION_ERROR', ...DENIED },
      handler: async (input) => ok(await deps.listAuditLog.execute(input.query)),
    },
  ];
}

function view(a: Parameters<typeof approvalOutcomeView>[0]) {
  return { ...approvalOutcomeView(a), organizationId: a.organizationId, decidedByUserId: a.decidedByUserId };
}
