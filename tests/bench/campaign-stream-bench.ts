import { fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { openDatabase } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { seedPricingRules } from '../../adapters/postgres/seed-pricing.ts';
import { startBoss } from '../../adapters/queue/pg-boss-factory.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { buildApiContainer, buildApp } from '../../hosts/api/container.ts';
import { listen } from '../../hosts/api/server.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { testConfig } from '../support/test-config.ts';
import { ensureBenchDatabase } from './send-server.ts';

/**
 * `npm run bench:campaign` on PostgreSQL (DATABASE_URL names the server, default
 * postgres://postgres@127.0.0.1:5432/postgres; the bench uses its own database nkra_bench_campaign,
 * emptied at start): a campaign to `--contacts=N` contacts (default 1,000,000) fanned out by a separate
 * worker process (campaign-stream-worker.ts: the worker container, campaign-run handler only) through
 * the real API (POST /campaigns/{id}/send, /pause, /resume). Every 2 s it prints the campaign's
 * `progress` as GET /campaigns/{id} shows it (processed of total, rate, ETA) and the worker's RSS; at
 * 30% it pauses for 5 s (checks that the fan-out holds still) and resumes. Ends when the fan-out is
 * done (phase DELIVERY): the messages stay queued, deliveries are not part of this measurement.
 * Exits 1 when the worker's peak RSS (VmHWM) passes 300 MB, or a count is wrong.
 */
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const CONTACTS = arg('contacts', 1_000_000);
const RSS_LIMIT_MB = 300;
const WORKER_FLAGS = /node ((?:--\S+ )*)hosts\/worker\/main\.ts/.exec((JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts['worker'] ?? '')?.[1]?.trim() ?? '';
const problems: string[] = [];
const mb = (kb: number) => Math.round(kb / 1024);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const url = await ensureBenchDatabase(serverUrl, 'nkra_bench_campaign');
{
  const wipe = await openDatabase({ databaseUrl: url, poolSize: 1 });
  await wipe.em().execute('drop schema if exists public cascade');
  await wipe.em().execute('drop schema if exists pgboss cascade');
  await wipe.em().execute('create schema public');
  await wipe.close();
}
const database = await openDatabase({ databaseUrl: url, poolSize: 4 });
await migrate(database);
await seedPricingRules(database, new UuidV7IdGenerator());
const boss = await startBoss(database, { supervise: false, schedule: false });
const config = testConfig({ databaseUrl: url, fraudNewTenantDays: 0, logLevel: 'silent' });
const logger = createLogger('silent');
const infra = { database, boss, async close() { await boss.stop({ graceful: false, close: true } as never).catch(() => undefined); await database.close(); } };
const container = buildApiContainer(config, logger, infra);
await loadProviders(container);
const server = await listen(buildApp(container), 0, '127.0.0.1', logger);
const base = `http://127.0.0.1:${server.port}`;

const reg = await (await fetch(`${base}/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: `campaign-${Date.now()}@bench.test`, password: 'correct-horse-battery', firstName: 'B', lastName: 'B', organizationName: 'Stream' }) })).json() as
  { data: { token: string; organizations: Array<{ id: string }> } };
const organizationId = reg.data.organizations[0]!.id;
const headers = { authorization: `Bearer ${reg.data.token}`, 'x-organization-id': organizationId, 'content-type': 'application/json' };
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = await res.json() as { data: Record<string, any>; error?: unknown };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.error)}`);
  return json.data;
};

const tSeed = performance.now();
for (let from = 1; from <= CONTACTS; from += 20_000) { // in chunks: one statement for 1,000,000 rows (or 100,000 on a busy machine) passes the statement timeout
  await database.em().execute(`insert into contacts (id, organization_id, first_name, phone, country_code, tags, created_at, updated_at)
    select gen_random_uuid()::text, ?, 'Kojo' || g, '+23324' || lpad(g::text, 7, '0'), 'GH', '["promo"]'::jsonb, now(), now() from generate_series(?::int, ?::int) g`,
  [organizationId, from, Math.min(CONTACTS, from + 19_999)]);
}
await database.em().execute('vacuum analyze contacts');
console.log(`seeded ${CONTACTS.toLocaleString('en')} contacts in ${((performance.now() - tSeed) / 1000).toFixed(1)} s`);
await container.get(INFRA.storage).wallets.update(organizationId, () => ({ amount: CONTACTS * 10, kind: 'TOP_UP', reference: 'bench', description: 'bench' }), new Date());
const template = await call('POST', '/templates', { name: 'Promo', channel: 'SMS', body: 'Hi {{firstName}}, new stock at Kente Foods today', category: 'TRANSACTIONAL' });
const campaign = await call('POST', '/campaigns', { name: 'Stream', channel: 'SMS', templateId: template['id'] });

// The worker's V8 flags as `npm run worker` passes them (package.json); BENCH_WORKER_FLAGS overrides them to compare.
const workerFlags = (process.env['BENCH_WORKER_FLAGS'] ?? WORKER_FLAGS).split(' ').filter(Boolean);
const worker = fork(new URL('./campaign-stream-worker.ts', import.meta.url), [url], { stdio: 'inherit', execArgv: workerFlags });
await once(worker, 'message');
const memory = () => {
  const status = readFileSync(`/proc/${worker.pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
};
const idle = memory();
console.log(`worker ready (node ${workerFlags.join(' ') || 'without flags'}): RSS ${mb(idle.rss)} MB`);

const t0 = performance.now();
await call('POST', `/campaigns/${campaign['id']}/send`);
let paused = false;
let pausedFor = 0;
let view: Record<string, any> = {};
for (;;) {
  await sleep(2_000);
  const tView = performance.now();
  view = await call('GET', `/campaigns/${campaign['id']}`);
  const viewMs = performance.now() - tView;
  const p = view['progress'] as Record<string, any>;
  const m = memory();
  console.log(`${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s  ${view['status'].padEnd(7)} ${String(p['processed']).padStart(8)} / ${p['total']} (${p['percent']}%)`
    + `  rate ${p['ratePerSecond'] ?? '—'}/s  ETA ${p['etaSeconds'] ?? '—'} s  worker RSS ${mb(m.rss)} MB (peak ${mb(m.peak)})  GET ${viewMs.toFixed(0)} ms`);
  if (view['status'] === 'FAILED' || view['status'] === 'CANCELLED') { problems.push(`campaign ${view['status']}: ${view['failureReason']}`); break; }
  if (p['phase'] === 'DELIVERY' || view['status'] === 'COMPLETED') break;
  if (!paused && p['percent'] >= 30) {
    paused = true;
    const tPause = performance.now();
    await call('POST', `/campaigns/${campaign['id']}/pause`);
    await sleep(2_000); // the batch in progress commits
    const held = (await call('GET', `/campaigns/${campaign['id']}`))['progress']['processed'];
    await sleep(3_000);
    const after = (await call('GET', `/campaigns/${campaign['id']}`))['progress']['processed'];
    console.log(`paused at ${held.toLocaleString('en')}: ${after === held ? 'held still' : `MOVED to ${after}`} for 3 s; resuming`);
    if (after !== held) problems.push(`the fan-out moved while paused (${held} -> ${after})`);
    await call('POST', `/campaigns/${campaign['id']}/resume`);
    pausedFor = performance.now() - tPause;
  }
}
const seconds = (performance.now() - t0 - pausedFor) / 1000;
const peak = memory().peak;
worker.send('stop');
await once(worker, 'exit');
const counts = view['counts'] as Record<string, number>;
console.log(`fan-out of ${CONTACTS.toLocaleString('en')} recipients: ${seconds.toFixed(0)} s without the pause (${Math.round(CONTACTS / seconds).toLocaleString('en')}/s); `
  + `worker RSS idle ${mb(idle.rss)} MB, peak ${mb(peak)} MB (limit ${RSS_LIMIT_MB}); counts ${JSON.stringify(counts)}`);
if (mb(peak) > RSS_LIMIT_MB) problems.push(`worker peak RSS ${mb(peak)} MB (limit ${RSS_LIMIT_MB} MB)`);
if (counts['recipients'] !== CONTACTS) problems.push(`recipients ${counts['recipients']}, expected ${CONTACTS}`);
if (!paused) problems.push('never paused (the fan-out finished between two polls)');

await server.close(1_000);
await infra.close();
console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (shared with other sessions: timings are noisy)`);
if (problems.length > 0) { console.error(`FAILED:\n- ${problems.join('\n- ')}`); process.exit(1); }
console.log('all targets met');
