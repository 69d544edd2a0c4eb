import type { RouteBucket, RouteShift, RouteState } from '../domain/route-learning.ts';

/** A stored shift: its id names it in the webhook events announcing it. */
export interface StoredRouteShift extends RouteShift { id: string }

/**
 * The learning routes' memory (docs/routing.md, "Learning"): per (provider, country, network) one-minute
 * buckets of sends and their reports, the current state of each and the log of shifts. Platform-level
 * (providers are the platform's). Bounded: `add` merges into existing buckets, `prune` drops buckets
 * older than the retention, `listBuckets` and `listShifts` take a limit.
 */
export interface RouteStatsRepository {
  /** Adds the counts to the stored buckets (same provider, country, network and start): concurrent adds never lose counts. */
  add(increments: readonly RouteBucket[]): Promise<void>;
  listBuckets(since: Date, limit: number): Promise<RouteBucket[]>;
  listStates(): Promise<RouteState[]>;
  /** Replaces the states and appends the shifts, in one transaction. */
  saveDecision(states: readonly RouteState[], shifts: readonly RouteShift[]): Promise<void>;
  /** Newest first. */
  listShifts(limit: number): Promise<RouteShift[]>;
  /** Appends one shift that learning did not make (an administrator's pin); announced like the others. */
  recordShift(shift: RouteShift): Promise<void>;
  /**
   * The outbox of the `routing.route_shifted` webhook (docs/routing.md): up to `limit` stored shifts not
   * yet published and not leased by another publisher (oldest first), leased to the caller until
   * `leaseUntil`. A publisher that dies leaves its lease to expire; the next one resumes.
   */
  claimUnpublished(now: Date, leaseUntil: Date, limit: number): Promise<StoredRouteShift[]>;
  /** Every affected organization's event is recorded: the shift is never claimed again. */
  markPublished(id: string, now: Date): Promise<void>;
  prune(before: Date): Promise<number>;
}
