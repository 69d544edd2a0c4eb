import type { CheckProviderHealth } from '../../../core/use-cases/providers/check-provider-health.ts';
import type { GetProvider } from '../../../core/use-cases/providers/get-provider.ts';
import type { ListProviders } from '../../../core/use-cases/providers/list-providers.ts';
import { ok, type RouteDefinition } from '../route.ts';

export interface ProviderRouteDeps {
  listProviders: ListProviders;
  getProvider: GetProvider;
  checkProviderHealth: CheckProviderHealth;
}

/**
 * Providers are platform-level (no organization header). Any signed-in user may read them; running a
 * live health check calls the vendor, so it is limited to platform administrators (403 otherwise).
 */
export function providerRoutes(deps: ProviderRouteDeps): RouteDefinition[] {
  return [
    {
      method: 'GET', path: '/providers', tag: 'Providers', summary: 'Providers of every channel with routing rules and latest health',
      auth: 'user', responses: { 200: 'Providers', 401: 'UNAUTHORIZED' },
      handler: async () => ok(await deps.listProviders.execute()),
    },
    {
      method: 'GET', path: '/providers/:id', tag: 'Providers', summary: 'One provider with routes and health history',
      auth: 'user', responses: { 200: 'Provider', 401: 'UNAUTHORIZED', 404: 'NOT_FOUND' },
      handler: async ({ params }) => ok(await deps.getProvider.execute(params['id'] ?? '')),
    },
    {
      method: 'POST', path: '/providers/:id/health-check', tag: 'Providers', summary: 'Run a real health check now and record it',
      auth: 'platform-admin', responses: { 200: 'The recorded result', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' },
      handler: async ({ params }) => ok(await deps.checkProviderHealth.execute(params['id'] ?? '')),
    },
  ];
}
