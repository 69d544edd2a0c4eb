import type { Channel } from './channel.ts';
import type { Pesewas } from './money.ts';
import type { PricingRule } from './pricing.ts';

/**
 * A route for one (channel, country, network): the providers that take its messages first, in order,
 * its price (overriding the country's pricing rule) and an administrator's pin (docs/routing.md).
 * Platform-level configuration, like providers and pricing rules.
 */
export interface NetworkRoute {
  id: string;
  channel: Channel;
  /** ISO 3166 alpha-2. */
  country: string;
  /** A network slug of the country's numbering plan ('MTN', 'TELECEL', 'AT'). */
  network: string;
  /** Platform provider names in preference order; the country's other providers follow them. */
  providers: string[];
  /** Integer pesewas per unit (segment for SMS, message otherwise); null: the country's rule prices it. */
  pricePerUnit: Pesewas | null;
  /** A provider name an administrator pinned: always first, never shifted away by learning. */
  pinned: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The key of a (channel, country, network) route. */
export function routeKey(channel: Channel, country: string, network: string): string {
  return `${channel}:${country.toUpperCase()}:${network.toUpperCase()}`;
}

/** The pricing rules network routes with a price add (they win over the country rule in findRule). */
export function networkPricingRules(routes: readonly NetworkRoute[]): PricingRule[] {
  return routes.filter((r) => r.pricePerUnit !== null).map((r) => ({
    channel: r.channel, country: r.country, network: r.network, pricePerUnit: r.pricePerUnit!, unit: r.channel === 'SMS' ? 'segment' as const : 'message' as const,
  }));
}

/**
 * The failover order for a message to a known network. `candidates` is the country order
 * (routeCandidates); the route's providers move to the front in the route's order; providers learning
 * found degraded for this network (`degraded`) move behind the healthy ones, except on a probe (a small
 * share of traffic keeps measuring them, so a recovery is seen); a pinned provider is first whatever
 * learning says. Never drops a candidate: when all are degraded, trying beats failing.
 */
export function orderForNetwork<T>(candidates: readonly T[], nameOf: (c: T) => string, route: NetworkRoute | null,
  degraded: ReadonlySet<string> | null, probe: boolean): T[] {
  let ordered = [...candidates];
  if (route && route.providers.length > 0) {
    const rank = new Map(route.providers.map((name, i) => [name, i]));
    const inRoute = ordered.filter((c) => rank.has(nameOf(c))).sort((a, b) => rank.get(nameOf(a))! - rank.get(nameOf(b))!);
    ordered = [...inRoute, ...ordered.filter((c) => !rank.has(nameOf(c)))];
  }
  if (degraded && degraded.size > 0 && !probe) {
    ordered = [...ordered.filter((c) => !degraded.has(nameOf(c))), ...ordered.filter((c) => degraded.has(nameOf(c)))];
  }
  const pinned = route?.pinned ?? null;
  if (pinned) {
    const at = ordered.findIndex((c) => nameOf(c) === pinned);
    if (at > 0) ordered = [ordered[at]!, ...ordered.slice(0, at), ...ordered.slice(at + 1)];
  }
  return ordered;
}

/** One provider's figures on one network (analytics), as betterRoute reads them. */
export interface ProviderNetworkFigures {
  provider: string | null;
  messages: number;
  delivered: number;
  failed: number;
}

/** Messages a provider must have carried on a network before its rate may name it the better route. */
export const MIN_ROUTE_SAMPLE = 50;
/** Delivery rate points a route must be better by to be recommended. */
export const RECOMMEND_MARGIN = 0.05;

const rateOf = (r: ProviderNetworkFigures) => (r.delivered + r.failed === 0 ? null : r.delivered / (r.delivered + r.failed));

/**
 * The better route the data shows for one network, or null: the provider with the best delivery rate
 * (at least MIN_ROUTE_SAMPLE reported messages) when it beats the provider carrying most of the
 * network's messages by RECOMMEND_MARGIN or more.
 */
export function betterRoute(figures: readonly ProviderNetworkFigures[]): { from: string; to: string; fromRate: number; toRate: number; fromMessages: number; toMessages: number } | null {
  const carried = figures.filter((r) => r.provider);
  const main = [...carried].sort((a, b) => b.messages - a.messages)[0];
  const best = carried.filter((r) => r.delivered + r.failed >= MIN_ROUTE_SAMPLE).sort((a, b) => rateOf(b)! - rateOf(a)!)[0];
  if (!main || !best || best.provider === main.provider) return null;
  const fromRate = rateOf(main);
  const toRate = rateOf(best)!;
  if (fromRate === null || toRate - fromRate < RECOMMEND_MARGIN) return null;
  return { from: main.provider!, to: best.provider!, fromRate, toRate, fromMessages: main.messages, toMessages: best.messages };
}
