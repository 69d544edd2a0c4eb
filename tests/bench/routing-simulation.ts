import { NetworkRouter } from '../../adapters/routing/network-router.ts';
import { InMemoryRouteStatsRepository } from '../../adapters/memory/in-memory-route-stats-repository.ts';
import { DEFAULT_ROUTE_POLICY, recoveryLookbackMs, type RoutePolicy, type RouteShift } from '../../core/domain/route-learning.ts';
import { EvaluateRoutes } from '../../core/use-cases/routing/evaluate-routes.ts';

/**
 * The learning-routes simulation (docs/routing.md; bench:routing and tests/unit/routing): two fake
 * vendors with per-network report latency on a simulated clock, the real NetworkRouter (the send
 * path's ordering, probes included), the real EvaluateRoutes use case over the in-memory RouteStats
 * repository. Provider A reports MTN late (`slowMtnMs`) until `recoverAtMs`, Telecel fast; B is fine.
 */
export interface SimulationOptions {
  /** Messages per simulated second per network. */
  ratePerSecond: number;
  durationMs: number;
  recoverAtMs: number;
  slowMtnMs: number;
  evaluateEveryMs: number;
  policy?: RoutePolicy;
}

export interface MinuteShare { minute: number; mtnOnB: number; mtnTotal: number; telecelOnA: number; telecelTotal: number }

export interface SimulationResult {
  sent: number;
  duplicates: number;
  shifts: RouteShift[];
  minutes: MinuteShare[];
  awayAtMs: number | null;
  backAtMs: number | null;
  hysteresisWindowMs: number;
  wallMs: number;
}

interface Pending { at: number; provider: string; network: 'MTN' | 'TELECEL'; sentAt: number }

export async function simulateRouting(options: SimulationOptions): Promise<SimulationResult> {
  const started = performance.now();
  const policy = options.policy ?? DEFAULT_ROUTE_POLICY;
  const t0 = Date.UTC(2026, 10, 28, 8, 0, 0);
  let nowMs = t0;
  const clock = { now: () => new Date(nowMs) };
  const router = new NetworkRouter({ policy });
  const stats = new InMemoryRouteStatsRepository();
  const evaluate = new EvaluateRoutes({ routeStats: stats, clock, policy });
  const candidates = ['provider-a', 'provider-b'];
  const sends = new Map<string, number>();
  const reports: Pending[] = [];
  const minutes = new Map<number, MinuteShare>();
  const latency = (provider: string, network: string, at: number) => {
    if (provider === 'provider-a' && network === 'MTN' && at - t0 < options.recoverAtMs) return options.slowMtnMs;
    return provider === 'provider-a' ? 4_000 : 7_000;
  };
  let sequence = 0;
  const tickMs = 1_000;
  for (let elapsed = 0; elapsed < options.durationMs; elapsed += tickMs) {
    nowMs = t0 + elapsed;
    const minute = Math.floor(elapsed / 60_000);
    const share = minutes.get(minute) ?? { minute, mtnOnB: 0, mtnTotal: 0, telecelOnA: 0, telecelTotal: 0 };
    minutes.set(minute, share);
    for (let i = 0; i < options.ratePerSecond; i++) {
      for (const prefix of ['24', '20']) {
        sequence++;
        const e164 = `+233${prefix}${String(1_000_000 + (sequence % 9_000_000)).padStart(7, '0')}`;
        const known = router.known(e164)!;
        const provider = router.order(candidates, (c) => c, 'SMS', known)[0]!;
        const id = `m${sequence}`;
        sends.set(id, (sends.get(id) ?? 0) + 1);
        router.sent(provider, known, clock.now());
        reports.push({ at: nowMs + latency(provider, known.network, nowMs), provider, network: known.network as 'MTN' | 'TELECEL', sentAt: nowMs });
        if (known.network === 'MTN') { share.mtnTotal++; if (provider === 'provider-b') share.mtnOnB++; } else { share.telecelTotal++; if (provider === 'provider-a') share.telecelOnA++; }
      }
    }
    // Reports due by now reach the router (the vendors' callbacks).
    reports.sort((a, b) => a.at - b.at);
    while (reports.length > 0 && reports[0]!.at <= nowMs) {
      const r = reports.shift()!;
      router.reported(r.provider, { country: 'GH', network: r.network }, new Date(r.sentAt), new Date(r.at), true);
    }
    if (elapsed % options.evaluateEveryMs === 0) {
      await stats.add(router.drain());
      const { states } = await evaluate.execute();
      router.setStates(states);
    }
  }
  const shifts = (await stats.listShifts(1_000)).reverse();
  const away = shifts.find((s) => s.provider === 'provider-a' && s.network === 'MTN' && s.direction === 'away');
  const back = shifts.find((s) => s.provider === 'provider-a' && s.network === 'MTN' && s.direction === 'back');
  return {
    sent: sends.size, duplicates: [...sends.values()].filter((n) => n > 1).length, shifts, minutes: [...minutes.values()],
    awayAtMs: away ? away.at.getTime() - t0 : null, backAtMs: back ? back.at.getTime() - t0 : null,
    hysteresisWindowMs: recoveryLookbackMs(policy) + options.evaluateEveryMs, wallMs: performance.now() - started,
  };
}

/** Share of MTN traffic on B over simulated minutes [from, to). */
export function mtnShareOnB(result: SimulationResult, from: number, to: number): number {
  const rows = result.minutes.filter((m) => m.minute >= from && m.minute < to);
  const total = rows.reduce((a, m) => a + m.mtnTotal, 0);
  return total === 0 ? 0 : rows.reduce((a, m) => a + m.mtnOnB, 0) / total;
}

export function telecelShareOnA(result: SimulationResult, from: number, to: number): number {
  const rows = result.minutes.filter((m) => m.minute >= from && m.minute < to);
  const total = rows.reduce((a, m) => a + m.telecelTotal, 0);
  return total === 0 ? 0 : rows.reduce((a, m) => a + m.telecelOnA, 0) / total;
}
