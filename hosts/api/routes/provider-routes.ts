import type { CheckProviderHealth } from '../../../core/use-cases/providers/check-provider-health.ts';
import type { GetProvider } from '../../../core/use-cases/providers/get-provider.ts';
import type { ListProviders } from '../../../core/use-cases/providers/list-providers.ts';
import { ok, requireUser, type RouteDefinition } from '../route.ts';

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
      method: 'POST', path: '/providers/:id/health-check', tag: 'Providers',
      summary: 'Run a real health check now and record it (any signed-in user; a check of the last 30 s is shared instead of repeated)',
      auth: 'user', responses: { 200: 'The recorded result (`shared: true` when it is a recent one)', 401: 'UNAUTHORIZED', 404: 'NOT_FOUND', 429: 'RATE_LIMITED (10 a minute per user)' },
      handler: async (input) => {
        const user = requireUser(input);
        return ok(await deps.checkProviderHealth.executeOnDemand(input.params['id'] ?? '', { userId: user.userId, platformAdmin: user.platformRole === 'PLATFORM_SUPER_ADMIN' && !user.impersonatorId }));
      },
    },
  ];
}
