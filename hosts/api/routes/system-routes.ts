import { AppError } from '../../../core/errors.ts';
import type { CheckHealth } from '../../../core/use-cases/system/check-health.ts';
import type { HttpMetrics } from '../metrics.ts';
import type { RouteDefinition } from '../route.ts';

export interface SystemRouteDeps {
  checkHealth: CheckHealth;
  metrics: HttpMetrics;
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  safeEqual: (a: string, b: string) => boolean;
}

export function systemRoutes(deps: SystemRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/health', tag: 'System', summary: 'Service and dependency health',
      auth: 'none', custom: true,
      responses: { 200: 'All configured dependencies healthy', 503: 'A configured dependency is degraded (same body)' },
      handler: async ({ koa }) => {
        const { healthy, body } = await deps.checkHealth.execute();
        koa.status = healthy ? 200 : 503;
        koa.set('Cache-Control', 'no-store');
        koa.body = body;
      },
    },
    {
      method: 'GET', path: '/metrics', tag: 'System', summary: 'Prometheus metrics (Bearer METRICS_TOKEN when configured)',
      auth: 'none', custom: true, responses: { 200: 'Prometheus text format', 401: 'UNAUTHORIZED' },
      handler: async ({ koa }) => {
        if (deps.metricsToken) {
          const given = /^Bearer\s+(\S+)$/i.exec(koa.get('authorization'))?.[1] ?? '';
          if (!deps.safeEqual(given, deps.metricsToken)) throw new AppError('UNAUTHORIZED', 'Metrics token required');
        }
        koa.type = deps.metrics.registry.contentType;
        koa.body = await deps.metrics.registry.metrics();
      },
    },
  ];
}
