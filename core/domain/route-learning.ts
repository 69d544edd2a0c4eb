/**
 * Routes that learn (docs/routing.md, "Learning"): per (provider, country, network), sends and their
 * delivery reports are counted in one-minute buckets of the send time; a provider whose reports for a
 * network come late (a share slower than `slowAfterMs`, unreported messages past it counting as slow)
 * or whose delivery rate falls a margin below the best peer's is marked degraded for that network, and
 * its traffic shifts to the next provider; it comes back when a smaller share is slow (hysteresis), no
 * sooner than `minShiftMs` after the shift. Only sends after the latest shift of a (provider, network)
 * count as evidence for the next one, so it cannot flap on the data that caused it. Pure: the clock is
 * an argument.
 */
export interface RoutePolicy {
  bucketMs: number;
  /** A report later than this after the send is slow (5 minutes). */
  slowAfterMs: number;
  /** Degrade at or above this slow share (0.15). */
  degradeSlowShare: number;
  /** Recover at or below this slow share (0.05): the gap is the hysteresis. */
  recoverSlowShare: number;
  /** Degrade when the delivery rate is this far below the best peer's on the network (0.15). */
  deliveryRateMargin: number;
  /** Settled messages needed before judging. */
  minSamples: number;
  /** How far back the degrade decision looks. */
  windowMs: number;
  /** Minutes of mature sends the recovery decision looks at (shorter: old slow sends age out sooner). */
  recoveryWindowMs: number;
  /** Settled messages (probes, mostly) needed before a degraded provider may come back. */
  minRecoverySamples: number;
  /** A shift lasts at least this long. */
  minShiftMs: number;
  /** Share of a degraded provider's traffic still sent to it to see it recover. */
  probeShare: number;
  /** Buckets kept per (provider, network): the bound of the persisted window. */
  retainMs: number;
}

export const DEFAULT_ROUTE_POLICY: RoutePolicy = {
  bucketMs: 60_000, slowAfterMs: 5 * 60_000, degradeSlowShare: 0.15, recoverSlowShare: 0.05, deliveryRateMargin: 0.15,
  minSamples: 20, windowMs: 10 * 60_000, recoveryWindowMs: 3 * 60_000, minRecoverySamples: 10, minShiftMs: 5 * 60_000, probeShare: 0.05, retainMs: 24 * 60 * 60_000,
};

/** Upper bounds (ms) of the latency histogram's bins; the last is open. */
export const LATENCY_BINS_MS: readonly number[] = [10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, Number.POSITIVE_INFINITY];

export interface RouteBucket {
  provider: string;
  country: string;
  network: string;
  /** Start of the send minute. */
  start: Date;
  sent: number;
  reported: number;
  delivered: number;
  failed: number;
  /** Reports later than slowAfterMs. */
  slow: number;
  /** Reports per LATENCY_BINS_MS bin. */
  latency: number[];
}

export interface RouteState {
  provider: string;
  country: string;
  network: string;
  degraded: boolean;
  since: Date;
  reason: string | null;
}

export interface RouteShift {
  provider: string;
  country: string;
  network: string;
  /**
   * 'away': traffic for the network leaves the provider; 'back': it returns (learning). 'pinned': an
   * administrator pinned the provider first for the network; 'unpinned': the pin was lifted.
   */
  direction: 'away' | 'back' | 'pinned' | 'unpinned';
  /** The provider's channel when known (pins; learned shifts find it from the provider). */
  channel?: string | null;
  reason: string;
  slowShare: number;
  deliveryRate: number | null;
  at: Date;
}

export interface WindowStats {
  settled: number;
  slow: number;
  slowShare: number;
  reported: number;
  deliveryRate: number | null;
}

export function bucketStart(at: Date, policy: RoutePolicy = DEFAULT_ROUTE_POLICY): Date {
  return new Date(Math.floor(at.getTime() / policy.bucketMs) * policy.bucketMs);
}

export function latencyBin(latencyMs: number): number {
  return LATENCY_BINS_MS.findIndex((bound) => latencyMs <= bound);
}

export function emptyBucket(provider: string, country: string, network: string, start: Date): RouteBucket {
  return { provider, country, network, start, sent: 0, reported: 0, delivered: 0, failed: 0, slow: 0, latency: LATENCY_BINS_MS.map(() => 0) };
}

/**
 * What buckets of sends in (now - windowMs, now] say. The slow share is judged on mature buckets only
 * (every send older than slowAfterMs: reported, or unreported and so slow for certain); counting young
 * buckets' fast reports would hide a provider that reports a share late. The delivery rate counts every
 * report in the window.
 */
export function windowStats(buckets: readonly RouteBucket[], now: Date, windowMs: number, policy: RoutePolicy = DEFAULT_ROUTE_POLICY): WindowStats {
  let settled = 0; let slow = 0; let reported = 0; let delivered = 0; let failed = 0;
  for (const b of buckets) {
    const age = now.getTime() - b.start.getTime();
    if (age > windowMs || age < 0) continue;
    reported += b.reported; delivered += b.delivered; failed += b.failed;
    if (now.getTime() - (b.start.getTime() + policy.bucketMs) < policy.slowAfterMs) continue;
    settled += Math.max(b.sent, b.reported);
    slow += b.slow + Math.max(0, b.sent - b.reported);
  }
  return { settled, slow, slowShare: settled === 0 ? 0 : slow / settled, reported, deliveryRate: delivered + failed === 0 ? null : delivered / (delivered + failed) };
}

/** How far back the recovery decision looks: the recovery window of mature buckets (sends at least slowAfterMs plus a bucket old). */
export function recoveryLookbackMs(policy: RoutePolicy): number {
  return policy.slowAfterMs + policy.bucketMs + policy.recoveryWindowMs;
}

const keyOf = (x: { provider: string; country: string; network: string }) => `${x.provider}\u0000${x.country}\u0000${x.network}`;

/**
 * The next states and the shifts between them. A healthy provider degrades on a slow share at or above
 * degradeSlowShare, or a delivery rate more than deliveryRateMargin below the best peer's on the same
 * network (each with minSamples settled). A degraded one recovers after minShiftMs once the recovery
 * window shows a slow share at or below recoverSlowShare and a delivery rate within half the margin.
 */
export function decideRoutes(buckets: readonly RouteBucket[], states: readonly RouteState[], now: Date, policy: RoutePolicy = DEFAULT_ROUTE_POLICY): { states: RouteState[]; shifts: RouteShift[] } {
  const grouped = new Map<string, RouteBucket[]>();
  for (const b of buckets) grouped.set(keyOf(b), [...(grouped.get(keyOf(b)) ?? []), b]);
  const byKey = new Map(states.map((s) => [keyOf(s), s]));
  // Evidence starts at the last shift: sends before it do not count against (or for) the state it started.
  const stats = new Map([...grouped].map(([key, all]) => {
    const since = byKey.get(key)?.since.getTime() ?? Number.NEGATIVE_INFINITY;
    const list = all.filter((b) => b.start.getTime() >= since);
    return [key, { first: all[0]!, wide: windowStats(list, now, policy.windowMs, policy), recent: windowStats(list, now, recoveryLookbackMs(policy), policy) }];
  }));
  const bestPeerRate = (self: RouteBucket): number | null => {
    let best: number | null = null;
    for (const [key, s] of stats) {
      if (key === keyOf(self) || s.first.country !== self.country || s.first.network !== self.network || s.wide.reported < policy.minSamples) continue;
      if (s.wide.deliveryRate !== null && (best === null || s.wide.deliveryRate > best)) best = s.wide.deliveryRate;
    }
    return best;
  };
  const next: RouteState[] = [];
  const shifts: RouteShift[] = [];
  for (const [key, { first, wide, recent }] of stats) {
    const current = byKey.get(key) ?? null;
    const peer = bestPeerRate(first);
    const base = { provider: first.provider, country: first.country, network: first.network };
    if (!current?.degraded) {
      const late = wide.settled >= policy.minSamples && wide.slowShare >= policy.degradeSlowShare;
      const undelivered = wide.reported >= policy.minSamples && wide.deliveryRate !== null && peer !== null && wide.deliveryRate < peer - policy.deliveryRateMargin;
      if (late || undelivered) {
        const reason = late ? `${pct(wide.slowShare)} of reports slower than ${policy.slowAfterMs / 60_000} min` : `delivery rate ${pct(wide.deliveryRate!)} vs ${pct(peer!)} on the best peer`;
        next.push({ ...base, degraded: true, since: now, reason });
        shifts.push({ ...base, direction: 'away', reason, slowShare: wide.slowShare, deliveryRate: wide.deliveryRate, at: now });
      } else if (current) next.push(current);
      continue;
    }
    const dwelt = now.getTime() - current.since.getTime() >= policy.minShiftMs;
    const fast = recent.settled >= policy.minRecoverySamples && recent.slowShare <= policy.recoverSlowShare;
    const delivering = recent.deliveryRate === null || peer === null || recent.deliveryRate >= peer - policy.deliveryRateMargin / 2;
    if (dwelt && fast && delivering) {
      const reason = `${pct(recent.slowShare)} of reports slower than ${policy.slowAfterMs / 60_000} min`;
      next.push({ ...base, degraded: false, since: now, reason });
      shifts.push({ ...base, direction: 'back', reason, slowShare: recent.slowShare, deliveryRate: recent.deliveryRate, at: now });
    } else next.push(current);
  }
  // States without buckets (no traffic at all in the retained window) stay as they are.
  for (const s of states) if (!stats.has(keyOf(s))) next.push(s);
  return { states: next, shifts };
}

/** Whether the `count`-th message for a degraded (provider, network) is a probe: every 1/probeShare-th. */
export function isProbe(count: number, policy: RoutePolicy = DEFAULT_ROUTE_POLICY): boolean {
  if (policy.probeShare <= 0) return false;
  return count % Math.round(1 / policy.probeShare) === 0;
}

/** The latency at percentile `p` (0..1) from a histogram, as its bin's upper bound (the open bin: its lower bound); null without reports. */
export function latencyPercentile(histogram: readonly number[], p: number): number | null {
  const total = histogram.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const wanted = Math.max(1, Math.ceil(total * p));
  let seen = 0;
  for (let i = 0; i < histogram.length; i++) {
    seen += histogram[i] ?? 0;
    if (seen >= wanted) return Number.isFinite(LATENCY_BINS_MS[i]!) ? LATENCY_BINS_MS[i]! : LATENCY_BINS_MS[i - 1]!;
  }
  return null;
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}
