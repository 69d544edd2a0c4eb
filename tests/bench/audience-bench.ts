import { createWriteStream, openAsBlob } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { CsvParseReader } from '../../adapters/csv/csv-parse-reader.ts';
import { openDatabase } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { seedPricingRules } from '../../adapters/postgres/seed-pricing.ts';
import { startBoss } from '../../adapters/queue/pg-boss-factory.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { CreateCampaign } from '../../core/use-cases/campaigns/create-campaign.ts';
import { RunCampaign } from '../../core/use-cases/campaigns/run-campaign.ts';
import { SendCampaign } from '../../core/use-cases/campaigns/send-campaign.ts';
import { ProcessContactImport } from '../../core/use-cases/contacts/process-contact-import.ts';
import { buildApiContainer, buildApp } from '../../hosts/api/container.ts';
import { listen } from '../../hosts/api/server.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders, MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { testConfig } from '../support/test-config.ts';
import { ensureBenchDatabase } from './send-server.ts';

/**
 * `npm run bench:audience` on PostgreSQL (DATABASE_URL names the server, default
 * postgres://postgres@127.0.0.1:5432/postgres; the bench uses the database nkra_bench, emptied at start):
 * 1. import of a generated 1,000,000-row CSV: HTTP multipart upload through the real app, then the
 *    worker's ProcessContactImport to COMPLETED (target <= 60 s end to end);
 * 2. POST /segments/preview over those 1,000,000 contacts (target < 500 ms, median of 5);
 * 3. campaign fan-out to 100,000 contacts of another organization: send, then RunCampaign until every
 *    message is queued (target <= 30 s).
 * --rows=N and --fanout=N change the sizes. Exits 1 when a target is missed or a count is wrong.
 */
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ROWS = arg('rows', 1_000_000);
const FANOUT = arg('fanout', 100_000);
const problems: string[] = [];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const serverUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const url = await ensureBenchDatabase(serverUrl);
{
  const wipe = await openDatabase({ databaseUrl: url, poolSize: 1 });
  await wipe.em().execute('drop schema if exists public cascade');
  await wipe.em().execute('drop schema if exists pgboss cascade');
  await wipe.em().execute('create schema public');
  await wipe.close();
}
const database = await openDatabase({ databaseUrl: url, poolSize: 10 });
await migrate(database);
await seedPricingRules(database, new UuidV7IdGenerator());
const boss = await startBoss(database, { supervise: false, schedule: false });
const config = testConfig({ databaseUrl: url, importMaxBytes: 500 * 1024 * 1024, fraudNewTenantDays: 0, logLevel: 'silent' });
const logger = createLogger('silent');
const infra = { database, boss, async close() { await boss.stop({ graceful: false, close: true } as never).catch(() => undefined); await database.close(); } };
const container = buildApiContainer(config, logger, infra);
await loadProviders(container);
const server = await listen(buildApp(container), 0, '127.0.0.1', logger);
const base = `http://127.0.0.1:${server.port}`;
const storage = container.get(INFRA.storage); const ids = container.get(INFRA.ids); const clock = container.get(INFRA.clock);

async function tenant(label: string) {
  const res = await fetch(`${base}/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${label}-${Date.now()}@bench.test`, password: 'correct-horse-battery', firstName: 'B', lastName: 'B', organizationName: label }) });
  const body = await res.json() as { data: { token: string; organizations: Array<{ id: string }> } };
  return { token: body.data.token, organizationId: body.data.organizations[0]!.id };
}
const headers = (t: { token: string; organizationId: string }) => ({ authorization: `Bearer ${t.token}`, 'x-organization-id': t.organizationId });

// 1. Import
const file = path.join(os.tmpdir(), `nkra-bench-${process.pid}.csv`);
{
  const out = createWriteStream(file);
  out.write('firstName,lastName,phone,email,countryCode,tags\n');
  const prefixes = ['24', '54', '55', '53', '20', '50', '26', '27'];
  for (let i = 0; i < ROWS; i += 1) {
    const line = `Ama${i},Mensah,0${prefixes[i % 8]}${String(i).padStart(7, '0')},user${i}@bench.test,,${i % 10 === 0 ? 'vip;accra' : 'accra'}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end(); await once(out, 'finish');
}
const importer = await tenant('import');
const t0 = performance.now();
const form = new FormData();
form.append('file', await openAsBlob(file, { type: 'text/csv' }), 'bench.csv');
const uploaded = await fetch(`${base}/contacts/import`, { method: 'POST', body: form, headers: headers(importer) });
const job = (await uploaded.json() as { data: { id: string } }).data;
const tUpload = performance.now() - t0;
const processor = new ProcessContactImport({ storage, ids, clock, csv: new CsvParseReader() });
let done = await processor.execute(job.id);
while (done?.status === 'PROCESSING') done = await processor.execute(job.id); // what the worker does with the re-enqueued job after each 500,000-row run
const tImport = performance.now() - t0;
await rm(file, { force: true });
console.log(`import: ${ROWS.toLocaleString('en')} rows, upload ${seconds(tUpload)}, total ${seconds(tImport)} (${Math.round(ROWS / (tImport / 1000)).toLocaleString('en')} rows/s); created ${done?.created}, skipped ${done?.skipped}`);
if (done?.created !== ROWS) problems.push(`import created ${done?.created}, expected ${ROWS}`);
if (ROWS >= 1_000_000 && tImport > 60_000) problems.push(`import took ${seconds(tImport)} (target 60 s)`);
await database.em().execute('vacuum analyze contacts');

// 2. Segment preview
const rules = { all: [{ field: 'phone', op: 'startsWith', value: ['024', '054', '055', '059'] }, { field: 'tags', op: 'contains', value: 'vip' }, { field: 'optedOut', op: 'equals', value: false }] };
const timings: number[] = [];
let count = 0;
for (let i = 0; i < 6; i += 1) {
  const t = performance.now();
  const res = await fetch(`${base}/segments/preview`, { method: 'POST', body: JSON.stringify({ rules }), headers: { ...headers(importer), 'content-type': 'application/json' } });
  count = (await res.json() as { data: { count: number } }).data.count;
  if (i > 0) timings.push(performance.now() - t);
}
timings.sort((a, b) => a - b);
const median = timings[Math.floor(timings.length / 2)]!;
console.log(`segment preview over ${ROWS.toLocaleString('en')} contacts: median ${median.toFixed(0)} ms (min ${timings[0]!.toFixed(0)}, max ${timings.at(-1)!.toFixed(0)}), count ${count}`);
if (count !== ROWS / 20) problems.push(`preview counted ${count}, expected ${ROWS / 20}`);
if (ROWS >= 1_000_000 && median >= 500) problems.push(`preview median ${median.toFixed(0)} ms (target < 500 ms)`);

// 3. Fan-out
const sender = await tenant('fanout');
await database.em().execute(`insert into contacts (id, organization_id, first_name, phone, country_code, tags, created_at, updated_at)
  select gen_random_uuid()::text, ?, 'Kojo' || g, '+23324' || lpad(g::text, 7, '0'), 'GH', '["promo"]'::jsonb, now(), now() from generate_series(1, ?) g`, [sender.organizationId, FANOUT]);
await database.em().execute('analyze contacts');
await storage.wallets.update(sender.organizationId, () => ({ amount: FANOUT * 10, kind: 'TOP_UP', reference: 'bench', description: 'bench' }), new Date());
const templateRes = await fetch(`${base}/templates`, { method: 'POST', headers: { ...headers(sender), 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'Promo', channel: 'SMS', body: 'Hi {{firstName}}, new stock at Kente Foods today', category: 'TRANSACTIONAL' }) });
const templateId = (await templateRes.json() as { data: { id: string } }).data.id;
const scope = { organizationId: sender.organizationId, userId: null };
const campaign = await new CreateCampaign({ storage, ids, clock }).execute(scope, { name: 'Bench', channel: 'SMS', templateId });
const t1 = performance.now();
await new SendCampaign({ storage, clock, pricing: container.get(MESSAGING.pricing), fraud: container.get(MESSAGING.fraudLimits) }).execute(scope, campaign.id);
const ran = await new RunCampaign({ storage, clock, ids, pricing: container.get(MESSAGING.pricing), fraud: container.get(MESSAGING.fraudLimits), timing: container.get(MESSAGING.sendTiming) })
  .execute({ campaignId: campaign.id, organizationId: sender.organizationId });
const tFanout = performance.now() - t1;
const counts = await storage.campaigns.counts(sender.organizationId, campaign.id);
console.log(`fan-out to ${FANOUT.toLocaleString('en')} contacts: all queued in ${seconds(tFanout)} (${Math.round(FANOUT / (tFanout / 1000)).toLocaleString('en')} messages/s); fanOutDone ${ran?.fanOutDone}, counts ${JSON.stringify(counts)}`);
if (counts.queued !== FANOUT) problems.push(`fan-out queued ${counts.queued}, expected ${FANOUT}`);
if (FANOUT >= 100_000 && tFanout > 30_000) problems.push(`fan-out took ${seconds(tFanout)} (target 30 s)`);

await server.close(1_000);
await infra.close();
console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
if (problems.length > 0) { console.error(`FAILED:\n- ${problems.join('\n- ')}`); process.exit(1); }
console.log('all targets met');
