import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker } from '../../hosts/worker/worker.ts';
import { cpuSeconds, liveKey, queueBacklog } from './fairness-support.ts';
import { PgActivitySampler } from './pg-activity-sampler.ts';
import { ensureBenchDatabase, startSendServer, type SendServer } from './send-server.ts';
import { useSlowArkesel } from './slow-vendor.ts';

/**
 * `npm run bench:fair-share` (issue 30, docs/adr/0036-delivery-lanes-and-fair-queueing.md): --tenants (10)
 * tenants each queue --per-tenant (10,000) async SMS through the bulk API, one tenant's whole backlog after
 * the other's (the order that starves the later ones under first-in-first-out), then the worker (in-process,
 * as `npm start` runs it) drains them. Two kinds of phase, same run, same tenants, run in the order ABBA BAAB
 * (FIFO, fair, fair, FIFO, fair, FIFO, FIFO, fair): each kind runs once in each place of the run, so a drift
 * over the run and the place of a phase weigh on both alike; each side's rate is the mean of its four:
 *
 * 1. FIFO reference: the queued jobs' priorities are reset to 0 before the drain, which is what every
 *    delivery job carried before lanes and fair tags (one first-in-first-out order by creation);
 * 2. fair: the jobs as acceptance queued them (lane band and per-tenant fair tags), put through the same
 *    UPDATE keeping their priorities, so both sides drain job rows and indexes written the same way.
 *
 * Every phase starts from empty message, log and job tables (the tenants stay), a VACUUM ANALYZE and a CHECKPOINT.
 *
 * For each, Jain's fairness index J = (sum x)^2 / (n sum x^2) of the tenants' SENT counts per --window
 * (10 s) window, over the whole windows before the first tenant's backlog ran out (while every tenant had
 * work waiting), and the drain rate. --order (default FIFO,fair,fair,FIFO,fair,FIFO,FIFO,fair) sets the phases; --profile prints the
 * statements PostgreSQL spent each drain on; --sample-activity what the backends waited on; --index-stats the buffers
 * each table and index was read through, a message's share (and job_i11's shape, with pgstattuple); --latency=50
 * (--max-concurrency=50) sends to a fake Arkesel answering after 50 ms, so the vendor bounds the drain. Targets: fair J >= 0.95 in every such window; fair drain >= 95%
 * of the FIFO drain. Own database `nkra_bench_fair_share` on DATABASE_URL's server.
 */
function flag(name: string, fallback: number): number {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = Number(raw ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}
const settings = { tenants: flag('tenants', 10), perTenant: flag('per-tenant', 10_000), windowSeconds: flag('window', 10), profile: process.argv.includes('--profile'),
  // --interleaved: the tenants queue at the same time (their messages interleaved in creation order) instead of one after the other.
  interleaved: process.argv.includes('--interleaved'),
  // --sample-activity: what the backends were doing during each drain (pg_stat_activity every 20 ms: state, wait event, statement).
  sampleActivity: process.argv.includes('--sample-activity'),
  // --index-stats: the buffers each table and index was read through during each drain (pg_statio_all_tables and
  // _indexes, a message's share), which structure the order of delivery makes dearer.
  indexStats: process.argv.includes('--index-stats'),
  // --latency=50: every SMS goes to a fake Arkesel in its own process answering after that many ms, at most
  // --max-concurrency (50) in flight: the vendor, not the CPU, bounds the drain (as behind a real aggregator).
  latencyMs: process.argv.some((a) => a.startsWith('--latency=')) ? flag('latency', 50) : 0,
  maxConcurrency: flag('max-concurrency', 50),
  // --order=fair,FIFO,FIFO,fair (BAAB): whether a phase's place in the run weighs on it.
  order: (process.argv.find((a) => a.startsWith('--order='))?.split('=')[1] ?? 'FIFO,fair,fair,FIFO,fair,FIFO,FIFO,fair').split(',').map((name) => {
    if (name !== 'FIFO' && name !== 'fair') throw new Error('--order takes FIFO and fair, comma-separated');
    return name;
  }) };
const JAIN_TARGET = 0.95;
const DRAIN_RATIO = 0.95;

interface Phase { name: string; rate: number; windows: number[]; sent: number; cpu: { node: number; postgres: number }; wal: { bytes: number; checkpoints: number } }

const jain = (xs: readonly number[]) => {
  const sum = xs.reduce((a, b) => a + b, 0);
  const squares = xs.reduce((a, b) => a + b * b, 0);
  return squares === 0 ? 1 : (sum * sum) / (xs.length * squares);
};

async function dbNow(server: SendServer): Promise<Date> {
  const [row] = await server.infra.database.em().execute<{ now: Date }[]>('select clock_timestamp() as now');
  return new Date(row!.now);
}

async function runPhase(server: SendServer, name: 'FIFO' | 'fair', tenants: ReadonlyArray<{ key: string; organizationId: string }>): Promise<Phase> {
  // Every phase starts from the same database: empty messages, logs and queue (the tenants stay). Phases that
  // inherited the earlier ones' rows ran slower the later they came (a growing table and its indexes).
  await server.resetMessages();
  const queuedFrom = await dbNow(server);
  console.log(`${name}: queueing ${settings.tenants} x ${settings.perTenant.toLocaleString('en')} async SMS, one tenant after the other ...`);
  if (settings.interleaved) await Promise.all(tenants.map((t) => queueBacklog(server, t.key, settings.perTenant, `Fair share ${name}`)));
  else for (const t of tenants) await queueBacklog(server, t.key, settings.perTenant, `Fair share ${name}`);
  // The FIFO reference resets the priorities with an UPDATE, which writes every job row and index entry anew
  // (and, vacuumed, leaves the indexes with room where the old entries were); the fair phase's jobs get the
  // same UPDATE keeping their priorities, so both drains start from tables and indexes written the same way.
  await server.infra.database.em().execute(`update pgboss.job set priority = ${name === 'FIFO' ? '0' : 'priority'} where name = ? and state = 'created'`, [QUEUES.notificationSend]);
  await server.vacuum();
  // Each drain starts from a checkpoint: the first change to a page after one writes the whole page to the WAL,
  // so a checkpoint that fell inside one phase and not the other weighed on it alone (max_wal_size 1 GB is
  // reached every phase or two at ~5 KB of WAL a message).
  await server.infra.database.em().execute('checkpoint');
  const ids = tenants.map((t) => t.organizationId);
  const container = buildWorkerContainer(server.config, server.logger, server.infra, { runtime: server.container.get(MESSAGING.runtime) });
  // Before the clock starts: the snapshot waits 11 s for the backends' counts.
  if (settings.indexStats) await printFetchIndexShape(server, name);
  const blocksBefore = settings.indexStats ? await relationBlocks(server) : null;
  const started = await dbNow(server);
  if (settings.profile) await server.infra.database.em().execute('select pg_stat_statements_reset()');
  const cpuBefore = await cpuSeconds();
  const walBefore = await walPosition(server);
  const sampler = settings.sampleActivity ? new PgActivitySampler(server.infra.database) : null;
  sampler?.start(20);
  const worker = await startWorker(server.infra.boss, container.getAll(WORKER.handlers), server.logger);
  try {
    // Whether any message is still waiting (the first index entry found ends it): counting the remainder
    // every 250 ms cost PostgreSQL 4-19 s of CPU a phase, competing with the drain it measures.
    const waiting = async () => (await server.infra.database.em().execute<{ waiting: boolean }[]>(
      `select exists (select 1 from messages where organization_id = any(?::text[]) and status in ('QUEUED', 'PENDING')) as waiting`, [`{${ids.join(',')}}`]))[0]?.waiting === true;
    while (await waiting()) await new Promise((resolve) => setTimeout(resolve, 250));
  } finally { await worker.stop(); }
  if (sampler) console.log(`${name}: backends during the drain (mean a sample)\n  ${(await sampler.stop(10)).join('\n  ')}`);
  const cpuAfter = await cpuSeconds();
  const walAfter = await walPosition(server);
  if (settings.profile) await printStatementProfile(server, name);
  if (blocksBefore) printRelationBlocks(name, blocksBefore, await relationBlocks(server), settings.tenants * settings.perTenant);
  const rows = await server.infra.database.em().execute<{ organization_id: string; w: number; n: string | number; last: Date }[]>(
    `select organization_id, floor(extract(epoch from sent_at - ?::timestamptz) / ?)::int as w, count(*) as n, max(sent_at) as last
       from messages where organization_id = any(?::text[]) and created_at >= ? and sent_at is not null group by 1, 2`,
    [started.toISOString(), settings.windowSeconds, `{${ids.join(',')}}`, queuedFrom.toISOString()]);
  const lastOf = new Map<string, number>();
  for (const r of rows) lastOf.set(r.organization_id, Math.max(lastOf.get(r.organization_id) ?? 0, new Date(r.last).getTime()));
  const firstDone = Math.min(...lastOf.values());
  const allDone = Math.max(...lastOf.values());
  // Whole windows in which every tenant had work waiting: the window in which the first backlog ran out is left out
  // (part of it had one tenant fewer; with rounds of 25 jobs a tenant, its last fraction of a second is not a 10 s share),
  // unless the drain was shorter than one window.
  const busyWindows = Math.max(1, Math.floor((firstDone - started.getTime()) / 1000 / settings.windowSeconds));
  const windows = Array.from({ length: busyWindows }, (_, w) => jain(ids.map((id) => Number(rows.find((r) => r.organization_id === id && r.w === w)?.n ?? 0))));
  const sent = rows.reduce((sum, r) => sum + Number(r.n), 0);
  const cpu = { node: cpuAfter.node - cpuBefore.node, postgres: cpuAfter.postgres - cpuBefore.postgres };
  const wal = { bytes: walAfter.bytes - walBefore.bytes, checkpoints: walAfter.checkpoints - walBefore.checkpoints };
  return { name, rate: sent / ((allDone - started.getTime()) / 1000), windows, sent, cpu, wal };
}

/** WAL written so far and checkpoints begun so far on the server (WAL bytes a message and checkpoints inside a drain). */
async function walPosition(server: SendServer): Promise<{ bytes: number; checkpoints: number }> {
  const [row] = await server.infra.database.em().execute<{ bytes: string; checkpoints: string }[]>(
    `select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as bytes, (checkpoints_timed + checkpoints_req)::text as checkpoints from pg_stat_bgwriter`);
  return { bytes: Number(row!.bytes), checkpoints: Number(row!.checkpoints) };
}

/**
 * --profile: the statements PostgreSQL spent the drain on (pg_stat_statements, which the server must
 * preload: `shared_preload_libraries = 'pg_stat_statements'` and `create extension pg_stat_statements`).
 */
async function printStatementProfile(server: SendServer, name: string): Promise<void> {
  const rows = await server.infra.database.em().execute<{ calls: string; total: number; rows: string; blks: string; dirtied: string; wal: string; query: string }[]>(
    `select calls, total_exec_time as total, rows, shared_blks_hit + shared_blks_read as blks, shared_blks_dirtied as dirtied, wal_bytes as wal, query
       from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database()) order by total_exec_time desc limit 12`);
  console.log(`${name}: statements by time spent in PostgreSQL (ms, calls, rows, blocks touched, blocks dirtied, WAL bytes)`);
  for (const r of rows) console.log(`  ${Math.round(r.total)} ms | ${r.calls} | ${r.rows} | ${r.blks} | ${r.dirtied} | ${r.wal} | ${r.query.replace(/\s+/g, ' ').slice(0, 160)}`);
}

/**
 * --index-stats: buffers touched (hit + read) so far per table and index of the database. A backend reports its
 * counts when it goes idle, at most once a second and at the latest 10 s later: the snapshot waits that out so
 * the queueing before a drain is not counted in it, nor the drain's last second left out.
 */
async function relationBlocks(server: SendServer): Promise<Map<string, number>> {
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const rows = await server.infra.database.em().execute<{ name: string; blocks: string }[]>(
    `select relname::text as name, (coalesce(heap_blks_hit, 0) + coalesce(heap_blks_read, 0))::text as blocks from pg_statio_all_tables where schemaname in ('public', 'pgboss')
     union all
     select relname::text || '.' || indexrelname::text, (idx_blks_hit + idx_blks_read)::text from pg_statio_all_indexes where schemaname in ('public', 'pgboss')`);
  // Monthly partitions of the logs and pg-boss's per-queue partitions count under one name.
  const byName = new Map<string, number>();
  for (const r of rows) {
    const name = r.name.replace(/_p?\d{4}_?\d{2}/g, '').replace(/j[0-9a-f]{40,}/g, 'job');
    byName.set(name, (byName.get(name) ?? 0) + Number(r.blocks));
  }
  return byName;
}

/** --index-stats: the shape of pg-boss's fetch index (job_i11) a drain starts from (the pgstattuple extension, when the database has it). */
async function printFetchIndexShape(server: SendServer, phase: string): Promise<void> {
  try {
    const [row] = await server.infra.database.em().execute<Record<string, unknown>[]>(
      `select tree_level, internal_pages, leaf_pages, avg_leaf_density, leaf_fragmentation from pgstatindex('pgboss.job_common_i11')`);
    console.log(`${phase}: job_i11 before the drain: ${JSON.stringify(row)}`);
  } catch { /* no pgstattuple here */ }
}

function printRelationBlocks(phase: string, before: Map<string, number>, after: Map<string, number>, messages: number): void {
  const spent = [...after].map(([name, blocks]) => [name, blocks - (before.get(name) ?? 0)] as const).filter(([, blocks]) => blocks > 0).sort((a, b) => b[1] - a[1]);
  const total = spent.reduce((sum, [, blocks]) => sum + blocks, 0);
  console.log(`${phase}: buffers a message by table and index (${(total / messages).toFixed(1)} in all)`);
  for (const [name, blocks] of spent.slice(0, 20)) console.log(`  ${(blocks / messages).toFixed(2)} ${name}`);
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-fair-share-bench-'));
  const vendor = await useSlowArkesel(settings.latencyMs, settings.maxConcurrency, dir);
  const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
  // A database per provider setup: a --latency run stores its fake Arkesel, which a default-providers run must not find.
  const server = await startSendServer(await ensureBenchDatabase(serverUrl, vendor ? 'nkra_bench_fair_share_vendor' : 'nkra_bench_fair_share'));
  let ok = false;
  try {
    const tenants = [];
    for (let i = 0; i < settings.tenants; i++) tenants.push(await liveKey(server, `share-${i}`));
    // ABBA BAAB by default: a drift over the run (a growing table, a neighbour's load) and a phase's place weigh on
    // both sides alike (one ABBA run measured the middle phases 10-25% slower whichever kind ran there).
    const phases: Phase[] = [];
    for (const name of settings.order) phases.push(await runPhase(server, name, tenants));
    const merge = (name: string): Phase => {
      const of = phases.filter((p) => p.name === name);
      const cpu = { node: of.reduce((sum, p) => sum + p.cpu.node, 0) / of.length, postgres: of.reduce((sum, p) => sum + p.cpu.postgres, 0) / of.length };
      const wal = { bytes: of.reduce((sum, p) => sum + p.wal.bytes, 0) / of.length, checkpoints: of.reduce((sum, p) => sum + p.wal.checkpoints, 0) };
      return { name, rate: of.reduce((sum, p) => sum + p.rate, 0) / of.length, windows: of.flatMap((p) => p.windows), sent: Math.min(...of.map((p) => p.sent)), cpu, wal };
    };
    const [fifo, fair] = [merge('FIFO'), merge('fair')];
    const total = settings.tenants * settings.perTenant;
    const ratio = fair.rate / fifo.rate;
    const minJain = (p: Phase) => (p.windows.length ? Math.min(...p.windows) : NaN);
    ok = fair.sent === total && fifo.sent === total && fair.windows.length > 0 && minJain(fair) >= JAIN_TARGET && ratio >= DRAIN_RATIO;
    console.log('');
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
    console.log(`command: npm run bench:fair-share -- --tenants=${settings.tenants} --per-tenant=${settings.perTenant} --window=${settings.windowSeconds} --order=${settings.order.join(',')}`
      + (vendor ? ` --latency=${settings.latencyMs} --max-concurrency=${settings.maxConcurrency}` : ''));
    console.log(vendor ? `provider: a fake Arkesel answering after ${settings.latencyMs} ms, at most ${settings.maxConcurrency} sends in flight (max seen ${(await vendor.stats()).maxInFlight})` : 'provider: the default providers (answering at once)');
    console.log('');
    console.log(`| phase (${settings.order.length / 2} runs each) | SENT (each run) | drain messages/s (mean) | ${settings.windowSeconds} s windows until one ran out | Jain min | Jain mean | CPU µs a message: Node / PostgreSQL | WAL bytes a message | checkpoints during the drains |`);
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const p of [fifo, fair]) {
      const mean = p.windows.reduce((a, b) => a + b, 0) / Math.max(1, p.windows.length);
      console.log(`| ${p.name} | ${p.sent.toLocaleString('en')} | ${Math.round(p.rate).toLocaleString('en')} | ${p.windows.length} | ${minJain(p).toFixed(3)} | ${mean.toFixed(3)} | ${Math.round((p.cpu.node / p.sent) * 1e6)} / ${Math.round((p.cpu.postgres / p.sent) * 1e6)} | ${Math.round(p.wal.bytes / p.sent).toLocaleString('en')} | ${p.wal.checkpoints} |`);
    }
    console.log('');
    console.log(`fair drain / FIFO drain: ${(ratio * 100).toFixed(1)}% (target >= ${DRAIN_RATIO * 100}%); fair Jain min target >= ${JAIN_TARGET}`);
    console.log(`per window, fair: ${fair.windows.map((j) => j.toFixed(3)).join(' ')}`);
    console.log(`phases in order: ${phases.map((p) => `${p.name} ${Math.round(p.rate).toLocaleString('en')}/s (CPU s: Node ${p.cpu.node.toFixed(1)}, PostgreSQL ${p.cpu.postgres.toFixed(1)}; WAL ${Math.round(p.wal.bytes / 1e6)} MB, ${p.wal.checkpoints} checkpoints)`).join(', ')}`);
    console.log(ok ? 'all targets met' : 'BELOW TARGET or FAILED');
  } finally {
    await server.close();
    await vendor?.close();
    await rm(dir, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

await main();
