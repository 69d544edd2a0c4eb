import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import { betterRoute } from '../../domain/network-route.ts';
import type { Clock } from '../../ports/clock.ts';
import type { NetworkAnalyticsRepository, NetworkFigures } from '../../ports/network-analytics-repository.ts';

export const GetNetworkAnalyticsInput = v.object({
  days: v.optional(v.pipe(v.string('must be a whole number'), v.regex(/^\d{1,2}$/, 'must be a whole number'), v.transform(Number), v.number(),
    v.minValue(1, 'must be at least 1'), v.maxValue(90, 'must be at most 90'), v.description('Days back from now (default 30, at most 90)')), '30'),
});


/**
 * GET /analytics/networks: the organization's live messages of the last `days` per mobile network and
 * per provider within it: messages, delivery rate, latency p50/p95 (sent to delivered) and cost; and
 * recommendations naming a better route where a provider delivered a network clearly better (at least
 * MIN_ROUTE_SAMPLE messages, RECOMMEND_MARGIN points) than the one that carried most of it (docs/routing.md).
 */
export class GetNetworkAnalytics {
  readonly #deps: { analytics: NetworkAnalyticsRepository; clock: Clock };
  constructor(deps: { analytics: NetworkAnalyticsRepository; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown) {
    const { days } = parseInput(GetNetworkAnalyticsInput, raw ?? {});
    const to = this.#deps.clock.now();
    const from = new Date(to.getTime() - days * 24 * 60 * 60_000);
    const rows = await this.#deps.analytics.byNetwork(scope.organizationId, from, to);
    const byNetwork = new Map<string, NetworkFigures[]>();
    for (const r of rows) byNetwork.set(`${r.country}|${r.network}`, [...(byNetwork.get(`${r.country}|${r.network}`) ?? []), r]);
    const networks = [...byNetwork.values()].map((list) => {
      const total = sum(list);
      return { country: list[0]!.country, network: list[0]!.network, ...figures(total), providers: list.map((r) => ({ provider: r.provider, ...figures(r) })) };
    });
    return { from: from.toISOString(), to: to.toISOString(), networks, recommendations: networks.flatMap((n) => recommend(n.country, n.network, byNetwork.get(`${n.country}|${n.network}`)!)) };
  }
}

function rate(r: Pick<NetworkFigures, 'delivered' | 'failed'>): number | null {
  return r.delivered + r.failed === 0 ? null : r.delivered / (r.delivered + r.failed);
}

function figures(r: NetworkFigures) {
  return { messages: r.messages, delivered: r.delivered, failed: r.failed, deliveryRate: rate(r), latencyP50Ms: r.latencyP50Ms, latencyP95Ms: r.latencyP95Ms,
    cost: pesewasToGhs(r.cost), costPerMessage: r.messages === 0 ? 0 : pesewasToGhs(Math.round(r.cost / r.messages)) };
}

function sum(list: readonly NetworkFigures[]): NetworkFigures {
  const main = [...list].sort((a, b) => b.messages - a.messages)[0]!;
  return { ...main, provider: null, messages: list.reduce((n, r) => n + r.messages, 0), delivered: list.reduce((n, r) => n + r.delivered, 0),
    failed: list.reduce((n, r) => n + r.failed, 0), cost: list.reduce((n, r) => n + r.cost, 0) };
}

function recommend(country: string, network: string, list: readonly NetworkFigures[]) {
  const better = betterRoute(list);
  if (!better) return [];
  return [{
    kind: 'BETTER_ROUTE', country, network, from: better.from, to: better.to,
    message: `${network} (${country}): ${better.to} delivered ${pct(better.toRate)} against ${pct(better.fromRate)} through ${better.from}, which carries most of it; route ${network} through ${better.to}.`,
    figures: better,
  }];
}

function pct(x: number): string { return `${(x * 100).toFixed(1)}%`; }
