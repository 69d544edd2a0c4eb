import type { Container } from 'inversify';
import { SqlNetworkAnalyticsRepository } from '../../../adapters/postgres/sql-routing-repositories.ts';
import { DeleteNetworkRoute } from '../../../core/use-cases/routing/delete-network-route.ts';
import { GetNetworkAnalytics } from '../../../core/use-cases/routing/get-network-analytics.ts';
import { GetRoutingOverview } from '../../../core/use-cases/routing/get-routing-overview.ts';
import { LookUpNumber } from '../../../core/use-cases/routing/look-up-number.ts';
import type { RoutingAdminDeps } from '../../../core/use-cases/routing/routing-admin.ts';
import { SaveNetworkRoute } from '../../../core/use-cases/routing/save-network-route.ts';
import { UpdateRoutingSettings } from '../../../core/use-cases/routing/update-routing-settings.ts';
import type { Config } from '../../config.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { ROUTING } from '../../routing-bindings.ts';
import { INFRA } from '../../tokens.ts';
import { routingRoutes } from '../routes/routing-routes.ts';
import { API } from '../tokens.ts';

/** Network-aware routing (docs/routing.md): administration, organizations' lookup settings and lookups, per-network analytics. */
export function bindRoutingModule(container: Container, config: Config): void {
  container.bind(API.routes).toResolvedValue((storage, clock, ids, database, routes, routeStats, providers, sync, pricing, settings, lookupDeps) => {
    const deps: RoutingAdminDeps = {
      storage, clock, ids, routes, routeStats, providers,
      // This process at once (router, cached prices); the others within ROUTING_SYNC_MS (routes) and the pricing cache's TTL (prices).
      onChanged: async () => { await sync.refresh(); (pricing as { invalidate?: () => void }).invalidate?.(); },
    };
    return routingRoutes({
      saveNetworkRoute: new SaveNetworkRoute(deps), deleteNetworkRoute: new DeleteNetworkRoute(deps), overview: new GetRoutingOverview(deps),
      settings: new UpdateRoutingSettings({ settings, clock, lookupAvailable: lookupDeps.lookup !== null, lookupPrice: config.numberLookup.price }),
      lookUpNumber: new LookUpNumber(lookupDeps),
      networkAnalytics: new GetNetworkAnalytics({ analytics: new SqlNetworkAnalyticsRepository(database), clock }),
    });
  }, [INFRA.storage, INFRA.clock, INFRA.ids, INFRA.database, ROUTING.networkRoutes, ROUTING.routeStats, MESSAGING.providerRepository, ROUTING.sync, MESSAGING.pricing,
    ROUTING.settings, ROUTING.lookupDeps]).inSingletonScope();
}
