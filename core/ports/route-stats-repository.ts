import type { RouteBucket, RouteShift, RouteState } from '../domain/route-learning.ts';

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
  prune(before: Date): Promise<number>;
}
