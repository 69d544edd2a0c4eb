import os from 'node:os';
import { PostgresPartitionMaintenance, DEFAULT_RETENTION } from '../../adapters/postgres/partition-maintenance.ts';
import { SystemClock } from '../../adapters/memory/system-clock.ts';
import { ensureBenchDatabase } from './send-server.ts';
import { generate, type Generate } from './send-load-runner.ts';
import { startBenchService } from './send-service.ts';
import { openBenchDatabase, writeMonths } from './partitioned-dataset.ts';

/**
 * `npm run bench:partition-drop` (issue 21): retention drops a month of 1,000,000 delivery logs while
 * the send load of bench:send runs (its live-async phase: live API key + idempotency key, 50 connections,
 * against the service as `npm start` runs it). Two windows of the same length: a reference without the
 * drop, then one with the retention run (PostgresPartitionMaintenance, RETENTION_MESSAGES_MONTHS=13)
 * starting 5 s into the measured window. The month is detached in one transaction (the part that holds
 * the parent's lock), then its detached tables are dropped. Targets: the detach transaction < 1 s; no send refused or failed, and
 * the window's throughput >= 90 % of the reference's.
 * Database `bench_scale_drop` on DATABASE_URL's server. --duration=15 --connections=50.
 */
const DB = 'bench_scale_drop';
const OLD_ORG = 'bench-drop-old';
const ROWS = 1_000_000;
const flag = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const s = { connections: flag('connections', 50), durationSeconds: flag('duration', 15), warmupSeconds: 2 };

async function main(): Promise<void> {
  const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  const url = await ensureBenchDatabase(serverUrl, DB);
  const service = await startBenchService(url); // migrates; empties messages
  const db = await openBenchDatabase(DB, { poolSize: 4 });
  let ok = false;
  try {
    const now = new Date();
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 24, 1));
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 23, 1));
    await db.em().execute(`insert into organizations (id, name, timezone, default_language, created_at, updated_at) values (?, ?, 'UTC', 'en', now(), now()) on conflict do nothing`, [OLD_ORG, OLD_ORG]);
    console.log(`writing ${ROWS.toLocaleString('en')} logs into the month of ${month.toISOString().slice(0, 7)} ...`);
    await writeMonths(db, [[OLD_ORG, ROWS]], month, next, console.log);
    for (const t of ['message_attempts', 'message_status_events']) await db.em().execute('select nkra_create_month_partition(?, ?::date)', [t, month.toISOString().slice(0, 10)]);
    await db.em().execute('vacuum analyze messages');
    const [rows] = await db.em().execute<{ n: string }[]>('select count(*) as n from messages where organization_id = ?', [OLD_ORG]);

    const tenant = await service.newTenant('drop', 50_000);
    const load = (recipientBase: number): Generate => ({
      url: `${service.base}/messages/send`, headers: tenant.live, idempotency: true, kind: 'single', async: true, bulkSize: 1,
      recipientBase, expectStatus: 202, expectBodyIncludes: null,
    });
    console.log('reference window: sends only ...');
    const reference = await generate(load(1_000_000), s, service);
    await service.vacuum();
    console.log('second window: sends, and the retention run 5 s in ...');
    const maintenance = new PostgresPartitionMaintenance(db, new SystemClock(), { ...DEFAULT_RETENTION, messagesMonths: 13, outboundEventsMonths: 0, webhookDeliveriesDays: 0 });
    let dropMs = NaN;
    let unlinkMs = NaN;
    let runMs = NaN;
    let dropped: string[] = [];
    const dropping = (async () => {
      await new Promise((r) => setTimeout(r, (s.warmupSeconds + 5) * 1000));
      const started = performance.now();
      const report = await maintenance.run();
      runMs = performance.now() - started;
      dropMs = report.dropMs;
      unlinkMs = report.unlinkMs;
      dropped = report.dropped;
    })();
    const during = await generate(load(3_000_000), s, service);
    await dropping;
    const [left] = await db.em().execute<{ n: string }[]>('select count(*) as n from messages where organization_id = ?', [OLD_ORG]);

    const ratio = during.load.requestsPerSecond / reference.load.requestsPerSecond;
    const clean = [reference, during].every((w) => w.load.non2xx === 0 && w.load.errors === 0);
    ok = dropMs < 1000 && clean && ratio >= 0.9 && Number(left?.n) === 0 && dropped.includes(`messages_p${month.toISOString().slice(0, 7).replace('-', '')}`);
    const row = (name: string, w: typeof reference) => `| ${name} | ${Math.round(w.load.requestsPerSecond).toLocaleString('en')} | ${w.load.latencyMs.p50.toFixed(1)} | ${w.load.latencyMs.p99.toFixed(1)} | ${w.load.latencyMs.max.toFixed(1)} | ${w.load.non2xx + w.load.errors} |`;
    console.log('');
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]?.toFixed(1)}; ${s.connections} connections, ${s.durationSeconds} s windows; ${new Date().toISOString()}`);
    console.log(`drop of ${Number(rows?.n).toLocaleString('en')} logs (${dropped.join(', ')}): detached in one transaction under the parent's lock, lock wait included, ${dropMs.toFixed(0)} ms (target < 1,000 ms); `
      + `then the detached tables dropped (their files removed, no lock a send waits on) in ${unlinkMs.toFixed(0)} ms; `
      + `whole retention run (partitions ahead checked, overrides, webhook purge, DEFAULT count): ${runMs.toFixed(0)} ms`);
    console.log('| window | sends/s | p50 ms | p99 ms | max ms | refused or failed |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(row('reference (no drop)', reference));
    console.log(row('with the drop 5 s in', during));
    console.log(`throughput ${(ratio * 100).toFixed(0)} % of the reference (target >= 90 %); ${ok ? 'all targets met' : 'BELOW TARGET or FAILED'}`);
  } finally {
    await db.close();
    await service.close();
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
