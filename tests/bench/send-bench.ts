import { fork } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { startBareKoa } from './bench-targets.ts';
import { benchRecipient, type SendLoadKind, type SendLoadMessage, type SendLoadOptions, type SendLoadResult } from './send-load-generator.ts';
import { ensureBenchDatabase, machineBusy, measureDrain, startSendServer, type DrainResult, type SendServer } from './send-server.ts';

/**
 * `npm run bench:send`: the send pipeline on PostgreSQL, measured against a bare Koa hello-world in
 * the same run, with load from a forked process (keep-alive connections, closed loop): async single
 * sends (202), sync single sends (201, DELIVERED by the instant sandbox provider), async bulk sends of
 * 100 messages, then the worker draining N queued messages; with --embedded also async single sends
 * on the embedded default (PGlite in a temp dir). Each send phase uses a tenant of its own with a
 * sandbox API key, and a new recipient for every message.
 *
 * Settings: --duration=10 --warmup=2 --connections=50 --drain=20000 --embedded (or BENCH_DURATION,
 * BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_DRAIN, BENCH_EMBEDDED=1); the worker runs with the configured
 * WORKER_CONCURRENCY (default 25; --worker-concurrency=N sets it); --only=bare,async,sync,bulk,drain
 * runs some phases (profiling: node --cpu-prof tests/bench/send-bench.ts --only=async). DATABASE_URL
 * names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test); the bench works in
 * its own database `nkra_bench` there (created and migrated when missing, emptied at each start).
 * Exits 1 when an answer was unexpected, a count does not match, or a target is missed.
 */
interface Settings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  drain: number;
  embedded: boolean;
}

interface Phase {
  label: string;
  /** What the target counts: requests or messages per second. */
  unit: 'req' | 'sends' | 'messages';
  load: SendLoadResult;
  perRequest: number;
  serverCpu: number;
  machineCpu: number;
  target: number | null;
  /** Server-side check after the phase (null when it held). */
  problem: string | null;
}

function settings(): Settings {
  const concurrency = process.argv.find((a) => a.startsWith('--worker-concurrency='))?.split('=')[1];
  if (concurrency) process.env['WORKER_CONCURRENCY'] = concurrency; // read by loadConfig in send-server.ts
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
    drain: Math.floor(flag('drain', 'BENCH_DRAIN', 20_000)),
    embedded: process.argv.includes('--embedded') || process.env['BENCH_EMBEDDED'] === '1',
  };
}

type Generate = Omit<SendLoadOptions, 'connections' | 'durationSeconds' | 'warmupSeconds'>;

/** Forks the load generator and waits for its figures; CPU of this process and of the machine over the measured window. */
function generate(options: Generate, s: Settings): Promise<{ load: SendLoadResult; serverCpu: number; machineCpu: number }> {
  const full: SendLoadOptions = { ...options, connections: s.connections, durationSeconds: s.durationSeconds, warmupSeconds: s.warmupSeconds };
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./send-load-generator.ts', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let cpuAtStart = process.cpuUsage();
    let machineAtStart = os.cpus();
    child.on('message', (message: SendLoadMessage) => {
      if (message.type === 'measuring') { cpuAtStart = process.cpuUsage(); machineAtStart = os.cpus(); return; }
      const cpu = process.cpuUsage(cpuAtStart);
      resolve({ load: message.result, serverCpu: (cpu.user + cpu.system) / 1e6 / s.durationSeconds, machineCpu: machineBusy(machineAtStart, os.cpus()) });
    });
    child.on('error', reject);
    child.on('exit', (code) => { if (code !== 0) reject(new Error(`load generator exited with ${code}`)); });
    child.send(full);
  });
}

/** Where a tenant's recipients start; the velocity screen counts per organization, and every phase has a tenant of its own. */
function randomRecipientBase(): number {
  return Math.floor(Math.random() * 5_000_000);
}

async function bareKoa(s: Settings): Promise<Phase> {
  const target = await startBareKoa();
  try {
    console.log(`measuring bare Koa hello-world (${s.connections} connections, ${s.warmupSeconds} s warm-up, ${s.durationSeconds} s) ...`);
    const r = await generate({ url: target.url, headers: {}, kind: 'get', async: false, bulkSize: 0, recipientBase: 0, expectStatus: 200, expectBodyIncludes: null }, s);
    return { label: 'bare Koa 3 hello-world (GET)', unit: 'req', perRequest: 1, target: null, problem: null, ...r };
  } finally { await target.close(); }
}

interface SendPhase { label: string; kind: SendLoadKind; async: boolean; bulkSize: number; unit: Phase['unit']; target: number | null }

/** One phase on a tenant of its own; afterwards the database must hold exactly the messages the answers accepted. */
/**
 * One phase on a tenant of its own: the warm-up load, then VACUUM ANALYZE (see SendServer.vacuum:
 * statistics that know the tenant, as autovacuum would have them), then the measured load. Afterwards
 * the database must hold exactly the messages the answers accepted.
 */
async function sendPhase(server: SendServer, phase: SendPhase, s: Settings): Promise<Phase> {
  const { key, organizationId } = await server.newSandboxKey(phase.label.replace(/\W+/g, '-'));
  console.log(`measuring ${phase.label} (${s.connections} connections, ${s.warmupSeconds} s warm-up, ${s.durationSeconds} s) ...`);
  const base = randomRecipientBase();
  const options: Generate = {
    url: `${server.base}/messages/${phase.kind === 'bulk' ? 'bulk' : 'send'}`, headers: { 'x-api-key': key }, kind: phase.kind, async: phase.async,
    bulkSize: phase.bulkSize, recipientBase: base, expectStatus: phase.async ? 202 : 201, expectBodyIncludes: phase.async ? null : '"status":"DELIVERED"',
  };
  const warm = s.warmupSeconds > 0 ? (await generate(options, { ...s, durationSeconds: s.warmupSeconds, warmupSeconds: 0 })).load.acceptedTotal : 0;
  await server.vacuum();
  const r = await generate({ ...options, recipientBase: base + 5_000_000 }, { ...s, warmupSeconds: Math.min(s.warmupSeconds, 0.5) });
  const perRequest = phase.kind === 'bulk' ? phase.bulkSize : 1;
  const counts = await server.statusCounts(organizationId);
  const expected = (warm + r.load.acceptedTotal) * perRequest;
  const status = phase.async ? 'QUEUED' : 'DELIVERED';
  const stored = counts[status] ?? 0;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const problem = stored === expected && total === expected ? null
    : `expected ${expected} ${status} messages for ${warm + r.load.acceptedTotal} accepted requests, the database holds ${JSON.stringify(counts)}`;
  return { label: phase.label, unit: phase.unit, perRequest, target: phase.target, problem, ...r };
}

async function embedded(s: Settings): Promise<Phase> {
  const server = await startSendServer(null);
  try {
    return await sendPhase(server, { label: 'async single send, embedded PGlite', kind: 'single', async: true, bulkSize: 1, unit: 'sends', target: 150 }, s);
  } finally { await server.close(); }
}

function report(phases: Phase[], drain: DrainResult | null, s: Settings, pgVersion: string): boolean {
  const pct = (n: number) => `${Math.round(n * 100)}%`;
  const rate = (p: Phase) => p.load.requestsPerSecond * p.perRequest;
  console.log('');
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), PostgreSQL ${pgVersion} on the same machine, ${new Date().toISOString()}`);
  console.log(`command: npm run bench:send -- --connections=${s.connections} --duration=${s.durationSeconds} --warmup=${s.warmupSeconds} --drain=${s.drain}`
    + `${s.embedded ? ' --embedded' : ''} (WORKER_CONCURRENCY=${process.env['WORKER_CONCURRENCY'] ?? '25, the default'})`);
  console.log('');
  console.log('| phase | req/s | per second | target | p50 ms | p99 ms | max ms | unexpected | errors | server CPU | machine CPU |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  let ok = true;
  for (const p of phases) {
    const l = p.load.latencyMs;
    const met = p.target === null || rate(p) >= p.target;
    ok &&= met && p.load.non2xx === 0 && p.load.errors === 0 && p.problem === null;
    console.log(`| ${p.label} | ${p.load.requestsPerSecond} | ${rate(p).toLocaleString('en')} ${p.unit}/s | ${p.target === null ? '' : `>= ${p.target.toLocaleString('en')}${met ? '' : ' MISSED'}`} | `
      + `${l.p50} | ${l.p99} | ${l.max} | ${p.load.non2xx} | ${p.load.errors} | ${pct(p.serverCpu)} | ${pct(p.machineCpu)} |`);
  }
  if (drain) {
    const met = drain.messagesPerSecond >= 2_000;
    const clean = (drain.final['DELIVERED'] ?? 0) === drain.messages && (drain.jobs['completed'] ?? 0) === drain.messages;
    ok &&= met && clean;
    console.log(`| worker drain of ${drain.messages.toLocaleString('en')} queued messages | | ${drain.messagesPerSecond.toLocaleString('en')} messages/s | >= 2,000${met ? '' : ' MISSED'} `
      + `| | | | | | ${pct(drain.serverCpu)} | ${pct(drain.machineCpu)} |`);
    console.log('');
    console.log(`drain: queued through the bulk API in ${drain.enqueueSeconds.toFixed(1)} s, all DELIVERED ${drain.drainSeconds.toFixed(1)} s after the worker started; `
      + `messages ${JSON.stringify(drain.final)}, jobs ${JSON.stringify(drain.jobs)}${clean ? '' : ' (NOT CLEAN)'}`);
  }
  for (const p of phases) {
    if (p.problem) console.log(`FAILED ${p.label}: ${p.problem}`);
    if (p.load.firstUnexpected) console.log(`${p.label}: first unexpected answer: ${p.load.firstUnexpected}`);
  }
  const bare = phases.find((p) => p.unit === 'req');
  const single = phases.find((p) => p.label.startsWith('async single') && !p.label.includes('embedded'));
  if (bare && single) console.log(`async single sends/s vs bare Koa req/s: ${pct(single.load.requestsPerSecond / bare.load.requestsPerSecond)}`);
  console.log(ok ? 'all targets met' : 'BELOW TARGET or FAILED');
  return ok;
}

async function main(): Promise<void> {
  const s = settings();
  const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const only = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1]?.split(',') ?? null;
  const phases: Phase[] = !only || only.includes('bare') ? [await bareKoa(s)] : [];
  const server = await startSendServer(await ensureBenchDatabase(serverUrl));
  let drain: DrainResult | null = null;
  let pgVersion = '';
  try {
    const [row] = await server.infra.database.em().execute<{ v: string }[]>(`select current_setting('server_version') as v`);
    pgVersion = row?.v ?? '';
    const all: Array<SendPhase & { key: string }> = [
      { key: 'async', label: 'async single send', kind: 'single', async: true, bulkSize: 1, unit: 'sends', target: 1_500 },
      { key: 'sync', label: 'sync single send (sandbox, DELIVERED)', kind: 'single', async: false, bulkSize: 1, unit: 'sends', target: null },
      { key: 'bulk', label: 'async bulk send, 100 per request', kind: 'bulk', async: true, bulkSize: 100, unit: 'messages', target: 10_000 },
    ];
    for (const phase of all) if (!only || only.includes(phase.key)) phases.push(await sendPhase(server, phase, s));
    if (s.drain > 0 && (!only || only.includes('drain'))) {
      console.log(`measuring the worker drain of ${s.drain} queued messages ...`);
      drain = await measureDrain(server, s.drain, randomRecipientBase(), benchRecipient);
    }
  } finally { await server.close(); }
  if (s.embedded) phases.push(await embedded(s));
  process.exitCode = report(phases, drain, s, pgVersion) ? 0 : 1;
}

await main();
