import { fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { startBareKoa, startRealApp, type BenchTarget } from './bench-targets.ts';
import type { LoadMessage, LoadOptions, LoadResult } from './load-generator.ts';

/**
 * `npm run bench:http`: requests per second and latency of a bare Koa 3 hello-world and of the real
 * API authenticating an X-API-Key, measured one after the other in one run, with load from a forked
 * process. Settings: --connections=50 --duration=10 --warmup=2 --min-ratio=0.6 (or BENCH_CONNECTIONS,
 * BENCH_DURATION, BENCH_WARMUP, BENCH_MIN_RATIO). DATABASE_URL selects PostgreSQL instead of PGlite.
 * Exits 1 when a request failed, the API-key path read the database per request, a password was hashed,
 * or the req/s ratio is below the target.
 */
interface Settings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  minRatio: number;
}

interface Measured {
  target: BenchTarget;
  load: LoadResult;
  /** The server process's (this process's) CPU time over the measured window, as a share of one core. */
  serverCpu: number;
  counters: Record<string, number>;
}

function settings(): Settings {
  const flag = (name: string, env: string, fallback: number): number => {
    const arg = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
    const value = Number(arg ?? process.env[env] ?? fallback);
    if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
    return value;
  };
  return {
    connections: Math.max(1, Math.floor(flag('connections', 'BENCH_CONNECTIONS', 50))),
    durationSeconds: flag('duration', 'BENCH_DURATION', 10),
    warmupSeconds: flag('warmup', 'BENCH_WARMUP', 2),
    minRatio: flag('min-ratio', 'BENCH_MIN_RATIO', 0.6),
  };
}

/** Forks the load generator against `target` and waits for its figures. */
function measure(target: BenchTarget, s: Settings): Promise<Measured> {
  const options: LoadOptions = {
    url: target.url, headers: target.headers, connections: s.connections, durationSeconds: s.durationSeconds, warmupSeconds: s.warmupSeconds,
  };
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./load-generator.ts', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let cpuAtStart = process.cpuUsage();
    let countersAtStart: Record<string, number> = {};
    child.on('message', (message: LoadMessage) => {
      if (message.type === 'measuring') {
        cpuAtStart = process.cpuUsage();
        countersAtStart = target.counters();
        return;
      }
      const cpu = process.cpuUsage(cpuAtStart);
      const now = target.counters();
      const counters = Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - (countersAtStart[k] ?? 0)]));
      resolve({ target, load: message.result, serverCpu: Math.round((cpu.user + cpu.system) / 1e4 / s.durationSeconds) / 100, counters });
    });
    child.on('error', reject);
    child.on('exit', (code) => { if (code !== 0) reject(new Error(`load generator exited with ${code}`)); });
    child.send(options);
  });
}

async function runOne(start: () => Promise<BenchTarget>, s: Settings): Promise<Measured> {
  const target = await start();
  try {
    console.log(`measuring ${target.label} (${s.connections} connections, ${s.warmupSeconds} s warm-up, ${s.durationSeconds} s) ...`);
    return await measure(target, s);
  } finally {
    await target.close();
  }
}

/** Microseconds of server CPU spent per answered request. */
function cpuPerRequest(r: Measured, s: Settings): number {
  return (r.serverCpu * s.durationSeconds * 1e6) / Math.max(1, r.load.requests);
}

function report(results: Measured[], s: Settings): boolean {
  const pct = (n: number) => `${Math.round(n * 100)}%`;
  console.log('');
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${new Date().toISOString()}`);
  console.log('| target | req/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx | errors | server CPU | server CPU µs/req | load-generator CPU |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const { target, load, serverCpu } = r;
    const l = load.latencyMs;
    console.log(`| ${target.label} | ${load.requestsPerSecond} | ${l.p50} | ${l.p90} | ${l.p99} | ${l.max} | ${load.non2xx} | ${load.errors} | `
      + `${pct(serverCpu)} | ${cpuPerRequest(r, s).toFixed(1)} | ${pct(load.clientCpu)} |`);
  }
  const [bare, app] = results as [Measured, Measured];
  const ratio = app.load.requestsPerSecond / bare.load.requestsPerSecond;
  // On a small machine the load generator can saturate its core before bare Koa saturates its own, which
  // flatters the req/s ratio; server CPU per request (= req/s per server core) does not depend on it.
  const cpuRatio = cpuPerRequest(bare, s) / cpuPerRequest(app, s);
  console.log('');
  console.log(`ratio of req/s (API / bare Koa): ${pct(ratio)} (target >= ${pct(s.minRatio)})`);
  console.log(`ratio of req/s per server core (bare Koa CPU per request / API CPU per request): ${pct(cpuRatio)}`
    + (cpuRatio < s.minRatio ? ' (below the target)' : ''));
  console.log(`during the measured window: API-key database reads ${app.counters['apiKeyDatabaseReads']} for ${app.load.requests} requests; `
    + `password hashes/verifies (argon2) ${app.counters['passwordHashes']}`);
  const failures = results.some((r) => r.load.non2xx > 0 || r.load.errors > 0);
  if (failures) console.log('FAILED: some requests did not answer 2xx');
  // The cache refreshes each key once per TTL; anything near one read per request means the cache is bypassed.
  const offDatabase = (app.counters['apiKeyDatabaseReads'] ?? 0) <= app.load.requests / 1000;
  if (!offDatabase) console.log('FAILED: the API-key path reads the database per request');
  const met = ratio >= s.minRatio;
  console.log(met ? 'req/s target met' : 'BELOW TARGET');
  return !failures && met && offDatabase && app.counters['passwordHashes'] === 0;
}

const s = settings();
if (process.argv.includes('--api-only')) {
  // For profiling the API alone: node --cpu-prof tests/bench/http-bench.ts --api-only
  const app = await runOne(startRealApp, s);
  console.log(JSON.stringify({ ...app.load, serverCpu: app.serverCpu, counters: app.counters }));
} else {
  const results = [await runOne(startBareKoa, s), await runOne(startRealApp, s)];
  process.exitCode = report(results, s) ? 0 : 1;
}
