import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { newOrganization } from '../../core/domain/organization.ts';
import { CreateCampaign } from '../../core/use-cases/campaigns/create-campaign.ts';
import { SendCampaign } from '../../core/use-cases/campaigns/send-campaign.ts';
import { StartContactImport } from '../../core/use-cases/contacts/start-contact-import.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders } from '../../hosts/messaging-bindings.ts';
import { CachedPricing } from '../../adapters/cache/cached-pricing.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { testConfig } from '../support/test-config.ts';

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('Worker: contact import and campaign through pg-boss', function () {
  this.timeout(60_000);
  let worker: RunningWorker | null = null;
  after(async () => { await worker?.stop(); });

  it('imports an uploaded CSV, then fans a campaign out to the imported contacts, delivers and completes it', async () => {
    const infra = await sharedInfrastructure();
    const sms = new RecordingProvider('SMS', 'audience-sms');
    const container = buildWorkerContainer(testConfig({ fraudNewTenantPerHour: 10_000 }), createLogger('silent'), infra, { providers: new StaticProviderDirectory([sms], []) });
    await loadProviders(container);
    worker = await startWorker(infra.boss, container.getAll(WORKER.handlers), createLogger('silent'));
    const storage = container.get(INFRA.storage); const ids = container.get(INFRA.ids); const clock = container.get(INFRA.clock);
    const organizationId = randomUUID();
    await storage.organizations.insert(newOrganization(organizationId, 'Audience worker', new Date()));
    await storage.wallets.create(organizationId, new Date());
    await storage.wallets.update(organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), new Date());

    const csv = ['firstName,phone', ...Array.from({ length: 30 }, (_, i) => `Esi${i},+23324${String(6_000_000 + i).padStart(7, '0')}`)].join('\n');
    async function* file() { yield new TextEncoder().encode(csv); }
    const job = await new StartContactImport({ storage, ids, clock }).execute({ organizationId, userId: null }, { name: 'esi.csv', content: file() });
    const imported = await until('the import', () => storage.contactImports.findById(organizationId, job.id), (j) => j?.status === 'COMPLETED');
    expect(imported).to.include({ created: 30, skipped: 0 });

    const template = { id: ids.next(), organizationId, name: 'Hello', channel: 'SMS' as const, body: 'Akwaaba {{firstName}}', subject: null, countryCode: 'GH', language: 'en',
      category: 'TRANSACTIONAL' as const, variables: ['firstName'], status: 'APPROVED' as const, reviewComment: null, createdByUserId: null, createdAt: new Date(), updatedAt: new Date() };
    await storage.templates.insert(template);
    const campaign = await new CreateCampaign({ storage, ids, clock }).execute({ organizationId, userId: null }, { name: 'Welcome', channel: 'SMS', templateId: template.id });
    // The API side prices with its own cache (as `npm start` does): the worker's pricing cache is still cold when it fans out.
    await new SendCampaign({ storage, clock, pricing: new CachedPricing(() => storage.pricing), fraud: { newTenantDays: 0, newTenantPerHour: 200 } }).execute({ organizationId }, campaign.id);
    const done = await until('completion', () => storage.campaigns.findById(organizationId, campaign.id), (c) => c?.status === 'COMPLETED', 45_000);
    expect(done?.fanOutDone).to.equal(true);
    expect(await storage.campaigns.counts(organizationId, campaign.id)).to.include({ recipients: 30, sent: 30 });
    expect(sms.received.filter((m) => m.body.startsWith('Akwaaba Esi'))).to.have.length(30);
  });
});
