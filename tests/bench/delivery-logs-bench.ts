import os from 'node:os';
import { openDatabase, type Database } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { MikroOrmMessageRepository } from '../../adapters/postgres/mikro-orm-message-repository.ts';
import { SystemClock } from '../../adapters/memory/system-clock.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { ExportDeliveryLogs } from '../../core/use-cases/delivery-logs/export-delivery-logs.ts';
import { ListDeliveryLogs } from '../../core/use-cases/delivery-logs/list-delivery-logs.ts';
import { openBenchDatabase, openPartitionedDataset, PARTITIONED_MAIN_ORG } from './partitioned-dataset.ts';

/**
 * `npm run bench:logs`: delivery log list and CSV export on PostgreSQL with 1,000,000 logs in one
 * organization (plus 200,000 in two others), through the use cases and the MikroORM repository.
 * Target (issue 3): list p95 < 50 ms for any page and filter; a 10,000-row export < 1 s.
 *
 * It works in its own database, `nkra_bench_logs` on the server of DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test), created and migrated if missing and seeded once; the
 * test database is never touched. --runs=50, --fresh re-seeds, --drop drops the database at the end.
 * Exits 1 when a target is missed.
 *
 * --partitioned (issue 21): the same scenarios, run by run in turn, on the 1,000,000-log reference at the schema
 * before partitioning (`bench_scale_logs_1m`) and on 10,000,000 logs in 12 monthly partitions
 * (`bench_scale_10m`, tests/bench/partitioned-dataset.ts), in --rounds=5 rounds over all scenarios; target:
 * every p95 <= 110 % of the reference's (the median of the rounds' ratios).
 */
const MAIN_ORG = 'bench-logs-main';
const OTHER_ORGS = ['bench-logs-other-1', 'bench-logs-other-2'];
const MAIN_ROWS = 1_000_000;
const OTHER_ROWS = 100_000;
const PARTITIONED = process.argv.includes('--partitioned');
const BENCH_DB = PARTITIONED ? 'bench_scale_logs_1m' : 'nkra_bench_logs';

/** `--name=value` -> value, `--name` -> 'true', absent -> undefined. */
function arg(name: string): string | undefined {
  const found = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return found === undefined ? undefined : (found.split('=')[1] ?? 'true');
}
const RUNS = Number(arg('runs') ?? 50);
/** --partitioned: rounds over every scenario; each figure is the median of its rounds. */
const ROUNDS = Number(arg('rounds') ?? 5);

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function ensureBenchDatabase(baseUrl: string): Promise<void> {
  const maintenance = await openDatabase({ databaseUrl: withDatabase(baseUrl, 'postgres'), poolSize: 1 });
  try {
    const found = await maintenance.em().execute<{ n: number }[]>('select 1 as n from pg_database where datname = ?', [BENCH_DB]);
    if (found.length === 0) await maintenance.em().execute(`create database ${BENCH_DB}`);
  } finally { await maintenance.close(); }
}

async function dropBenchDatabase(baseUrl: string): Promise<void> {
  const maintenance = await openDatabase({ databaseUrl: withDatabase(baseUrl, 'postgres'), poolSize: 1 });
  try { await maintenance.em().execute(`drop database if exists ${BENCH_DB}`); } finally { await maintenance.close(); }
}

/** One INSERT ... SELECT per organization: statuses and channels drawn with a fixed seed, one log every 2 s. */
async function seed(database: Database): Promise<void> {
  const [row] = await database.em().execute<{ n: string }[]>('select count(*) as n from messages where organization_id = ?', [MAIN_ORG]);
  if (Number(row?.n) === MAIN_ROWS && arg('fresh') === undefined) { console.log('seed: reusing the seeded database'); return; }
  const started = performance.now();
  await database.em().transactional(async (em) => {
    await em.execute(`delete from organizations where id like 'bench-logs-%'`);
    for (const id of [MAIN_ORG, ...OTHER_ORGS]) {
      await em.execute(`insert into organizations (id, name, timezone, default_language, created_at, updated_at) values (?, ?, 'Africa/Accra', 'en', now(), now())`, [id, id]);
    }
    await em.execute('select setseed(0.42)');
    const orgs: Array<[string, number, number]> = [[MAIN_ORG, MAIN_ROWS, 0], [OTHER_ORGS[0]!, OTHER_ROWS, 1], [OTHER_ORGS[1]!, OTHER_ROWS, 3]];
    for (const [org, rows, shift] of orgs) await em.execute(SEED_SQL, [org, rows === MAIN_ROWS ? 2 : 20, shift, rows]);
  });
  console.log(`seed: ${MAIN_ROWS + 2 * OTHER_ROWS} logs inserted in ${((performance.now() - started) / 1000).toFixed(1)} s; vacuum analyze ...`);
  await database.em().execute('vacuum analyze messages');
}

const SEED_SQL = `
insert into messages (id, organization_id, internal_message_id, channel, recipient, country, subject, body, template_id, status, error_code,
  error_message, cost, price, segments, encoding, is_sandbox, api_key_id, user_id, sender_id, provider, provider_message_id, attempts,
  lease_until, created_at, updated_at, sent_at, delivered_at, failed_at)
select (lpad(to_hex((extract(epoch from t) * 1000)::bigint), 12, '0') || substr(md5(org || i), 1, 20))::uuid::text, org,
  md5('internal' || org || i)::uuid::text, channel,
  case channel when 'EMAIL' then 'user' || (i % 50000) || '@example.com' when 'PUSH' then 'fcm-' || md5(i::text)
    else '+23324' || lpad(((i * 37) % 10000000)::text, 7, '0') end,
  case when channel in ('EMAIL', 'PUSH') then null else 'GH' end, null,
  'Your Nkra code is ' || lpad((i % 1000000)::text, 6, '0') || '. It expires in 10 minutes; do not share it.', null, status,
  case status when 'FAILED' then 'PROVIDER_REJECTED' when 'REJECTED' then 'FRAUD_RECIPIENT_VELOCITY' end,
  case status when 'FAILED' then 'Rejected by carrier, "invalid destination"' when 'REJECTED' then 'Too many messages to this recipient' end,
  case when status in ('FAILED', 'REJECTED') then 0 else 5 end, 5, 1, case when channel = 'SMS' then 'GSM-7' end, false, null, null, null,
  case when status in ('QUEUED', 'PENDING', 'REJECTED') then null else 'sandbox' end, null, 1, null, t, t,
  case when status in ('SENT', 'DELIVERED', 'FAILED') then t + interval '1 second' end,
  case when status = 'DELIVERED' then t + interval '3 seconds' end, case when status = 'FAILED' then t + interval '2 seconds' end
from (
  select i, ?::text as org, timestamptz '2026-01-01 00:00:00Z' + (i * ?::int + ?::int) * interval '1 second' as t,
    case when rs < 0.82 then 'DELIVERED' when rs < 0.90 then 'SENT' when rs < 0.95 then 'FAILED' when rs < 0.975 then 'QUEUED'
      when rs < 0.9995 then 'REJECTED' else 'PENDING' end as status,
    case when rc < 0.70 then 'SMS' when rc < 0.82 then 'WHATSAPP' when rc < 0.92 then 'EMAIL' when rc < 0.98 then 'PUSH' else 'VOICE' end as channel
  from (select i, random() as rs, random() as rc from generate_series(1, ?::int) as g(i)) drawn
) rows`;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

interface Figure { scenario: string; p50: number; p95: number; max: number; detail: string }

/** Enough runs for every pooled connection to have planned the scenario's statements (2 per run, 10 connections). */
const WARM_UP_RUNS = 30;

async function timeRuns(scenario: string, runs: number, run: (i: number) => Promise<string>): Promise<Figure> {
  // Warm-up: each of the pool's 10 connections plans each statement (and PL/pgSQL function branch) once, on first
  // use, as a long-running process's connections have long done; 3 warm-up runs left most connections cold.
  for (let i = 0; i < WARM_UP_RUNS; i++) await run(i);
  const times: number[] = [];
  let detail = '';
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    detail = await run(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { scenario, p50: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1] ?? NaN, detail };
}

/**
 * Two runners timed in turn, run by run (a, b, a, b ...) after both warmed up: both see the same
 * moments of the machine, so a burst of load elsewhere lands on both sides instead of on one
 * scenario's whole series.
 */
async function timeRunsInTurn(scenario: string, runs: number, a: (i: number) => Promise<string>, b: (i: number) => Promise<string>): Promise<[Figure, Figure]> {
  for (let i = 0; i < WARM_UP_RUNS; i++) { await a(i); await b(i); }
  const times: [number[], number[]] = [[], []];
  const details = ['', ''];
  for (let i = 0; i < runs; i++) {
    for (const [k, run] of [a, b].entries()) {
      const started = performance.now();
      details[k] = await run(i);
      times[k]!.push(performance.now() - started);
    }
  }
  const figure = (k: number): Figure => {
    const sorted = times[k]!.sort((x, y) => x - y);
    return { scenario, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1] ?? NaN, detail: details[k]! };
  };
  return [figure(0), figure(1)];
}

/** The list and export scenarios of one organization's logs, as runners. */
function scenariosOf(database: Database, org: string): { lists: Array<[string, (i: number) => Promise<string>]>; exports: Array<[string, (i: number) => Promise<string>]> } {
  const storage = { get messages() { return new MikroOrmMessageRepository(database.em()); } } as Pick<Storage, 'messages'>;
  const list = new ListDeliveryLogs({ storage });
  const exporter = new ExportDeliveryLogs({ storage, clock: new SystemClock() });
  const page = (query: Record<string, string>) => async () => {
    const result = await list.execute(org, query);
    return `${result.items.length} items, total ${result.total}${result.totalIsExact ? '' : '+'}`;
  };
  const csv = (query: Record<string, string>) => async () => {
    const result = await exporter.execute(org, query);
    let bytes = 0; let rows = 0;
    for await (const chunk of result.chunks) { bytes += Buffer.byteLength(chunk); rows += chunk.split('\r\n').length - 1; }
    return `${rows - 1} rows, ${(bytes / 1024).toFixed(0)} KiB, truncated ${result.truncated}`;
  };
  return {
    lists: [
      ['page 1 (limit 20)', page({})],
      ['page 50 (limit 20)', page({ page: '50' })],
      ['page 500, the deepest (limit 20)', page({ page: '500' })],
      ['page 100, the deepest (limit 100)', page({ page: '100', limit: '100' })],
      ['status=FAILED', page({ status: 'FAILED' })],
      ['channel=VOICE', page({ channel: 'VOICE' })],
      ['status=FAILED, channel=VOICE', page({ status: 'FAILED', channel: 'VOICE' })],
      ['status=FAILED, channel=VOICE, page 10', page({ status: 'FAILED', channel: 'VOICE', page: '10' })],
      ['status=PENDING (rare)', page({ status: 'PENDING' })],
      ['status=PENDING, channel=VOICE (rarer)', page({ status: 'PENDING', channel: 'VOICE' })],
      ['status=DELIVERED, channel=SMS, page 400', page({ status: 'DELIVERED', channel: 'SMS', page: '400' })],
      ['random page 1-500 and filters', (i) => page(randomQuery(i))()],
    ],
    exports: [
      ['export, newest 10,000', csv({})],
      ['export, channel=VOICE (newest 10,000)', csv({ channel: 'VOICE' })],
    ],
  };
}

/** --partitioned: each scenario on the 1,000,000-log reference, then on the 10,000,000 partitioned logs, in turn. */
async function comparePartitioned(): Promise<void> {
  const reference = await openBenchDatabase(BENCH_DB, { beforePartitioning: true });
  await seed(reference);
  if (process.argv.includes('--seed-reference-only')) { await reference.close(); return; }
  const partitioned = await openPartitionedDataset();
  let worst = 0;
  try {
    const a = scenariosOf(reference, MAIN_ORG);
    const b = scenariosOf(partitioned, PARTITIONED_MAIN_ORG);
    const all = [...a.lists.map((x, i) => [x, b.lists[i]!, RUNS] as const), ...a.exports.map((x, i) => [x, b.exports[i]!, Math.max(5, Math.floor(RUNS / 5))] as const)];
    // Rounds over every scenario in turn, so each scenario's rounds are spread over the whole run: the figure
    // of a scenario is the median of its rounds, which a burst of load elsewhere during one round cannot move.
    const rounds: Array<Array<[Figure, Figure]>> = all.map(() => []);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [k, [[name, runA], [, runB], runs]] of all.entries()) {
        const [fa, fb] = await timeRunsInTurn(name, runs, runA, runB);
        rounds[k]!.push([fa, fb]);
        console.log(`round ${round}/${ROUNDS} | ${name} | ${fa.p50.toFixed(1)} | ${fa.p95.toFixed(1)} | ${fb.p50.toFixed(1)} | ${fb.p95.toFixed(1)} | ${(fb.p95 / fa.p95 * 100).toFixed(0)} % |`);
      }
    }
    const rows = all.map(([[name]], k) => {
      const mine = rounds[k]!;
      const med = (pick: (f: [Figure, Figure]) => number) => median(mine.map(pick));
      const ratios = mine.map(([fa, fb]) => fb.p95 / fa.p95);
      const ratio = median(ratios);
      worst = Math.max(worst, ratio);
      const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
      return `| ${name} | ${med(([fa]) => fa.p50).toFixed(1)} | ${med(([fa]) => fa.p95).toFixed(1)} | ${med(([, fb]) => fb.p50).toFixed(1)} | ${med(([, fb]) => fb.p95).toFixed(1)} | ${pct(ratio)} | ${pct(Math.min(...ratios))}-${pct(Math.max(...ratios))} | ${mine[mine.length - 1]![1].detail} |`;
    });
    const [load] = os.loadavg();
    console.log(`\nNode ${process.version}, ${os.cpus().length} CPUs, load average ${load?.toFixed(1)}; ${ROUNDS} rounds of ${RUNS} runs per list scenario (${WARM_UP_RUNS} warm-ups), the two databases in turn, run by run; medians of the rounds; ${new Date().toISOString()}`);
    console.log('| scenario | 1M p50 ms | 1M p95 ms | 10M partitioned p50 ms | 10M partitioned p95 ms | p95 ratio | ratio per round | 10M result |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---|');
    for (const r of rows) console.log(r);
    console.log(`\ntarget: every p95 <= 110 % of the 1,000,000-log reference (worst ${(worst * 100).toFixed(0)} %)`);
  } finally {
    await reference.close();
    await partitioned.close();
  }
  if (worst > 1.1) { console.error('target missed'); process.exitCode = 1; }
}

async function main(): Promise<void> {
  if (PARTITIONED) { await comparePartitioned(); return; }
  const baseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  await ensureBenchDatabase(baseUrl);
  const database = await openDatabase({ databaseUrl: withDatabase(baseUrl, BENCH_DB), poolSize: 10, statementTimeoutMs: 600_000 });
  const figures: Figure[] = [];
  let missed = false;
  try {
    await migrate(database);
    await seed(database);
    const storage = { get messages() { return new MikroOrmMessageRepository(database.em()); } } as Pick<Storage, 'messages'>;
    const list = new ListDeliveryLogs({ storage });
    const exporter = new ExportDeliveryLogs({ storage, clock: new SystemClock() });
    const page = (query: Record<string, string>) => async () => {
      const result = await list.execute(MAIN_ORG, query);
      return `${result.items.length} items, total ${result.total}${result.totalIsExact ? '' : '+'}`;
    };
    const scenarios: Array<[string, (i: number) => Promise<string>]> = [
      ['page 1 (limit 20)', page({})],
      ['page 50 (limit 20)', page({ page: '50' })],
      ['page 500, the deepest (limit 20)', page({ page: '500' })],
      ['page 100, the deepest (limit 100)', page({ page: '100', limit: '100' })],
      ['status=FAILED', page({ status: 'FAILED' })],
      ['channel=VOICE', page({ channel: 'VOICE' })],
      ['status=FAILED, channel=VOICE', page({ status: 'FAILED', channel: 'VOICE' })],
      ['status=FAILED, channel=VOICE, page 10', page({ status: 'FAILED', channel: 'VOICE', page: '10' })],
      ['status=PENDING (rare)', page({ status: 'PENDING' })],
      ['status=PENDING, channel=VOICE (rarer)', page({ status: 'PENDING', channel: 'VOICE' })],
      ['status=DELIVERED, channel=SMS, page 400', page({ status: 'DELIVERED', channel: 'SMS', page: '400' })],
    ];
    for (const [name, run] of scenarios) figures.push(await timeRuns(name, RUNS, run));
    figures.push(await timeRuns(`random page 1-500 and filters (${RUNS * 4} runs)`, RUNS * 4, (i) => page(randomQuery(i))()));
    const exportRuns = Math.max(5, Math.floor(RUNS / 5));
    const csv = (query: Record<string, string>) => async () => {
      const result = await exporter.execute(MAIN_ORG, query);
      let bytes = 0; let rows = 0;
      for await (const chunk of result.chunks) { bytes += Buffer.byteLength(chunk); rows += chunk.split('\r\n').length - 1; }
      return `${rows - 1} rows, ${(bytes / 1024).toFixed(0)} KiB, truncated ${result.truncated}`;
    };
    const exports = [
      await timeRuns('export, newest 10,000 of 1,000,000', exportRuns, csv({})),
      await timeRuns('export, channel=VOICE (newest 10,000 of 20,000)', exportRuns, csv({ channel: 'VOICE' })),
    ];
    missed = await report(database, figures, exports);
  } finally {
    await database.close();
    if (arg('drop') !== undefined) await dropBenchDatabase(baseUrl);
  }
  if (missed) { console.error('target missed'); process.exitCode = 1; }
}

const STATUSES = [undefined, 'DELIVERED', 'SENT', 'FAILED', 'QUEUED', 'REJECTED', 'PENDING'];
const CHANNELS = [undefined, 'SMS', 'WHATSAPP', 'EMAIL', 'PUSH', 'VOICE'];
/** Run i: every status x channel combination in turn (42 of them, "none" included), at a scattered page 1-500. */
function randomQuery(i: number): Record<string, string> {
  const query: Record<string, string> = { page: String(1 + ((i * 7919) % 500)) };
  const status = STATUSES[i % STATUSES.length];
  const channel = CHANNELS[Math.floor(i / STATUSES.length) % CHANNELS.length];
  if (status) query['status'] = status;
  if (channel) query['channel'] = channel;
  return query;
}

/** Prints the figures as markdown (for a record in docs/benchmarks/); returns whether a target was missed. */
async function report(database: Database, lists: readonly Figure[], exports: readonly Figure[]): Promise<boolean> {
  const [pg] = await database.em().execute<{ version: string; buffers: string; size: string }[]>(
    `select current_setting('server_version') as version, current_setting('shared_buffers') as buffers,
      pg_size_pretty(pg_total_relation_size('messages')) as size`);
  const ms = (n: number) => n.toFixed(1);
  const worstList = Math.max(...lists.map((f) => f.p95));
  const worstExport = Math.max(...exports.map((f) => f.p95));
  console.log('');
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), PostgreSQL ${pg?.version} `
    + `(shared_buffers ${pg?.buffers}) on the same machine; messages table with indexes ${pg?.size}; ${new Date().toISOString()}`);
  console.log(`${MAIN_ROWS.toLocaleString('en')} logs in the measured organization, ${(2 * OTHER_ROWS).toLocaleString('en')} in two others; `
    + `${RUNS} timed runs per list scenario after ${WARM_UP_RUNS} warm-ups, ${exports.length > 0 ? Math.max(5, Math.floor(RUNS / 5)) : 0} per export`);
  console.log('');
  console.log('| scenario | p50 ms | p95 ms | max ms | last result |');
  console.log('|---|---:|---:|---:|---|');
  for (const f of [...lists, ...exports]) console.log(`| ${f.scenario} | ${ms(f.p50)} | ${ms(f.p95)} | ${ms(f.max)} | ${f.detail} |`);
  console.log('');
  console.log(`targets: list p95 < 50 ms (worst p95 ${ms(worstList)} ms); 10,000-row export < 1,000 ms (worst p95 ${ms(worstExport)} ms)`);
  return worstList >= 50 || worstExport >= 1000;
}

await main();
