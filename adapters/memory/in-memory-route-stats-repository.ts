import type { RouteBucket, RouteShift, RouteState } from '../../core/domain/route-learning.ts';
import type { RouteStatsRepository, StoredRouteShift } from '../../core/ports/route-stats-repository.ts';

interface Notice extends StoredRouteShift { publishedAt: Date | null; publishingUntil: Date | null }

const bucketKey = (b: RouteBucket) => `${b.provider}\u0000${b.country}\u0000${b.network}\u0000${b.start.getTime()}`;

/** Route statistics in memory (tests, the routing benchmark, embedding): the same rules as the SQL adapter. */
export class InMemoryRouteStatsRepository implements RouteStatsRepository {
  readonly #buckets = new Map<string, RouteBucket>();
  #states: RouteState[] = [];
  readonly #shifts: Notice[] = [];
  #nextId = 1;

  async add(increments: readonly RouteBucket[]): Promise<void> {
    for (const inc of increments) {
      const existing = this.#buckets.get(bucketKey(inc));
      if (!existing) { this.#buckets.set(bucketKey(inc), { ...inc, latency: [...inc.latency] }); continue; }
      existing.sent += inc.sent; existing.reported += inc.reported; existing.delivered += inc.delivered; existing.failed += inc.failed; existing.slow += inc.slow;
      existing.latency = existing.latency.map((n, i) => n + (inc.latency[i] ?? 0));
    }
  }

  async listBuckets(since: Date, limit: number): Promise<RouteBucket[]> {
    return [...this.#buckets.values()].filter((b) => b.start >= since)
      .sort((a, b) => a.start.getTime() - b.start.getTime() || (bucketKey(a) < bucketKey(b) ? -1 : 1)).slice(0, limit)
      .map((b) => ({ ...b, latency: [...b.latency] }));
  }

  async listStates(): Promise<RouteState[]> { return this.#states.map((s) => ({ ...s })); }

  async saveDecision(states: readonly RouteState[], shifts: readonly RouteShift[]): Promise<void> {
    this.#states = states.map((s) => ({ ...s }));
    const twice = (s: RouteShift) => this.#shifts.some((o) => o.provider === s.provider && o.country === s.country && o.network === s.network
      && o.direction === s.direction && Math.abs(o.at.getTime() - s.at.getTime()) < 2 * 60_000);
    for (const s of shifts.filter((x) => !twice(x))) await this.recordShift(s);
  }

  async listShifts(limit: number): Promise<RouteShift[]> {
    return [...this.#shifts].reverse().slice(0, limit).map(shiftOf);
  }

  async recordShift(shift: RouteShift): Promise<void> {
    this.#shifts.push({ ...shift, id: String(this.#nextId++), publishedAt: null, publishingUntil: null });
  }

  async claimUnpublished(now: Date, leaseUntil: Date, limit: number): Promise<StoredRouteShift[]> {
    const free = this.#shifts.filter((s) => !s.publishedAt && (!s.publishingUntil || s.publishingUntil <= now)).slice(0, limit);
    for (const s of free) s.publishingUntil = leaseUntil;
    return free.map((s) => ({ ...shiftOf(s), id: s.id }));
  }

  async markPublished(id: string, now: Date): Promise<void> {
    const shift = this.#shifts.find((s) => s.id === id);
    if (shift) { shift.publishedAt = now; shift.publishingUntil = null; }
  }

  async prune(before: Date): Promise<number> {
    let n = 0;
    for (const [key, b] of this.#buckets) if (b.start < before) { this.#buckets.delete(key); n++; }
    return n;
  }
}

function shiftOf(n: Notice): RouteShift {
  const { id: _id, publishedAt: _p, publishingUntil: _u, ...shift } = n;
  return { ...shift };
}
