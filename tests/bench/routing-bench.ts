import { mtnShareOnB, simulateRouting, telecelShareOnA } from './routing-simulation.ts';

/**
 * bench:routing (docs/benchmarks/2026-11-28-routing.md): provider A reports MTN 6 minutes late for the
 * first 20 simulated minutes while Telecel is fine; bars: within 10 simulated minutes >= 90% of new MTN
 * traffic on B, Telecel stays on A, MTN back on A within the hysteresis window after A recovers, no
 * message sent twice. Exits non-zero when a bar is missed.
 */
const recoverAtMs = 20 * 60_000;
const result = await simulateRouting({ ratePerSecond: 5, durationMs: 40 * 60_000, recoverAtMs, slowMtnMs: 6 * 60_000, evaluateEveryMs: 30_000 });
const minute = (ms: number | null) => (ms === null ? 'never' : `${(ms / 60_000).toFixed(2)} min`);
const mtnB10 = mtnShareOnB(result, 9, 10);
const telecelA = telecelShareOnA(result, 0, 40);
const returnDelay = result.backAtMs === null ? null : result.backAtMs - recoverAtMs;
const mtnBackOnA = 1 - mtnShareOnB(result, Math.ceil((result.backAtMs ?? 40 * 60_000) / 60_000), 40);
const bars = [
  { bar: 'new MTN traffic on B in minute 9-10 >= 90%', value: `${(mtnB10 * 100).toFixed(1)}%`, ok: mtnB10 >= 0.9 },
  { bar: 'Telecel on A over the whole run >= 99%', value: `${(telecelA * 100).toFixed(2)}%`, ok: telecelA >= 0.99 },
  { bar: `MTN back on A within the hysteresis window (${minute(result.hysteresisWindowMs)}) of A recovering`, value: minute(returnDelay), ok: returnDelay !== null && returnDelay <= result.hysteresisWindowMs },
  { bar: 'MTN on A after the return >= 99%', value: `${(mtnBackOnA * 100).toFixed(2)}%`, ok: mtnBackOnA >= 0.99 },
  { bar: 'no message sent twice', value: `${result.duplicates} duplicates of ${result.sent}`, ok: result.duplicates === 0 },
];
console.log(`bench:routing  ${result.sent} messages, 40 simulated minutes in ${result.wallMs.toFixed(0)} ms wall`);
console.log(`shift away: ${minute(result.awayAtMs)}; shift back: ${minute(result.backAtMs)} (A recovered at ${minute(recoverAtMs)})`);
for (const s of result.shifts) console.log(`  ${minute(s.at.getTime() - Date.UTC(2026, 10, 28, 8))} ${s.provider} ${s.country}/${s.network} ${s.direction}: ${s.reason}`);
console.log('minute  MTN on B   Telecel on A');
for (const m of result.minutes) console.log(`${String(m.minute).padStart(6)}  ${(100 * m.mtnOnB / m.mtnTotal).toFixed(1).padStart(7)}%  ${(100 * m.telecelOnA / m.telecelTotal).toFixed(1).padStart(9)}%`);
for (const b of bars) console.log(`${b.ok ? 'PASS' : 'FAIL'}  ${b.bar}: ${b.value}`);
if (bars.some((b) => !b.ok)) process.exitCode = 1;

// The routing decision's own CPU per message, as the send path pays it: the network from memory (prefix plus
// corrections), the provider order for it, and the send counted; beside the same loop without it. Two cases:
// no network route and nothing degraded (the common case), and a route plus a degraded provider (the worst).
{
  const { NetworkRouter } = await import('../../adapters/routing/network-router.ts');
  const candidates = [{ name: 'a' }, { name: 'b' }, { name: 'c' }];
  const numbers = Array.from({ length: 1_000 }, (_, i) => `+233${i % 2 ? '24' : '20'}${String(1_000_000 + i).padStart(7, '0')}`);
  const at = new Date();
  const rounds = 300_000;
  let sink = 0;
  const time = (work: (i: number) => void) => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) work(i);
    return Number(process.hrtime.bigint() - started) / rounds;
  };
  for (const worst of [false, true]) {
    const router = new NetworkRouter();
    if (worst) {
      router.setRoutes([{ id: 'r', channel: 'SMS', country: 'GH', network: 'TELECEL', providers: ['b'], pricePerUnit: 2, pinned: null, createdAt: new Date(), updatedAt: new Date() }]);
      router.setStates([{ provider: 'a', country: 'GH', network: 'MTN', degraded: true, since: new Date(), reason: 'late' }]);
    }
    let result = '';
    for (let warm = 0; warm < 3; warm++) {
      const baseline = time((i) => { sink += candidates.length + numbers[i % 1_000]!.length; });
      const routed = time((i) => {
        const known = router.known(numbers[i % 1_000]!)!;
        const ordered = router.order(candidates, (c) => c.name, 'SMS', known);
        router.sent(ordered[0]!.name, known, at);
        sink += ordered.length;
      });
      router.drain();
      result = `${(routed - baseline).toFixed(0)} ns (routed ${routed.toFixed(0)} ns, baseline ${baseline.toFixed(0)} ns)`;
    }
    console.log(`routing decision per message, ${worst ? 'network route + degraded provider' : 'no route, nothing degraded'}: ${result}${sink > 0 ? '' : '.'}`);
  }
}
