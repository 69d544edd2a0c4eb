import { NUMBERING_PLANS } from '../../domain/network-prefixes.ts';
import { latencyPercentile, LATENCY_BINS_MS, windowStats, DEFAULT_ROUTE_POLICY, type RouteBucket } from '../../domain/route-learning.ts';
import type { AdminActor } from '../admin/admin-actor.ts';
import { networkRouteView, type RoutingAdminDeps } from './routing-admin.ts';

/** Shifts shown; buckets read (the last hour of every provider and network). */
const SHIFTS_SHOWN = 100;
const BUCKETS_READ = 20_000;
const HOUR_MS = 60 * 60_000;

/**
 * GET /admin/routing: the network routes, what learning currently holds (degraded providers per
 * network, since when and why), the last shifts, and per (provider, network) the last hour's figures
 * from the route buckets: sends, reports, delivery rate, slow share, latency p50/p95 (docs/routing.md).
 * Plus the numbering plans' networks (for the forms) with their sources and dates.
 */
export class GetRoutingOverview {
  readonly #deps: RoutingAdminDeps;
  constructor(deps: RoutingAdminDeps) { this.#deps = deps; }

  async execute(_admin: AdminActor) {
    const now = this.#deps.clock.now();
    const [routes, states, shifts, buckets] = await Promise.all([
      this.#deps.routes.list(), this.#deps.routeStats.listStates(), this.#deps.routeStats.listShifts(SHIFTS_SHOWN),
      this.#deps.routeStats.listBuckets(new Date(now.getTime() - HOUR_MS), BUCKETS_READ),
    ]);
    const groups = new Map<string, RouteBucket[]>();
    for (const b of buckets) groups.set(`${b.provider}|${b.country}|${b.network}`, [...(groups.get(`${b.provider}|${b.country}|${b.network}`) ?? []), b]);
    const performance = [...groups.values()].map((list) => {
      const first = list[0]!;
      const stats = windowStats(list, now, HOUR_MS, DEFAULT_ROUTE_POLICY);
      const histogram = LATENCY_BINS_MS.map((_, i) => list.reduce((n, b) => n + (b.latency[i] ?? 0), 0));
      return {
        provider: first.provider, country: first.country, network: first.network, sent: list.reduce((n, b) => n + b.sent, 0), reported: stats.reported,
        deliveryRate: stats.deliveryRate, slowShare: stats.settled > 0 ? stats.slowShare : null,
        latencyP50Ms: latencyPercentile(histogram, 0.5), latencyP95Ms: latencyPercentile(histogram, 0.95),
      };
    }).sort((a, b) => `${a.country}${a.network}${a.provider}`.localeCompare(`${b.country}${b.network}${b.provider}`));
    return {
      routes: routes.map(networkRouteView),
      learning: states.map((s) => ({ ...s, since: s.since.toISOString() })),
      shifts: shifts.map((s) => ({ ...s, at: s.at.toISOString() })),
      performance,
      policy: { slowAfterMs: DEFAULT_ROUTE_POLICY.slowAfterMs, degradeSlowShare: DEFAULT_ROUTE_POLICY.degradeSlowShare, recoverSlowShare: DEFAULT_ROUTE_POLICY.recoverSlowShare,
        deliveryRateMargin: DEFAULT_ROUTE_POLICY.deliveryRateMargin, minShiftMs: DEFAULT_ROUTE_POLICY.minShiftMs, probeShare: DEFAULT_ROUTE_POLICY.probeShare },
      networks: NUMBERING_PLANS.map((p) => ({ country: p.country, asOf: p.asOf, source: p.source, networks: p.networks.map((n) => ({ network: n.network, name: n.name })) })),
    };
  }
}
