import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { fmtMs as fmt, latencies, liveKey, pct, queueBacklog, sendOne } from './fairness-support.ts';
import { startProbeTracing, type ProbeTraces } from './probe-traces.ts';
import { ensureBenchDatabase, startSendServer } from './send-server.ts';
import { useSlowArkesel } from './slow-vendor.ts';

/**
 * `npm run bench:fairness` (issue 30, docs/adr/0036-delivery-lanes-and-fair-queueing.md): accept-to-provider
 * latency (a message's `sent_at - created_at`, the default providers answering at once) of
 *
 * 1. idle: tenant B's single async transactional SMS, one at a time, nothing else queued;
 * 2. behind a backlog: tenant A's --backlog async SMS (bulk API, queued while no worker runs), then the worker
 *    (in-process, as `npm start` runs it) drains them while tenant B sends single transactional SMS and
 *    tenant A single OTP SMS, one every --every ms; A's drain rate is reported too.
 *
 * Settings: --backlog=20000 --idle=100 --probes=50 --every=200. With --latency=50 every SMS goes to a fake
 * Arkesel in its own process answering after 50 ms, through the platform's Arkesel provider bounded to
 * --max-concurrency (50) sends in flight: the vendor, not the CPU, bounds the drain (50 / 50 ms = 1,000/s).
 * With --trace the probes carry sampled traces and the run prints where their time went, segment by segment
 * (probe-traces.ts: acceptance, until the worker's job span, until the vendor call, the vendor call).
 * Own database `nkra_bench_fairness` (`nkra_bench_fairness_vendor` with --latency) on DATABASE_URL's server (default the local PostgreSQL). Targets (issue 30): idle p50 <= 50 ms, p99 <= 200 ms;
 * behind the backlog p99 <= 1 s.
 */
function flag(name: string, fallback: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = Number(raw ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  return value;
}
const settings = {
  backlog: flag('backlog', 20_000), idle: flag('idle', 100), probes: flag('probes', 50), everyMs: flag('every', 200),
  latencyMs: flag('latency', 0), maxConcurrency: flag('max-concurrency', 50),
  // --trace: the probes carry sampled traces; where their time goes is printed per segment (probe-traces.ts).
  trace: process.argv.includes('--trace'),
};

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-fairness-bench-'));
  const vendor = await useSlowArkesel(settings.latencyMs, settings.maxConcurrency, dir);
  const traces: ProbeTraces | null = settings.trace ? await startProbeTracing() : null;
  const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  // A database per provider setup: a --latency run stores its fake Arkesel, which a default-providers run must not find.
  const server = await startSendServer(await ensureBenchDatabase(serverUrl, vendor ? 'nkra_bench_fairness_vendor' : 'nkra_bench_fairness'));
  let worker: RunningWorker | null = null;
  const startTheWorker = async () => {
    const container = buildWorkerContainer(server.config, server.logger, server.infra, { runtime: server.container.get(MESSAGING.runtime) });
    worker = await startWorker(server.infra.boss, container.getAll(WORKER.handlers), server.logger);
  };
  try {
    await server.infra.boss.deleteAllJobs(QUEUES.notificationSend);
    const a = await liveKey(server, 'tenant-a');
    const b = await liveKey(server, 'tenant-b');

    await startTheWorker();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    console.log(`idle: ${settings.idle} single async SMS of tenant B, one at a time ...`);
    const idle: number[] = [];
    for (let i = 0; i < settings.idle; i++) idle.push(...await latencies(server, [await sendOne(server, b.key, 'TRANSACTIONAL', traces?.traceparent('idle: tenant B transactional'))], 30_000));
    await worker!.stop();

    console.log(`queueing tenant A's backlog of ${settings.backlog} async SMS (no worker running) ...`);
    await queueBacklog(server, a.key, settings.backlog);
    await server.vacuum();
    const started = performance.now();
    await startTheWorker();
    const probes = { b: [] as string[], aOtp: [] as string[] };
    for (let i = 0; i < settings.probes && await server.undelivered(a.organizationId) > 0; i++) {
      probes.b.push(await sendOne(server, b.key, 'TRANSACTIONAL', traces?.traceparent('tenant B transactional, behind A')));
      probes.aOtp.push(await sendOne(server, a.key, 'OTP', traces?.traceparent('tenant A OTP, behind its own')));
      await new Promise((resolve) => setTimeout(resolve, settings.everyMs));
    }
    const [behindB, behindA] = [await latencies(server, probes.b), await latencies(server, probes.aOtp)];
    while (await server.undelivered(a.organizationId) > 0) await new Promise((resolve) => setTimeout(resolve, 200));
    const drainSeconds = (performance.now() - started) / 1000;
    await worker!.stop();
    worker = null;

    console.log('');
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
    console.log(`command: npm run bench:fairness -- --backlog=${settings.backlog} --idle=${settings.idle} --probes=${settings.probes} --every=${settings.everyMs}`
      + (vendor ? ` --latency=${settings.latencyMs} --max-concurrency=${settings.maxConcurrency}` : '') + (traces ? ' --trace' : ''));
    console.log(vendor ? `provider: a fake Arkesel answering after ${settings.latencyMs} ms, at most ${settings.maxConcurrency} sends in flight (max seen ${(await vendor.stats()).maxInFlight})` : 'provider: the default providers (answering at once)');
    console.log('');
    console.log('| accept-to-provider latency | n | p50 | p90 | p99 | max | target |');
    console.log('|---|---:|---:|---:|---:|---:|---|');
    const row = (name: string, v: number[], target: string) => console.log(`| ${name} | ${v.length} | ${fmt(pct(v, 50))} | ${fmt(pct(v, 90))} | ${fmt(pct(v, 99))} | ${fmt(Math.max(...v))} | ${target} |`);
    row('idle: tenant B transactional', idle, 'p50 <= 50 ms, p99 <= 200 ms');
    row(`tenant B transactional, A's ${settings.backlog.toLocaleString('en')} queued`, behindB, 'p99 <= 1 s');
    row(`tenant A OTP, behind its own ${settings.backlog.toLocaleString('en')}`, behindA, 'p99 <= 1 s');
    console.log('');
    if (traces) { console.log(''); for (const line of await traces.report()) console.log(line); console.log(''); }
    console.log(`tenant A's backlog drained in ${drainSeconds.toFixed(1)} s (${Math.round(settings.backlog / drainSeconds).toLocaleString('en')} messages/s, with the probes); A ${JSON.stringify(await server.statusCounts(a.organizationId))}, B ${JSON.stringify(await server.statusCounts(b.organizationId))}`);
  } finally {
    await (worker as RunningWorker | null)?.stop();
    await server.close();
    await vendor?.close();
    await traces?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
