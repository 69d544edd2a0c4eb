import type { NetworkRouter } from '../adapters/routing/network-router.ts';
import type { NetworkRouteRepository } from '../core/ports/network-route-repository.ts';
import type { NumberNetworkRepository } from '../core/ports/number-network-repository.ts';
import type { RouteStatsRepository } from '../core/ports/route-stats-repository.ts';
import type { Logger } from './logger.ts';

/** Corrections read per refresh: a bound on one statement (more arrive at the next refresh). */
const CORRECTIONS_PER_REFRESH = 5_000;

/**
 * Keeps a process's NetworkRouter in step with the database (docs/routing.md): network routes, the
 * learning states and numbers' corrections are read every few seconds, and the sends and reports it
 * counted are added to the route buckets. The send path itself never waits on any of it.
 */
export class RoutingSync {
  readonly #router: NetworkRouter;
  readonly #routes: NetworkRouteRepository;
  readonly #stats: RouteStatsRepository;
  readonly #numbers: NumberNetworkRepository;
  readonly #logger: Logger;
  #correctionsSeen = new Date(0);

  constructor(deps: { router: NetworkRouter; routes: NetworkRouteRepository; stats: RouteStatsRepository; numbers: NumberNetworkRepository; logger: Logger }) {
    this.#router = deps.router;
    this.#routes = deps.routes;
    this.#stats = deps.stats;
    this.#numbers = deps.numbers;
    this.#logger = deps.logger;
  }

  async refresh(): Promise<void> {
    const [routes, states, corrections] = await Promise.all([this.#routes.list(), this.#stats.listStates(), this.#numbers.changedSince(this.#correctionsSeen, CORRECTIONS_PER_REFRESH)]);
    this.#router.setRoutes(routes);
    this.#router.setStates(states);
    for (const c of corrections) this.#router.remember(c.e164, { country: c.country, network: c.network, source: c.source }, c.expiresAt);
    const last = corrections.at(-1);
    if (last) this.#correctionsSeen = last.learnedAt;
  }

  /** Adds what the router counted to the route buckets; a failed add puts nothing back (counts are best effort, bounded loss). */
  async flush(): Promise<void> {
    const pending = this.#router.drain();
    if (pending.length > 0) await this.#stats.add(pending);
  }

  /** Flushes and refreshes every `intervalMs`; returns the stop (which flushes once more). */
  start(intervalMs: number): () => Promise<void> {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.flush().then(() => this.refresh())
        .catch((error: unknown) => this.#logger.warn({ err: error }, 'routing sync failed'))
        .finally(() => { busy = false; });
    }, intervalMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await this.flush().catch(() => undefined);
    };
  }
}
