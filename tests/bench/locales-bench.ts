import os from 'node:os';
import { openDatabase } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { seedPricingRules } from '../../adapters/postgres/seed-pricing.ts';
import { startBoss } from '../../adapters/queue/pg-boss-factory.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { newOrganization } from '../../core/domain/organization.ts';
import { CreateCampaign } from '../../core/use-cases/campaigns/create-campaign.ts';
import { EstimateCampaign } from '../../core/use-cases/campaigns/estimate-campaign.ts';
import { RunCampaign } from '../../core/use-cases/campaigns/run-campaign.ts';
import { SendCampaign } from '../../core/use-cases/campaigns/send-campaign.ts';
import { CreateTemplate } from '../../core/use-cases/templates/create-template.ts';
import { PutTemplateVariant } from '../../core/use-cases/templates/put-template-variant.ts';
import { buildApiContainer } from '../../hosts/api/container.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders, MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { testConfig } from '../support/test-config.ts';
import { ensureBenchDatabase } from './send-server.ts';

/**
 * `npm run bench:locales` (issue 33's bar) on PostgreSQL (DATABASE_URL names the server, default
 * postgres://postgres@127.0.0.1:5432/postgres; the bench uses the database nkra_bench_locales, emptied at start):
 * a campaign to 100,000 contacts in 4 locales (none -> the organization's en, tw, ee, fr), the template's
 * variants in different encodings and lengths; GET /campaigns/{id}/estimate's use case, then the send and the
 * worker's fan-out (RunCampaign, the real opt-out links of a MARKETING campaign). Exits 1 unless the wallet
 * debit is within 1 pesewa of the estimate and every locale got its own text. --contacts=N changes the size.
 */
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const CONTACTS = arg('contacts', 100_000);
const problems: string[] = [];
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const url = await ensureBenchDatabase(process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'nkra_bench_locales');
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
const config = testConfig({ databaseUrl: url, fraudNewTenantDays: 0, logLevel: 'silent' });
const infra = { database, boss, async close() { await boss.stop({ graceful: false, close: true } as never).catch(() => undefined); await database.close(); } };
const container = buildApiContainer(config, createLogger('silent'), infra);
await loadProviders(container);
const storage = container.get(INFRA.storage); const ids = container.get(INFRA.ids); const clock = container.get(INFRA.clock);
const messaging = { pricing: container.get(MESSAGING.pricing), fraud: container.get(MESSAGING.fraudLimits), optOutLinks: container.get(MESSAGING.optOutLinks),
  ownAccounts: container.get(MESSAGING.ownAccountPricing) };

const organizationId = ids.next();
await storage.organizations.insert(newOrganization(organizationId, 'Locales bench', new Date(Date.now() - 30 * 86_400_000)));
await storage.wallets.create(organizationId, new Date());
await storage.wallets.update(organizationId, () => ({ amount: CONTACTS * 20, kind: 'TOP_UP', reference: 'bench', description: 'bench' }), new Date());
await database.em().execute(`insert into contacts (id, organization_id, first_name, phone, country_code, tags, locale, created_at, updated_at)
  select gen_random_uuid()::text, ?, 'Kojo' || g, '+23324' || lpad(g::text, 7, '0'), 'GH', '[]'::jsonb,
    (array[null, 'tw', 'ee', 'fr'])[g % 4 + 1], now(), now() from generate_series(1, ?) g`, [organizationId, CONTACTS]);
await database.em().execute('analyze contacts');

const scope = { organizationId, userId: null };
const template = await new CreateTemplate({ storage, ids, clock }).execute(scope, { name: 'Delivery', channel: 'SMS', body: 'Hi {{firstName}}, your parcel from Kente Foods arrives today between 9 and 12.' });
const variants: Record<string, string> = {
  tw: 'Akwaaba {{firstName}}, wo nneɛma a efi Kente Foods bɛduru nnɛ, nnɔnhwerew 9 ne 12 ntam. Yɛda wo ase!', // UCS-2
  ee: 'Woezɔ {{firstName}}, wò nuwo tso Kente Foods gbɔ la ava egbe.', // UCS-2 (ɔ), short
  fr: `Bonjour {{firstName}}, votre colis de Kente Foods arrive aujourd'hui entre 9h et 12h. ${'Merci de votre confiance, a tres vite. '.repeat(2)}`, // GSM-7, 2 segments
};
for (const [locale, body] of Object.entries(variants)) await new PutTemplateVariant({ storage, ids, clock }).execute(scope, template.id, locale, { body });
const campaign = await new CreateCampaign({ storage, ids, clock }).execute(scope, { name: 'Locales', channel: 'SMS', templateId: template.id });

const t0 = performance.now();
const estimate = await new EstimateCampaign({ storage, clock, ...messaging }).execute(scope, campaign.id);
const tEstimate = performance.now() - t0;
const balance = (await storage.wallets.get(organizationId))!.balance;
const t1 = performance.now();
await new SendCampaign({ storage, clock, ...messaging }).execute(scope, campaign.id);
await new RunCampaign({ storage, clock, ids, ...messaging, timing: container.get(MESSAGING.sendTiming) }).execute({ campaignId: campaign.id, organizationId });
const tFanout = performance.now() - t1;
const debit = balance - (await storage.wallets.get(organizationId))!.balance;
const estimated = Math.round(estimate.cost * 100);

const perLocale = await database.em().execute<Array<{ locale: string | null; n: string; cost: string; segments: number; encoding: string }>>(
  `select locale, count(*) as n, sum(cost) as cost, max(segments) as segments, max(encoding) as encoding from messages where organization_id = ? group by locale order by locale`, [organizationId]);
console.log(`contacts ${CONTACTS.toLocaleString('en')} in 4 locales; estimate in ${tEstimate.toFixed(0)} ms, send + fan-out in ${seconds(tFanout)}`);
for (const l of estimate.locales) {
  const sent = perLocale.find((p) => p.locale === l.locale);
  console.log(`  ${l.locale.padEnd(3)} recipients ${String(l.recipients).padStart(6)} ${String(l.encoding).padEnd(5)} ${l.segments} seg  estimate GHS ${l.cost.toFixed(2).padStart(8)}  charged GHS ${(Number(sent?.cost ?? 0) / 100).toFixed(2).padStart(8)} (${sent?.n ?? 0} messages, ${sent?.encoding} ${sent?.segments} seg)`);
  if (Number(sent?.n ?? 0) !== l.recipients) problems.push(`${l.locale}: ${sent?.n ?? 0} messages for ${l.recipients} recipients`);
}
console.log(`estimate GHS ${estimate.cost.toFixed(2)} (${estimated} pesewas); wallet debit ${debit} pesewas; difference ${debit - estimated} pesewas`);
if (Math.abs(debit - estimated) > 1) problems.push(`the debit (${debit}) is not within 1 pesewa of the estimate (${estimated})`);
if (estimate.locales.length !== 4) problems.push(`expected 4 locales, got ${estimate.locales.map((l) => l.locale).join(', ')}`);

await infra.close();
console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
if (problems.length > 0) { console.error(`FAILED:\n- ${problems.join('\n- ')}`); process.exit(1); }
console.log('bar met: estimate within 1 pesewa of the charged total');
