import os from 'node:os';
import { openDatabase, type Database } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { SqlAnalyticsRepository } from '../../adapters/postgres/sql-analytics-repository.ts';
import { SystemClock } from '../../adapters/memory/system-clock.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { GetAnalyticsOverview } from '../../core/use-cases/analytics/get-analytics-overview.ts';
import { openBenchDatabase, openPartitionedDataset, PARTITIONED_MAIN_ORG } from './partitioned-dataset.ts';

/**
 * `npm run bench:analytics`: GET /analytics/overview's use case on PostgreSQL with 1,000,000 delivery
 * logs (and 100,000 ledger entries) in one organization within the last 30 days, plus 200,000 logs in
 * another. Target (issue 8): < 200 ms. Own database `nkra_bench_analytics` on the server of
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), seeded once (--fresh re-seeds,
 * --drop drops it at the end, --runs=30). Exits 1 when the target is missed.
 *
 * --partitioned (issue 21): the overview alternately on this 1,000,000-log reference at the schema before
 * partitioning (`bench_scale_analytics_1m`) and on 10,000,000 logs in 12 monthly partitions (`bench_scale_10m`,
 * about 830,000 of them in the last 30 days); target: p95 <= 110 % of the reference's.
 */
const MAIN_ORG = 'bench-analytics-main';
const OTHER_ORG = 'bench-analytics-other';
const MAIN_ROWS = 1_000_000;
const OTHER_ROWS = 200_000;
const PARTITIONED = process.argv.includes('--partitioned');
const BENCH_DB = PARTITIONED ? 'bench_scale_analytics_1m' : 'nkra_bench_analytics';

function arg(name: string): string | undefined {
  const found = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return found === undefined ? undefined : (found.split('=')[1] ?? 'true');
}
const RUNS = Number(arg('runs') ?? 30);

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function maintenance(baseUrl: string, sql: (exists: boolean) => string | null): Promise<void> {
  const db = await openDatabase({ databaseUrl: withDatabase(baseUrl, 'postgres'), poolSize: 1 });
  try {
    const found = await db.em().execute<{ n: number }[]>('select 1 as n from pg_database where datname = ?', [BENCH_DB]);
    const statement = sql(found.length > 0);
    if (statement) await db.em().execute(statement);
  } finally { await db.close(); }
}

/** Logs spread evenly over the last 30 days (the seed's own clock), statuses and channels drawn with a fixed seed. */
const SEED_SQL = `
insert into messages (id, organization_id, internal_message_id, channel, recipient, country, body, status, error_code, cost, price, segments,
  encoding, is_sandbox, provider, attempts, created_at, updated_at)
select md5(org || i)::uuid::text, org, md5('internal' || org || i)::uuid::text, channel, '+23324' || lpad(((i * 37) % 10000000)::text, 7, '0'),
  'GH', 'Your code is ' || (i % 1000000), status, case when status = 'FAILED' then 'PROVIDER_REJECTED' end,
  case when status in ('FAILED', 'REJECTED') then 0 else 3 end, 3, 1, 'GSM-7', false, 'bench-provider', 1, t, t
from (
  select i, ?::text as org, now() - interval '30 days' + (i * (30 * 86400.0 / ?::int)) * interval '1 second' as t,
    case when rs < 0.82 then 'DELIVERED' when rs < 0.90 then 'SENT' when rs < 0.95 then 'FAILED' when rs < 0.975 then 'QUEUED'
      when rs < 0.9995 then 'REJECTED' else 'PENDING' end as status,
    case when rc < 0.70 then 'SMS' when rc < 0.82 then 'WHATSAPP' when rc < 0.92 then 'EMAIL' when rc < 0.98 then 'PUSH' else 'VOICE' end as channel
  from (select i, random() as rs, random() as rc from generate_series(1, ?::int) as g(i)) drawn
) rows`;

async function seed(database: Database): Promise<void> {
  const [row] = await database.em().execute<{ n: string }[]>('select count(*) as n from messages where organization_id = ?', [MAIN_ORG]);
  if (Number(row?.n) === MAIN_ROWS && arg('fresh') === undefined) { console.log('seed: reusing the seeded database (logs older than 30 days fall out of the window)'); return; }
  const started = performance.now();
  await database.em().transactional(async (em) => {
    await em.execute(`delete from organizations where id like 'bench-analytics-%'`);
    for (const id of [MAIN_ORG, OTHER_ORG]) {
      await em.execute(`insert into organizations (id, name, timezone, default_language, created_at, updated_at) values (?, ?, 'Africa/Accra', 'en', now(), now())`, [id, id]);
      await em.execute(`insert into wallets (organization_id, balance, currency, updated_at) values (?, 100000000, 'GHS', now())`, [id]);
    }
    await em.execute('select setseed(0.42)');
    await em.execute(SEED_SQL, [MAIN_ORG, MAIN_ROWS, MAIN_ROWS]);
    await em.execute(SEED_SQL, [OTHER_ORG, OTHER_ROWS, OTHER_ROWS]);
    await em.execute(`insert into ledger_entries (id, organization_id, amount, balance_after, kind, reference, description, created_at)
      select md5('ledger' || i)::uuid::text, ?, -30, 1000000, 'DEBIT', 'batch-' || i, 'send', now() - interval '30 days' + i * interval '25.92 seconds'
      from generate_series(1, 100000) as g(i)`, [MAIN_ORG]);
  });
  console.log(`seed: ${MAIN_ROWS + OTHER_ROWS} logs in ${((performance.now() - started) / 1000).toFixed(1)} s; vacuum analyze ...`);
  await database.em().execute('vacuum analyze messages');
  await database.em().execute('vacuum analyze ledger_entries');
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function comparePartitioned(): Promise<void> {
  const reference = await openBenchDatabase(BENCH_DB, { beforePartitioning: true, poolSize: 4 });
  await seed(reference);
  if (process.argv.includes('--seed-reference-only')) { await reference.close(); return; }
  const partitioned = await openPartitionedDataset();
  try {
    const overviewOf = (database: Database) => new GetAnalyticsOverview({
      storage: { get analytics() { return new SqlAnalyticsRepository(database.em()); } } as Pick<Storage, 'analytics'>, clock: new SystemClock(),
    });
    const runs = [[overviewOf(reference), MAIN_ORG], [overviewOf(partitioned), PARTITIONED_MAIN_ORG]] as const;
    const times: number[][] = [[], []];
    const details = ['', ''];
    for (const [i, [o, org]] of runs.entries()) for (let k = 0; k < 3; k++) { const r = await o.execute({ organizationId: org }); details[i] = `${r.totals.messages} messages`; }
    for (let k = 0; k < RUNS; k++) {
      for (const [i, [o, org]] of runs.entries()) { // alternating: both see the same machine load
        const started = performance.now();
        await o.execute({ organizationId: org });
        times[i]!.push(performance.now() - started);
      }
    }
    times.forEach((t) => t.sort((a, b) => a - b));
    const [a, b] = [percentile(times[0]!, 95), percentile(times[1]!, 95)];
    console.log(`\nNode ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(1)}; ${RUNS} alternating runs; ${new Date().toISOString()}`);
    console.log('| dataset | p50 ms | p95 ms | max ms | result (last 30 days) |');
    console.log('|---|---:|---:|---:|---|');
    console.log(`| 1,000,000 logs, unpartitioned (reference) | ${percentile(times[0]!, 50).toFixed(1)} | ${a.toFixed(1)} | ${times[0]!.at(-1)!.toFixed(1)} | ${details[0]} |`);
    console.log(`| 10,000,000 logs, 12 monthly partitions | ${percentile(times[1]!, 50).toFixed(1)} | ${b.toFixed(1)} | ${times[1]!.at(-1)!.toFixed(1)} | ${details[1]} |`);
    console.log(`target: p95 <= 110 % of the reference (${((b / a) * 100).toFixed(0)} %)`);
    if (b > a * 1.1) { console.error('target missed'); process.exitCode = 1; }
  } finally {
    await reference.close();
    await partitioned.close();
  }
}

async function main(): Promise<void> {
  if (PARTITIONED) { await comparePartitioned(); return; }
  const baseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  await maintenance(baseUrl, (exists) => (exists ? null : `create database ${BENCH_DB}`));
  const database = await openDatabase({ databaseUrl: withDatabase(baseUrl, BENCH_DB), poolSize: 4, statementTimeoutMs: 600_000 });
  let p95 = Infinity;
  try {
    await migrate(database);
    await seed(database);
    const storage = { get analytics() { return new SqlAnalyticsRepository(database.em()); } } as Pick<Storage, 'analytics'>;
    const overview = new GetAnalyticsOverview({ storage, clock: new SystemClock() });
    let detail = '';
    for (let i = 0; i < 3; i++) await overview.execute({ organizationId: MAIN_ORG });
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const result = await overview.execute({ organizationId: MAIN_ORG });
      times.push(performance.now() - started);
      detail = `${result.totals.messages} messages, spend GHS ${result.totals.spend}`;
    }
    times.sort((a, b) => a - b);
    p95 = percentile(times, 95);
    const [pg] = await database.em().execute<{ version: string; buffers: string }[]>(
      `select current_setting('server_version') as version, current_setting('shared_buffers') as buffers`);
    console.log(`\nNode ${process.version}, ${os.cpus().length} CPUs, PostgreSQL ${pg?.version} (shared_buffers ${pg?.buffers}); ${new Date().toISOString()}`);
    console.log('| scenario | p50 ms | p95 ms | max ms | result |');
    console.log('|---|---:|---:|---:|---|');
    console.log(`| overview, ${MAIN_ROWS.toLocaleString('en')} logs in 30 days | ${percentile(times, 50).toFixed(1)} | ${p95.toFixed(1)} | ${times[times.length - 1]!.toFixed(1)} | ${detail} |`);
    console.log(`target: p95 < 200 ms`);
  } finally {
    await database.close();
    if (arg('drop') !== undefined) await maintenance(baseUrl, (exists) => (exists ? `drop database ${BENCH_DB}` : null));
  }
  if (p95 >= 200) { console.error('target missed'); process.exitCode = 1; }
}

await main();
