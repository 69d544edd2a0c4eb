import { decideRoutes, DEFAULT_ROUTE_POLICY, recoveryLookbackMs, type RoutePolicy, type RouteShift, type RouteState } from '../../domain/route-learning.ts';
import type { Clock } from '../../ports/clock.ts';
import type { RouteStatsRepository } from '../../ports/route-stats-repository.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';

export interface EvaluateRoutesDeps {
  routeStats: RouteStatsRepository;
  clock: Clock;
  policy?: RoutePolicy;
  /** Told about every shift once it is stored (logs). */
  onShift?: (shift: RouteShift) => Promise<void> | void;
  /** With it, every shift is an admin event in the audit log (`route.shift`, actor `system`), next to administrators' own changes. */
  audit?: { storage: Pick<Storage, 'auditLog'>; ids: IdGenerator } | undefined;
}

/** The audit log's actor for what the platform decided by itself (learning routes). */
export const SYSTEM_ACTOR = 'system';

/** Most buckets read per evaluation: a bound on the window (providers x networks x minutes). */
export const MAX_BUCKETS_PER_EVALUATION = 50_000;

/**
 * Runs the learning routes' decision (route-learning.ts) over the stored buckets: stores the new
 * states and the shifts, tells `onShift`, and drops buckets past the retention. One process runs it
 * (the worker, every `ROUTE_EVALUATION_MS`); every process reads the states it stores.
 */
export class EvaluateRoutes {
  readonly #deps: EvaluateRoutesDeps;
  constructor(deps: EvaluateRoutesDeps) { this.#deps = deps; }

  async execute(): Promise<{ states: RouteState[]; shifts: RouteShift[] }> {
    const { routeStats, clock } = this.#deps;
    const policy = this.#deps.policy ?? DEFAULT_ROUTE_POLICY;
    const now = clock.now();
    const since = new Date(now.getTime() - Math.max(policy.windowMs, recoveryLookbackMs(policy)) - policy.bucketMs);
    const [buckets, states] = await Promise.all([routeStats.listBuckets(since, MAX_BUCKETS_PER_EVALUATION), routeStats.listStates()]);
    const decision = decideRoutes(buckets, states, now, policy);
    if (decision.shifts.length > 0 || decision.states.length !== states.length) await routeStats.saveDecision(decision.states, decision.shifts);
    for (const shift of decision.shifts) {
      await this.#deps.audit?.storage.auditLog.record({
        id: this.#deps.audit.ids.next(), actorUserId: SYSTEM_ACTOR, impersonatorUserId: null, organizationId: null, action: 'route.shift',
        target: `route:${shift.provider}:${shift.country}:${shift.network}`,
        details: { provider: shift.provider, country: shift.country, network: shift.network, direction: shift.direction, reason: shift.reason, slowShare: shift.slowShare, deliveryRate: shift.deliveryRate },
        createdAt: shift.at,
      });
      await this.#deps.onShift?.(shift);
    }
    await routeStats.prune(new Date(now.getTime() - policy.retainMs));
    return decision;
  }
}
