import { pesewasToGhs } from '../../domain/money.ts';
import type { NetworkRoute } from '../../domain/network-route.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { NetworkRouteRepository } from '../../ports/network-route-repository.ts';
import type { ProviderRepository } from '../../ports/provider-repository.ts';
import type { RouteStatsRepository } from '../../ports/route-stats-repository.ts';
import type { Storage } from '../../ports/storage.ts';

/** What the network routing administration use cases share (docs/routing.md). */
export interface RoutingAdminDeps {
  storage: Pick<Storage, 'auditLog'>;
  routes: NetworkRouteRepository;
  routeStats: RouteStatsRepository;
  providers: Pick<ProviderRepository, 'list'>;
  clock: Clock;
  ids: IdGenerator;
  /** After a change: this process applies it at once (router, pricing cache); others within seconds. */
  onChanged?: () => Promise<void> | void;
}

/** A network route as the administration API shows it (price in GHS per unit). */
export function networkRouteView(r: NetworkRoute) {
  return {
    id: r.id, channel: r.channel, country: r.country, network: r.network, providers: r.providers,
    pricePerUnit: r.pricePerUnit === null ? null : pesewasToGhs(r.pricePerUnit), unit: r.channel === 'SMS' ? 'segment' : 'message',
    pinned: r.pinned, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
  };
}
