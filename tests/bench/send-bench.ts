import os from 'node:os';
import { startBareKoa } from './bench-targets.ts';
import { benchRecipient, type SendLoadKind, type SendLoadResult } from './send-load-generator.ts';
import { generate, type Generate } from './send-load-runner.ts';
import { ensureBenchDatabase, measureDrain, startSendServer, type DrainResult } from './send-server.ts';
import { PgActivitySampler } from './pg-activity-sampler.ts';
import { newTenant, startBenchService, type BenchService, type BenchTenant } from './send-service.ts';
import { startTracing } from '../../hosts/tracing.ts';

/**
 * `npm run bench:send`: the send paths integrations take, on PostgreSQL, against the service exactly as
 * `npm start` runs it (a child process with the API and the worker, delivering while the load runs),
 * with load from a forked process (keep-alive connections, closed loop, a new recipient per message):
 *
 * - the reference: sandbox API key, async, no idempotency key (what earlier versions measured);
 * - live API key (charged from a wallet topped up through the sandbox checkout) with an idempotency key
 *   on every request, as the client libraries send it: async, sync, and bulk of 100;
 * - the dashboard: JWT (Bearer + X-Organization-Id), live, sync, with an idempotency key;
 * - ten tenants at once (live, keyed, async), the connections spread over them;
 * - sandbox sync sends, the reference of live sync ones;
 * then the worker drain of N queued messages (in-process worker started after the enqueue) and, with
 * --embedded, async single sends on the embedded default (PGlite). Ratios are printed against the
 * references of the same run. Every send phase checks the database afterwards: exactly the accepted
 * messages, none refused, and every live wallet's balance = its ledger, its debits = its messages' costs.
 *
 * Settings: --duration=10 --warmup=2 --connections=50 --drain=20000 --embedded (or BENCH_DURATION,
 * BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_DRAIN, BENCH_EMBEDDED=1); --worker-concurrency=N; --sample-activity prints
 * pg_stat_activity samples (state, wait event, query) of each send phase;
 * --only=bare,ref-async,live-async,prefs,ref-sync,live-sync,jwt,tenants,bulk,drain runs some phases.
 * DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test); the bench
 * works in its own database `nkra_bench` there (BENCH_DATABASE; created and migrated when missing,
 * emptied at each start). With the OTEL_* variables set, the service and the drain trace (docs/observability.md). Exits 1 when an answer was unexpected, a count does not match, or a target is missed.
 */
interface Settings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  drain: number;
  embedded: boolean;
  /** Print what PostgreSQL's backends were doing during each send phase (pg_stat_activity samples). */
  sampleActivity: boolean;
}

interface Phase {
  key: string;
  label: string;
  /** What the target counts: requests or messages per second. */
  unit: 'req' | 'sends' | 'messages';
  load: SendLoadResult;
  perRequest: number;
  serverCpu: number;
  machineCpu: number;
  target: number | null;
  reference: { key: string; ratio: number } | null;
  /** Server-side check after the phase (null when it held). */
  problem: string | null;
}

function settings(): Settings {
  const concurrency = process.argv.find((a) => a.startsWith('--worker-concurrency='))?.split('=')[1];
  if (concurrency) process.env['WORKER_CONCURRENCY'] = concurrency; // read by loadConfig (in-process drain) and the service's environment
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
    sampleActivity: process.argv.includes('--sample-activity'),
  };
}

/** Where a tenant's recipients start; the velocity screen counts per organization, and every phase has tenants of its own. */
function randomRecipientBase(): number {
  return Math.floor(Math.random() * 5_000_000);
}

async function bareKoa(s: Settings): Promise<Phase> {
  const target = await startBareKoa();
  try {
    console.log(`measuring bare Koa hello-world (${s.connections} connections, ${s.warmupSeconds} s warm-up, ${s.durationSeconds} s) ...`);
    const r = await generate({ url: target.url, headers: {}, kind: 'get', async: false, bulkSize: 0, recipientBase: 0, expectStatus: 200, expectBodyIncludes: null }, s);
    return { key: 'bare', label: 'bare Koa 3 hello-world (GET)', unit: 'req', perRequest: 1, target: null, reference: null, problem: null, ...r };
  } finally { await target.close(); }
}

interface SendPhase {
  key: string;
  label: string;
  kind: SendLoadKind;
  async: boolean;
  bulkSize: number;
  unit: Phase['unit'];
  /** Which credentials: a sandbox or live API key, or the dashboard's JWT. */
  auth: 'sandbox' | 'live' | 'jwt';
  idempotency: boolean;
  /** Tenants sending at once (the connections are spread over them). */
  tenants: number;
  target: number | null;
  /** The phase whose rate this one is compared with, and the least ratio that meets the target. */
  reference?: { key: string; ratio: number };
  /** The sends' category (docs/consent.md). */
  category?: string;
  /**
   * Seed every recipient of the phase with category opt-outs that do not block its sends (MARKETING and
   * ALERT on SMS, REMINDER on WhatsApp): the preference check finds and weighs them on every send.
   */
  preferenceEntries?: boolean;
}

/**
 * One phase on tenants of its own (fresh, funded through the sandbox checkout): the warm-up load, then
 * VACUUM ANALYZE (statistics that know the tenant, as autovacuum would have them), then the measured
 * load. Afterwards the database must hold exactly the messages the answers accepted, none refused, and
 * every live tenant's money must add up (balance = ledger sum, debits = the messages' costs).
 */
async function sendPhase(service: BenchService, phase: SendPhase, s: Settings): Promise<Phase> {
  const tenants: BenchTenant[] = [];
  for (let i = 0; i < phase.tenants; i += 1) tenants.push(await service.newTenant(`${phase.key}-${i}`, phase.auth === 'sandbox' ? 0 : 50_000));
  console.log(`measuring ${phase.label} (${s.connections} connections, ${s.warmupSeconds} s warm-up, ${s.durationSeconds} s) ...`);
  const base = randomRecipientBase();
  const targets = tenants.map((t) => t[phase.auth]);
  if (phase.preferenceEntries) for (const t of tenants) await seedPreferences(service, t.organizationId, base);
  const status = !phase.async ? (phase.auth === 'sandbox' ? '"status":"DELIVERED"' : '"status":"SENT"') : null;
  const options: Generate = {
    url: `${service.base}/messages/${phase.kind === 'bulk' ? 'bulk' : 'send'}`, headers: targets[0]!, targets, kind: phase.kind, async: phase.async,
    idempotency: phase.idempotency, bulkSize: phase.bulkSize, recipientBase: base, expectStatus: phase.async ? 202 : 201, expectBodyIncludes: status,
    category: phase.category,
  };
  const warm = s.warmupSeconds > 0 ? (await generate(options, { ...s, durationSeconds: s.warmupSeconds, warmupSeconds: 0 }, service)).load.acceptedTotal : 0;
  await service.vacuum();
  const sampler = s.sampleActivity ? new PgActivitySampler(service.db) : null;
  sampler?.start();
  const r = await generate({ ...options, recipientBase: base + 5_000_000 }, { ...s, warmupSeconds: Math.min(s.warmupSeconds, 0.5) }, service);
  if (sampler) console.log(`pg_stat_activity during ${phase.label}:\n  ${(await sampler.stop()).join('\n  ')}`);
  const perRequest = phase.kind === 'bulk' ? phase.bulkSize : 1;
  const ids = tenants.map((t) => t.organizationId);
  const counts = await service.statusCounts(ids);
  const expected = (warm + r.load.acceptedTotal) * perRequest;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const refused = (counts['REJECTED'] ?? 0) + (counts['FAILED'] ?? 0);
  let problem = total === expected && refused === 0 ? null
    : `expected ${expected} messages for ${warm + r.load.acceptedTotal} accepted requests, none refused; the database holds ${JSON.stringify(counts)}`;
  if (phase.auth !== 'sandbox') {
    for (const id of ids) {
      const m = await service.money(id);
      if (m.balance !== m.ledger || m.debits !== m.charged || m.balance < 0) problem ??= `money does not add up for ${id}: ${JSON.stringify(m)}`;
    }
  }
  return { key: phase.key, label: phase.label, unit: phase.unit, perRequest, target: phase.target, reference: phase.reference ?? null, problem, ...r };
}

/** Recipients seeded per range (warm-up and measured load each start a range): more than a phase sends. */
const SEEDED_RECIPIENTS = 40_000;

/** Three category opt-outs per recipient of both load ranges, none blocking a REMINDER SMS (240,000 rows). */
async function seedPreferences(service: BenchService, organizationId: string, base: number): Promise<void> {
  await service.db.em().execute(`insert into suppressions (id, organization_id, phone, email, channel, category, reason, created_at)
    select gen_random_uuid()::text, ?, '+23324' || lpad(((? + r.start + n) % 10000000)::text, 7, '0'), null, v.channel, v.category, 'bench', now()
    from (values (0), (5000000)) r (start) cross join generate_series(0, ? - 1) n
    cross join (values ('SMS', 'MARKETING'), ('SMS', 'ALERT'), ('WHATSAPP', 'REMINDER')) v (channel, category)`, [organizationId, base, SEEDED_RECIPIENTS]);
}

/**
 * Async single sends on the embedded default (PGlite in a temp dir, the API in this process, no worker),
 * live key with an idempotency key, wallet paid through the sandbox checkout: the zero-setup floor.
 */
async function embedded(s: Settings): Promise<Phase> {
  const server = await startSendServer(null);
  try {
    const tenant = await newTenant(server.base, 'embedded', 50_000);
    console.log(`measuring async single send, embedded PGlite (${s.connections} connections, ${s.durationSeconds} s) ...`);
    const options: Generate = { url: `${server.base}/messages/send`, headers: tenant.live, kind: 'single', async: true, bulkSize: 1, idempotency: true,
      recipientBase: randomRecipientBase(), expectStatus: 202, expectBodyIncludes: null };
    const r = await generate(options, s);
    const counts = await server.statusCounts(tenant.organizationId);
    const problem = (counts['QUEUED'] ?? 0) === r.load.acceptedTotal ? null : `expected ${r.load.acceptedTotal} QUEUED, found ${JSON.stringify(counts)}`;
    return { key: 'embedded', label: 'async single, live key + idempotency key, embedded PGlite', unit: 'sends', perRequest: 1, target: 150, reference: null, problem, ...r };
  } finally { await server.close(); }
}

const PHASES: SendPhase[] = [
  { key: 'ref-async', label: 'reference: async single, sandbox key, no idempotency key', kind: 'single', async: true, bulkSize: 1, unit: 'sends', auth: 'sandbox', idempotency: false, tenants: 1, target: null },
  { key: 'live-async', label: 'async single, live key + idempotency key', kind: 'single', async: true, bulkSize: 1, unit: 'sends', auth: 'live', idempotency: true, tenants: 1, target: 1_500, reference: { key: 'ref-async', ratio: 0.8 } },
  { key: 'prefs', label: 'async single, live key + idempotency key, REMINDER to recipients with 3 category opt-outs each (preference check)', kind: 'single', async: true, bulkSize: 1, unit: 'sends', auth: 'live', idempotency: true, tenants: 1, target: null, reference: { key: 'live-async', ratio: 0.9 }, category: 'REMINDER', preferenceEntries: true },
  { key: 'tenants', label: '10 tenants at once: async single, live key + idempotency key', kind: 'single', async: true, bulkSize: 1, unit: 'sends', auth: 'live', idempotency: true, tenants: 10, target: null, reference: { key: 'live-async', ratio: 0.9 } },
  { key: 'ref-sync', label: 'reference: sync single, sandbox key, no idempotency key', kind: 'single', async: false, bulkSize: 1, unit: 'sends', auth: 'sandbox', idempotency: false, tenants: 1, target: null },
  { key: 'live-sync', label: 'sync single, live key + idempotency key', kind: 'single', async: false, bulkSize: 1, unit: 'sends', auth: 'live', idempotency: true, tenants: 1, target: null, reference: { key: 'ref-sync', ratio: 0.8 } },
  { key: 'jwt', label: 'dashboard (JWT): sync single, live + idempotency key', kind: 'single', async: false, bulkSize: 1, unit: 'sends', auth: 'jwt', idempotency: true, tenants: 1, target: null, reference: { key: 'ref-sync', ratio: 0 } },
  { key: 'bulk', label: 'async bulk of 100, live key + idempotency key (worker delivering meanwhile)', kind: 'bulk', async: true, bulkSize: 100, unit: 'messages', auth: 'live', idempotency: true, tenants: 1, target: null },
];

function report(phases: Phase[], drain: DrainResult | null, s: Settings, pgVersion: string): boolean {
  const pct = (n: number) => `${Math.round(n * 100)}%`;
  const rate = (p: Phase) => p.load.requestsPerSecond * p.perRequest;
  const byKey = new Map(phases.map((p) => [p.key, p]));
  console.log('');
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), PostgreSQL ${pgVersion} on the same machine, ${new Date().toISOString()}`);
  console.log(`command: npm run bench:send -- --connections=${s.connections} --duration=${s.durationSeconds} --warmup=${s.warmupSeconds} --drain=${s.drain}`
    + `${s.embedded ? ' --embedded' : ''} (WORKER_CONCURRENCY=${process.env['WORKER_CONCURRENCY'] ?? '25, the default'})`);
  console.log('');
  console.log('| phase | req/s | per second | target | ratio | p50 ms | p99 ms | max ms | unexpected | errors | server CPU | machine CPU |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  let ok = true;
  for (const p of phases) {
    const l = p.load.latencyMs;
    const ref = p.reference ? byKey.get(p.reference.key) : undefined;
    const ratio = ref && rate(ref) > 0 ? rate(p) / rate(ref) : null;
    const met = (p.target === null || rate(p) >= p.target) && (ratio === null || ratio >= p.reference!.ratio);
    const least = p.reference && p.reference.ratio > 0 ? `>= ${pct(p.reference.ratio)} of ${p.reference.key}` : null;
    ok &&= met && p.load.non2xx === 0 && p.load.errors === 0 && p.problem === null;
    const targets = [p.target === null ? null : `>= ${p.target.toLocaleString('en')}`, least].filter(Boolean).join(', ');
    console.log(`| ${p.label} | ${p.load.requestsPerSecond} | ${rate(p).toLocaleString('en')} ${p.unit}/s | ${targets}${met ? '' : ' MISSED'} | ${ratio === null ? '' : pct(ratio)} | `
      + `${l.p50} | ${l.p99} | ${l.max} | ${p.load.non2xx} | ${p.load.errors} | ${pct(p.serverCpu)} | ${pct(p.machineCpu)} |`);
  }
  if (drain) {
    const met = drain.messagesPerSecond >= 2_000;
    const clean = (drain.final['DELIVERED'] ?? 0) === drain.messages && (drain.jobs['completed'] ?? 0) === drain.messages;
    ok &&= met && clean;
    console.log(`| worker drain of ${drain.messages.toLocaleString('en')} queued messages | | ${drain.messagesPerSecond.toLocaleString('en')} messages/s | >= 2,000${met ? '' : ' MISSED'} `
      + `| | | | | | | ${pct(drain.serverCpu)} | ${pct(drain.machineCpu)} |`);
    console.log('');
    console.log(`drain: queued through the bulk API in ${drain.enqueueSeconds.toFixed(1)} s, all DELIVERED ${drain.drainSeconds.toFixed(1)} s after the worker started; `
      + `messages ${JSON.stringify(drain.final)}, jobs ${JSON.stringify(drain.jobs)}${clean ? '' : ' (NOT CLEAN)'}`);
  }
  for (const p of phases) {
    if (p.problem) console.log(`FAILED ${p.label}: ${p.problem}`);
    if (p.load.firstUnexpected) console.log(`${p.label}: first unexpected answer: ${p.load.firstUnexpected}`);
  }
  console.log(ok ? 'all targets met' : 'BELOW TARGET or FAILED');
  return ok;
}

async function main(): Promise<void> {
  const s = settings();
  // With OTEL_* variables (docs/observability.md) the in-process drain traces too; the service child inherits them.
  const tracing = await startTracing();
  const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const only = process.argv.find((a) => a.startsWith('--only='))?.split('=')[1]?.split(',') ?? null;
  const phases: Phase[] = !only || only.includes('bare') ? [await bareKoa(s)] : [];
  const databaseUrl = await ensureBenchDatabase(serverUrl);
  const chosen = PHASES.filter((p) => !only || only.includes(p.key));
  let pgVersion = '';
  if (chosen.length > 0) {
    const service = await startBenchService(databaseUrl, process.env['WORKER_CONCURRENCY'] ? { WORKER_CONCURRENCY: process.env['WORKER_CONCURRENCY'] } : {});
    try {
      const [row] = await service.db.em().execute<{ v: string }[]>(`select current_setting('server_version') as v`);
      pgVersion = row?.v ?? '';
      for (const phase of chosen) phases.push(await sendPhase(service, phase, s));
    } finally { await service.close(); }
  }
  let drain: DrainResult | null = null;
  if (s.drain > 0 && (!only || only.includes('drain'))) {
    const server = await startSendServer(databaseUrl);
    try {
      console.log(`measuring the worker drain of ${s.drain} queued messages ...`);
      drain = await measureDrain(server, s.drain, randomRecipientBase(), benchRecipient);
    } finally { await server.close(); }
  }
  if (s.embedded) phases.push(await embedded(s));
  process.exitCode = report(phases, drain, s, pgVersion) ? 0 : 1;
  await tracing?.shutdown();
}

await main();
