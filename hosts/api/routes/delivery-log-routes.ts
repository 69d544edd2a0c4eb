import { Readable } from 'node:stream';
import { ExportDeliveryLogsInput, DELIVERY_LOG_EXPORT_MAX_ROWS, type ExportDeliveryLogs } from '../../../core/use-cases/delivery-logs/export-delivery-logs.ts';
import { ListDeliveryLogsInput, type ListDeliveryLogs } from '../../../core/use-cases/delivery-logs/list-delivery-logs.ts';
import type { Logger } from '../../logger.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface DeliveryLogRouteDeps {
  listDeliveryLogs: ListDeliveryLogs;
  exportDeliveryLogs: ExportDeliveryLogs;
}

const DENIED = {
  400: 'VALIDATION_ERROR (fieldErrors name the bad query parameter) or ORGANIZATION_REQUIRED',
  401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks delivery-logs:read)',
};

export function deliveryLogRoutes(deps: DeliveryLogRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/delivery-logs', tag: 'Delivery logs', summary: 'The organization\'s delivery logs, newest first, paginated',
      auth: 'tenant', permission: 'delivery-logs:read', query: ListDeliveryLogsInput,
      responses: {
        200: '`{ items, page, limit, total, totalIsExact, totalPages }`: pages reach the newest 10,000 matching logs; '
          + 'above 10,000 matches `total` is 10000 and `totalIsExact` false (docs/delivery-logs.md)',
        ...DENIED,
      },
      handler: async (input) => ok(await deps.listDeliveryLogs.execute(requireTenant(input).organizationId, input.query)),
    },
    {
      method: 'GET', path: '/delivery-logs/export', tag: 'Delivery logs',
      summary: `The newest ${DELIVERY_LOG_EXPORT_MAX_ROWS} matching delivery logs as a streamed CSV attachment`,
      auth: 'tenant', permission: 'delivery-logs:read', query: ExportDeliveryLogsInput, custom: true,
      responses: {
        200: 'text/csv; charset=utf-8, header row first, RFC 4180 quoting, formula-like cells prefixed with \'. '
          + 'X-Export-Truncated: true when more logs matched than the export holds',
        ...DENIED,
      },
      handler: async (input) => {
        const result = await deps.exportDeliveryLogs.execute(requireTenant(input).organizationId, input.query);
        const ctx = input.koa;
        const body = Readable.from(result.chunks, { objectMode: false });
        // Headers are already sent when a later chunk fails: the connection is cut (no clean end), and the cause logged here.
        body.once('error', (error) => (ctx.state['log'] as Logger).error({ err: error }, 'delivery log export failed while streaming'));
        ctx.status = 200;
        ctx.type = 'text/csv; charset=utf-8';
        ctx.set('Content-Disposition', `attachment; filename="${result.filename}"`);
        ctx.set('Cache-Control', 'no-store');
        ctx.set('X-Export-Row-Limit', String(DELIVERY_LOG_EXPORT_MAX_ROWS));
        ctx.set('X-Export-Truncated', String(result.truncated));
        ctx.body = body;
      },
    },
  ];
}
