import type { Channel } from '../../core/domain/channel.ts';
import { networkByPrefix, type KnownNetwork, type MobileNetwork } from '../../core/domain/mobile-network.ts';
import { orderForNetwork, routeKey, type NetworkRoute } from '../../core/domain/network-route.ts';
import { DEFAULT_ROUTE_POLICY, emptyBucket, isProbe, latencyBin, type RouteBucket, type RoutePolicy, type RouteState } from '../../core/domain/route-learning.ts';
import type { NumberIntelligence } from '../../core/ports/number-intelligence.ts';
import type { RouteObserver } from '../../core/ports/route-observer.ts';

/**
 * The process's network routing state, all in memory so the send path pays a few Map reads per
 * message (docs/routing.md): network routes, which providers learning found degraded per network, the
 * numbers whose network a lookup or report corrected (bounded, oldest dropped first), and the counts of
 * sends and reports not yet flushed to the RouteStatsRepository. Hosts refresh routes, states and
 * corrections from the database every few seconds and flush the counts.
 */
export class NetworkRouter implements RouteObserver, NumberIntelligence {
  readonly #policy: RoutePolicy;
  readonly #maxCorrections: number;
  #routes = new Map<string, NetworkRoute>();
  #degraded = new Map<string, Set<string>>();
  readonly #probeCounters = new Map<string, number>();
  readonly #corrections = new Map<string, { known: KnownNetwork; expiresAt: number }>();
  readonly #lookupTtlMs: number;
  readonly #now: () => number;
  #pending = new Map<string, RouteBucket>();
  /** Persists a correction (the database adapter); without it corrections stay in this process. */
  readonly #persist: ((e164: string, network: KnownNetwork) => Promise<void>) | undefined;

  /** `lookupTtlMs`: how long a lookup's answer is trusted (a report's until replaced); `now`: the clock (epoch ms). */
  constructor(options: { policy?: RoutePolicy; maxCorrections?: number; persist?: (e164: string, network: KnownNetwork) => Promise<void>; lookupTtlMs?: number; now?: () => number } = {}) {
    this.#policy = options.policy ?? DEFAULT_ROUTE_POLICY;
    this.#maxCorrections = options.maxCorrections ?? 200_000;
    this.#persist = options.persist;
    this.#lookupTtlMs = options.lookupTtlMs ?? 30 * 24 * 60 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  setRoutes(routes: readonly NetworkRoute[]): void {
    this.#routes = new Map(routes.map((r) => [routeKey(r.channel, r.country, r.network), r]));
  }

  routes(): NetworkRoute[] { return [...this.#routes.values()]; }

  setStates(states: readonly RouteState[]): void {
    const degraded = new Map<string, Set<string>>();
    for (const s of states) {
      if (!s.degraded) continue;
      const key = `${s.country}:${s.network}`;
      degraded.set(key, (degraded.get(key) ?? new Set()).add(s.provider));
    }
    this.#degraded = degraded;
  }

  /** A number's network: a correction this process holds, else its prefix. */
  known(e164: string): KnownNetwork | null {
    const corrected = this.#corrections.get(e164);
    if (corrected && corrected.expiresAt > this.#now()) return corrected.known;
    const byPrefix = networkByPrefix(e164);
    return byPrefix ? { ...byPrefix, source: 'prefix' } : null;
  }

  async learn(e164: string, network: MobileNetwork, source: 'lookup' | 'report'): Promise<void> {
    const known: KnownNetwork = { country: network.country, network: network.network, source };
    this.remember(e164, known, source === 'lookup' ? new Date(this.#now() + this.#lookupTtlMs) : null);
    await this.#persist?.(e164, known);
  }

  /** Holds a correction without persisting it (corrections read from the database); past `expiresAt` the prefix answers again. */
  remember(e164: string, known: KnownNetwork, expiresAt: Date | null = null): void {
    this.#corrections.delete(e164);
    this.#corrections.set(e164, { known, expiresAt: expiresAt?.getTime() ?? Number.POSITIVE_INFINITY });
    if (this.#corrections.size > this.#maxCorrections) this.#corrections.delete(this.#corrections.keys().next().value!);
  }

  /** The failover order for a message to `network` (see orderForNetwork); probes keep measuring degraded providers. */
  order<T>(candidates: readonly T[], nameOf: (c: T) => string, channel: Channel, network: MobileNetwork): readonly T[] {
    // The common case (no route for the network, nothing degraded anywhere) costs two size checks.
    const route = this.#routes.size === 0 ? null : this.#routes.get(routeKey(channel, network.country, network.network)) ?? null;
    const networkKey = `${network.country}:${network.network}`;
    const degraded = this.#degraded.size === 0 ? null : this.#degraded.get(networkKey) ?? null;
    if (!route && !degraded) return candidates;
    let probe = false;
    // Only traffic that would have gone to a degraded provider counts towards its probes.
    const first = degraded ? orderForNetwork(candidates, nameOf, route, null, false)[0] : undefined;
    if (degraded && first !== undefined && degraded.has(nameOf(first))) {
      const count = (this.#probeCounters.get(networkKey) ?? 0) + 1;
      this.#probeCounters.set(networkKey, count);
      probe = isProbe(count, this.#policy);
    }
    return orderForNetwork(candidates, nameOf, route, degraded, probe);
  }

  sent(provider: string, network: MobileNetwork, at: Date): void {
    this.#bucket(provider, network, at).sent++;
  }

  reported(provider: string, network: MobileNetwork, sentAt: Date, reportedAt: Date, delivered: boolean): void {
    const bucket = this.#bucket(provider, network, sentAt);
    const latency = Math.max(0, reportedAt.getTime() - sentAt.getTime());
    bucket.reported++;
    if (delivered) bucket.delivered++; else bucket.failed++;
    if (latency > this.#policy.slowAfterMs) bucket.slow++;
    bucket.latency[latencyBin(latency)]!++;
  }

  /** The counts gathered since the last drain (to add to the repository). */
  drain(): RouteBucket[] {
    const pending = [...this.#pending.values()];
    this.#pending = new Map();
    return pending;
  }

  #bucket(provider: string, network: MobileNetwork, at: Date): RouteBucket {
    const start = Math.floor(at.getTime() / this.#policy.bucketMs) * this.#policy.bucketMs;
    const key = `${provider}\u0000${network.country}\u0000${network.network}\u0000${start}`;
    let bucket = this.#pending.get(key);
    if (!bucket) this.#pending.set(key, bucket = emptyBucket(provider, network.country, network.network, new Date(start)));
    return bucket;
  }
}
