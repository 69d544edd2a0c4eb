import type { Registry } from 'prom-client';
import { AppError } from '../../../core/errors.ts';
import type { CheckHealth } from '../../../core/use-cases/system/check-health.ts';
import type { RouteDefinition } from '../route.ts';

export interface SystemRouteDeps {
  checkHealth: CheckHealth;
  /** What GET /metrics serves: the HTTP metrics merged with the provider telemetry of this process. */
  metrics: { registry: Pick<Registry, 'contentType' | 'metrics'> };
  /** When set, GET /metrics requires `Authorization: Bearer <token>`. */
  metricsToken: string | undefined;
  /** NODE_ENV=production: /metrics answers 404 without METRICS_TOKEN. */
  production: boolean;
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
      method: 'GET', path: '/metrics', tag: 'System', summary: 'Prometheus metrics (Bearer METRICS_TOKEN when configured; 404 in production without it)',
      auth: 'none', custom: true, responses: { 200: 'Prometheus text format', 401: 'UNAUTHORIZED', 404: 'NOT_FOUND (production without METRICS_TOKEN)' },
      handler: async ({ koa }) => {
        // In production metrics are closed unless METRICS_TOKEN is set: they name routes, tenants' volumes and vendors.
        if (!deps.metricsToken && deps.production) throw new AppError('NOT_FOUND', 'Metrics are disabled: set METRICS_TOKEN to expose them');
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
