import type { Container } from 'inversify';
import { CachedRoutingSettings } from '../adapters/cache/cached-routing-settings.ts';
import { TermiiNumberLookup } from '../adapters/lookups/termii-number-lookup.ts';
import { TwilioNumberLookup } from '../adapters/lookups/twilio-number-lookup.ts';
import { SqlNetworkRouteRepository, SqlNumberNetworkRepository, SqlRouteStatsRepository, SqlRoutingSettingsRepository } from '../adapters/postgres/sql-routing-repositories.ts';
import { NetworkRouter } from '../adapters/routing/network-router.ts';
import type { NumberLookup } from '../core/ports/number-intelligence.ts';
import type { NetworkRouteRepository } from '../core/ports/network-route-repository.ts';
import type { NumberNetworkRepository } from '../core/ports/number-network-repository.ts';
import type { RouteStatsRepository } from '../core/ports/route-stats-repository.ts';
import type { RoutingSettingsRepository } from '../core/ports/routing-settings-repository.ts';
import type { NumberLookupDeps, SendLookups } from '../core/use-cases/routing/number-lookup-support.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';
import { RoutingSync } from './routing-sync.ts';
import { INFRA, token } from './tokens.ts';

export const ROUTING = {
  router: token<NetworkRouter>('routing.NetworkRouter'),
  routeStats: token<RouteStatsRepository>('routing.RouteStats'),
  networkRoutes: token<NetworkRouteRepository>('routing.NetworkRoutes'),
  numbers: token<NumberNetworkRepository>('routing.Numbers'),
  settings: token<RoutingSettingsRepository>('routing.Settings'),
  lookupDeps: token<NumberLookupDeps>('routing.LookupDeps'),
  /** Paid lookups on the send path; undefined when no lookup vendor is configured. */
  sendLookups: token<SendLookups | undefined>('routing.SendLookups'),
  sync: token<RoutingSync>('routing.Sync'),
} as const;

/** How often each process refreshes routes, states and corrections, and flushes its counts. */
export const ROUTING_SYNC_MS = 2_000;

/** The platform's number lookup vendor (NUMBER_LOOKUP_VENDOR), or null. */
export function numberLookupFromConfig(config: Config): NumberLookup | null {
  const { vendor, credentials, baseUrl } = config.numberLookup;
  const options = { ...(baseUrl ? { baseUrl } : {}), timeoutMs: Math.min(config.providerTimeoutMs, 5_000) };
  if (vendor === 'twilio') return new TwilioNumberLookup({ accountSid: credentials['accountSid'] ?? '', authToken: credentials['authToken'] ?? '' }, options);
  if (vendor === 'termii') return new TermiiNumberLookup({ apiKey: credentials['apiKey'] ?? '' }, options);
  return null;
}

/** Network-aware routing (docs/routing.md): the router, its repositories, lookups and the sync loop. */
export function bindRouting(container: Container, config: Config, logger: Logger): void {
  container.bind(ROUTING.routeStats).toResolvedValue((database) => new SqlRouteStatsRepository(database), [INFRA.database]).inSingletonScope();
  container.bind(ROUTING.networkRoutes).toResolvedValue((database) => new SqlNetworkRouteRepository(database), [INFRA.database]).inSingletonScope();
  container.bind(ROUTING.numbers).toResolvedValue((database) => new SqlNumberNetworkRepository(database), [INFRA.database]).inSingletonScope();
  container.bind(ROUTING.settings).toResolvedValue((database) => new CachedRoutingSettings(new SqlRoutingSettingsRepository(database)), [INFRA.database]).inSingletonScope();
  const ttlMs = config.numberLookup.ttlDays * 24 * 60 * 60_000;
  container.bind(ROUTING.router).toResolvedValue((numbers, clock) => new NetworkRouter({
    lookupTtlMs: ttlMs, now: () => clock.now().getTime(),
    // A lookup's answer expires after the TTL; a delivery report's stands until a newer answer.
    persist: (e164, known) => numbers.save({ e164, ...known, learnedAt: clock.now(), expiresAt: known.source === 'lookup' ? new Date(clock.now().getTime() + ttlMs) : null }),
  }), [ROUTING.numbers, INFRA.clock]).inSingletonScope();
  container.bind(ROUTING.lookupDeps).toResolvedValue((storage, clock, ids, numbers, router): NumberLookupDeps => ({
    storage, clock, ids, numbers, intelligence: router, lookup: numberLookupFromConfig(config), pricePerLookup: config.numberLookup.price, ttlMs,
  }), [INFRA.storage, INFRA.clock, INFRA.ids, ROUTING.numbers, ROUTING.router]).inSingletonScope();
  container.bind(ROUTING.sendLookups).toResolvedValue((deps, settings) => (deps.lookup ? { deps, settings } : undefined), [ROUTING.lookupDeps, ROUTING.settings]).inSingletonScope();
  container.bind(ROUTING.sync).toResolvedValue((router, routes, stats, numbers) => new RoutingSync({ router, routes, stats, numbers, logger }),
    [ROUTING.router, ROUTING.networkRoutes, ROUTING.routeStats, ROUTING.numbers]).inSingletonScope();
}
