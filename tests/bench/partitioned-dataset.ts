import { openDatabase, type Database } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { MIGRATIONS } from '../../adapters/postgres/migrations/index.ts';
import { DEFAULT_RETENTION, PostgresPartitionMaintenance } from '../../adapters/postgres/partition-maintenance.ts';
import { SystemClock } from '../../adapters/memory/system-clock.ts';

/**
 * The benches' datasets for partitioned logs (docs/benchmarks/2026-11-history.md, "Partitioned logs"), built in the
 * database with INSERT ... SELECT generate_series (not through the API):
 *
 * - `bench_scale_10m`: today's schema, 10,000,000 delivery logs of one organization spread evenly over
 *   the 12 monthly partitions from 11 months ago to now (ids UUIDv7 of their created_at), plus 100,000
 *   in each of two others. Each month is written into a plain table and then attached (one bulk index
 *   build per month instead of 10,000,000 index insertions); the analytics roll-up is then summed once.
 * - the 1,000,000-row references of bench:logs / bench:analytics, in `bench_scale_*_1m` databases at the
 *   schema before migration 0040 (unpartitioned, "today's figures").
 *
 * Run alone (`node tests/bench/partitioned-dataset.ts`) it builds `bench_scale_10m` and exits.
 */
export const PARTITIONED_DB = 'bench_scale_10m';
export const PARTITIONED_MAIN_ORG = 'bench-part-main';
export const PARTITIONED_OTHER_ORGS = ['bench-part-other-1', 'bench-part-other-2'];
export const PARTITIONED_MAIN_ROWS = 10_000_000;
const OTHER_ROWS = 100_000;
const MONTHS = 12;

export function arg(name: string): string | undefined {
  const found = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return found === undefined ? undefined : (found.split('=')[1] ?? 'true');
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export const baseUrl = () => process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Migrations of the partitioned schema alone: 0040 and the changes to the tables it created. */
const PARTITIONING_ONLY = new Set(['0040-partitioned-logs', '0043-detach-before-drop']);

/** Opens (creating if missing) a bench database, migrated to today's schema or, with `beforePartitioning`, to the schema before 0040. */
export async function openBenchDatabase(name: string, options: { beforePartitioning?: boolean; poolSize?: number } = {}): Promise<Database> {
  const admin = await openDatabase({ databaseUrl: withDatabase(baseUrl(), 'postgres'), poolSize: 1 });
  try {
    const found = await admin.em().execute<{ n: number }[]>('select 1 as n from pg_database where datname = ?', [name]);
    if (found.length === 0) await admin.em().execute(`create database ${name}`);
  } finally { await admin.close(); }
  const database = await openDatabase({ databaseUrl: withDatabase(baseUrl(), name), poolSize: options.poolSize ?? 10, statementTimeoutMs: 3_600_000 });
  // Before partitioning: every migration but 0040 and those altering what 0040 created, so the reference runs today's code
  // (the delivery-log functions of 0041 and 0042 included).
  await migrate(database, options.beforePartitioning ? MIGRATIONS.filter((m) => !PARTITIONING_ONLY.has(m.id)) : MIGRATIONS);
  return database;
}

/** The first day (UTC) of the month `k` months from now. */
const monthStart = (k: number) => { const n = new Date(); return new Date(Date.UTC(n.getUTCFullYear(), n.getUTCMonth() + k, 1)); };
const monthKey = (m: Date) => `${m.getUTCFullYear()}${String(m.getUTCMonth() + 1).padStart(2, '0')}`;

/** The rows of `org` whose created_at falls in [from, to), of `perSecond` rows a second starting at `origin`. */
const MONTH_SQL = (table: string) => `
insert into ${table} (id, organization_id, internal_message_id, channel, recipient, country, subject, body, template_id, status, error_code,
  error_message, cost, price, segments, encoding, is_sandbox, api_key_id, user_id, sender_id, provider, provider_message_id, attempts,
  lease_until, created_at, updated_at, sent_at, delivered_at, failed_at)
select v7, org, 'msg_' || replace(v7, '-', ''), channel,
  case channel when 'EMAIL' then 'user' || (i % 50000) || '@example.com' when 'PUSH' then 'fcm-' || md5(i::text)
    else '+23324' || lpad(((i * 37) % 10000000)::text, 7, '0') end,
  case when channel in ('EMAIL', 'PUSH') then null else 'GH' end, null,
  case when i % 40 = 0 then 'Votre code Nkra est ' || lpad((i % 1000000)::text, 6, '0') || ' — valable 10 minutes' else
  'Your Nkra code is ' || lpad((i % 1000000)::text, 6, '0') || '. It expires in 10 minutes; do not share it.' end, null, status,
  case status when 'FAILED' then 'PROVIDER_REJECTED' when 'REJECTED' then 'FRAUD_RECIPIENT_VELOCITY' end,
  case status when 'FAILED' then 'Rejected by carrier, "invalid destination"' when 'REJECTED' then 'Too many messages to this recipient' end,
  case when status in ('FAILED', 'REJECTED') then 0 else 5 end, 5, 1, case when channel = 'SMS' then case when i % 40 = 0 then 'UCS-2' else 'GSM-7' end end,
  false, null, null, null, case when status in ('QUEUED', 'REJECTED') then null else 'bench-provider' end, null, 1, null, t, t,
  case when status in ('SENT', 'DELIVERED', 'FAILED') then t + interval '1 second' end,
  case when status = 'DELIVERED' then t + interval '3 seconds' end, case when status = 'FAILED' then t + interval '2 seconds' end
from (
  select i, t, org, status, channel,
    (lpad(to_hex((extract(epoch from t) * 1000)::bigint), 12, '0') || '7' || substr(md5(org || i), 1, 3) || '8' || substr(md5(org || i), 4, 15))::uuid::text as v7
  from (
    select i, ?::text as org, ?::timestamptz + ((i - ?::bigint) * ?::float8) * interval '1 second' as t,
      case when rs < 0.82 then 'DELIVERED' when rs < 0.90 then 'SENT' when rs < 0.95 then 'FAILED' when rs < 0.975 then 'QUEUED'
        when rs < 0.9995 then 'REJECTED' else 'PENDING' end as status,
      case when rc < 0.70 then 'SMS' when rc < 0.82 then 'WHATSAPP' when rc < 0.92 then 'EMAIL' when rc < 0.98 then 'PUSH' else 'VOICE' end as channel
    from (select i, random() as rs, random() as rc from generate_series(?::bigint, ?::bigint) as g(i)) drawn
  ) timed
) rows`;

/**
 * Writes `rows` logs of each organization, evenly over [start, end), into the monthly partitions of
 * `messages` (each month built as a plain table, then attached). Returns the rows written.
 */
export async function writeMonths(database: Database, orgs: ReadonlyArray<[string, number]>, start: Date, end: Date, log: (line: string) => void): Promise<number> {
  let written = 0;
  for (let m = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1)); m < end; m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1))) {
    const next = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1));
    const part = `messages_p${monthKey(m)}`;
    const started = performance.now();
    await database.em().transactional(async (em) => {
      const [existing] = await em.execute<{ rel: string | null }[]>('select to_regclass(?)::text as rel', [part]);
      if (existing?.rel) {
        await em.execute(`alter table messages detach partition ${part}`);
        await em.execute(`drop table ${part}`);
      }
      await em.execute(`create table ${part} (like messages including defaults including constraints)`);
      await em.execute('select setseed(0.42)');
      for (const [org, rows] of orgs) {
        const step = (end.getTime() - start.getTime()) / 1000 / rows; // seconds between two logs
        const first = Math.max(1, Math.ceil((Math.max(m.getTime(), start.getTime()) - start.getTime()) / 1000 / step) + 1);
        const last = Math.min(rows, Math.ceil((Math.min(next.getTime(), end.getTime()) - start.getTime()) / 1000 / step));
        if (last < first) continue;
        await em.execute(MONTH_SQL(part), [org, start, 1, step, first, last]);
        written += last - first + 1;
      }
      await em.execute(`alter table messages attach partition ${part} for values from (nkra_month_bound(?::date)) to (nkra_month_bound(?::date))`,
        [m.toISOString().slice(0, 10), next.toISOString().slice(0, 10)]);
    });
    log(`  ${part}: attached in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return written;
}

/** The analytics roll-up of the given organizations, summed from their logs (the attach bypassed the triggers). */
export async function rollUp(database: Database, orgs: readonly string[]): Promise<void> {
  const list = `'{${orgs.join(',')}}'::text[]`; // bench constants
  await database.em().execute(`delete from message_daily_stats where organization_id = any(${list})`);
  await database.em().execute(`insert into message_daily_stats (organization_id, day, channel, status, provider, bucket, messages, segments, cost)
    select organization_id, (created_at at time zone 'UTC')::date, channel, case when status = 'PENDING' then 'QUEUED' else status end,
      coalesce(provider, ''), 0, count(*), sum(segments), sum(cost)
    from messages where organization_id = any(${list}) group by 1, 2, 3, 4, 5`);
}

/** `bench_scale_10m`, seeded once (--fresh re-seeds). */
export async function openPartitionedDataset(log: (line: string) => void = console.log): Promise<Database> {
  const database = await openBenchDatabase(PARTITIONED_DB);
  const [row] = await database.em().execute<{ n: string }[]>(`select count(*) as n from messages where organization_id = ?`, [PARTITIONED_MAIN_ORG]);
  // As the worker's hourly upkeep does: the months ahead (a list plans and opens them too) and the past months counted. Nothing is dropped.
  const upkeep = async () => {
    const started = performance.now();
    const report = await new PostgresPartitionMaintenance(database, new SystemClock(), { ...DEFAULT_RETENTION, messagesMonths: 0, outboundEventsMonths: 0 }).run();
    if (report.counted.length > 0) log(`${PARTITIONED_DB}: ${report.counted.length} past months counted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  };
  await upkeep();
  if (Number(row?.n) === PARTITIONED_MAIN_ROWS && arg('fresh') === undefined) { log(`${PARTITIONED_DB}: reusing the seeded database`); return database; }
  const started = performance.now();
  const orgs = [PARTITIONED_MAIN_ORG, ...PARTITIONED_OTHER_ORGS];
  await database.em().execute(`delete from organizations where id like 'bench-part-%'`);
  await database.em().execute(`insert into organizations (id, name, timezone, default_language, created_at, updated_at)
    select id, id, 'Africa/Accra', 'en', now(), now() from unnest('{${orgs.join(',')}}'::text[]) as o(id)`);
  await database.em().execute(`insert into wallets (organization_id, balance, currency, updated_at) select id, 100000000, 'GHS', now() from unnest('{${orgs.join(',')}}'::text[]) as o(id)`);
  const start = monthStart(-(MONTHS - 1));
  const end = new Date();
  log(`${PARTITIONED_DB}: ${PARTITIONED_MAIN_ROWS.toLocaleString('en')} logs of ${PARTITIONED_MAIN_ORG} from ${start.toISOString()} to now, in ${MONTHS} monthly partitions ...`);
  const written = await writeMonths(database, [[PARTITIONED_MAIN_ORG, PARTITIONED_MAIN_ROWS], ...PARTITIONED_OTHER_ORGS.map((o): [string, number] => [o, OTHER_ROWS])], start, end, log);
  log(`  roll-up ...`);
  await rollUp(database, orgs);
  log(`  vacuum analyze ...`);
  await database.em().execute('vacuum analyze messages');
  await database.em().execute('vacuum analyze message_daily_stats');
  await upkeep();
  log(`${PARTITIONED_DB}: ${written.toLocaleString('en')} logs in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return database;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const database = await openPartitionedDataset();
  await database.close();
}
