import { Readable } from 'node:stream';
import { ExportOrgAuditLogInput, type ExportOrgAuditLog } from '../../../core/use-cases/audit/export-org-audit-log.ts';
import { ListOrgAuditLogInput, type ListOrgAuditLog } from '../../../core/use-cases/audit/list-org-audit-log.ts';
import { ORG_AUDIT_EXPORT_MAX_ROWS, ORG_AUDIT_PAGE_SIZE } from '../../../core/use-cases/audit/org-audit-query.ts';
import { ORG_AUDIT_VERIFY_MAX_ENTRIES, type VerifyOrgAuditLog } from '../../../core/use-cases/audit/verify-org-audit-log.ts';
import type { Logger } from '../../logger.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface AuditLogRouteDeps {
  listOrgAuditLog: ListOrgAuditLog;
  exportOrgAuditLog: ExportOrgAuditLog;
  verifyOrgAuditLog: VerifyOrgAuditLog;
}

const DENIED = {
  401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or not an owner or admin: audit-log:read)',
};

/** The organization's audit log (docs/audit-log.md): owners and admins read, export and verify it. */
export function auditLogRoutes(deps: AuditLogRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/audit-log', tag: 'Audit log', summary: 'The organization\'s audit log, newest first, filtered, cursor-paginated',
      auth: 'tenant', permission: 'audit-log:read', query: ListOrgAuditLogInput,
      responses: {
        200: `{ items, limit, nextCursor }: at most ${ORG_AUDIT_PAGE_SIZE.max} entries a page; nextCursor is null on the last page`,
        400: 'VALIDATION_ERROR (a bad filter or cursor, from not before to) or ORGANIZATION_REQUIRED', ...DENIED,
      },
      handler: async (input) => ok(await deps.listOrgAuditLog.execute(requireTenant(input).organizationId, input.query)),
    },
    {
      method: 'GET', path: '/audit-log/export', tag: 'Audit log',
      summary: `The newest ${ORG_AUDIT_EXPORT_MAX_ROWS} matching audit entries as streamed NDJSON (the export is itself audited)`,
      auth: 'tenant', permission: 'audit-log:read', query: ExportOrgAuditLogInput, custom: true,
      responses: {
        200: 'application/x-ndjson, one entry a line as in the list; X-Export-Truncated: true when more entries matched than the export holds',
        400: 'VALIDATION_ERROR or ORGANIZATION_REQUIRED', ...DENIED,
      },
      handler: async (input) => {
        const result = await deps.exportOrgAuditLog.execute(requireTenant(input).organizationId, input.query);
        const ctx = input.koa;
        const body = Readable.from(result.chunks, { objectMode: false });
        body.once('error', (error) => (ctx.state['log'] as Logger).error({ err: error }, 'audit log export failed while streaming'));
        ctx.status = 200;
        ctx.type = 'application/x-ndjson; charset=utf-8';
        ctx.set('Content-Disposition', `attachment; filename="${result.filename}"`);
        ctx.set('Cache-Control', 'no-store');
        ctx.set('X-Export-Row-Limit', String(ORG_AUDIT_EXPORT_MAX_ROWS));
        ctx.set('X-Export-Truncated', String(result.truncated));
        ctx.body = body;
      },
    },
    {
      method: 'GET', path: '/audit-log/verify', tag: 'Audit log', summary: 'Walk the organization\'s hash chain and report the first broken link',
      auth: 'tenant', permission: 'audit-log:read',
      responses: {
        200: `{ valid, checked, firstSeq, lastSeq, brokenAt: null | { seq, id, reason: hash_mismatch | prev_hash_mismatch | missing_entry }, complete, verifiedAt } (at most ${ORG_AUDIT_VERIFY_MAX_ENTRIES} entries a call)`,
        400: 'ORGANIZATION_REQUIRED', ...DENIED,
      },
      handler: async (input) => ok(await deps.verifyOrgAuditLog.execute(requireTenant(input).organizationId)),
    },
  ];
}
