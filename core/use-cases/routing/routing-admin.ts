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

/**
 * A pin set, moved or lifted moves the network's traffic like a learned shift: stored as a shift
 * ('pinned' to the new provider, or 'unpinned' from the old one), so it is shown with them and announced
 * to the organizations it affects (routing.route_shifted, docs/routing.md).
 */
export async function recordPinShift(deps: Pick<RoutingAdminDeps, 'routeStats'>, route: Pick<NetworkRoute, 'channel' | 'country' | 'network' | 'pinned'>, previous: string | null, at: Date): Promise<void> {
  const base = { country: route.country, network: route.network, channel: route.channel, slowShare: 0, deliveryRate: null, at };
  if (route.pinned) {
    await deps.routeStats.recordShift({ ...base, provider: route.pinned, direction: 'pinned', reason: `pinned by a platform administrator${previous ? ` (instead of ${previous})` : ''}` });
  } else if (previous) {
    await deps.routeStats.recordShift({ ...base, provider: previous, direction: 'unpinned', reason: 'pin lifted by a platform administrator' });
  }
}
