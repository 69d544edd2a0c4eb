import { expect } from 'chai';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { InMemoryNumberNetworkRepository, InMemoryRoutingSettingsRepository } from '../../../adapters/memory/in-memory-routing-repositories.ts';
import { TwilioNumberLookup } from '../../../adapters/lookups/twilio-number-lookup.ts';
import { GuardedProvider } from '../../../adapters/providers/guarded-provider.ts';
import { RoutedProviderDirectory } from '../../../adapters/providers/routed-provider-directory.ts';
import { NetworkRouter } from '../../../adapters/routing/network-router.ts';
import { networkPricingRules, type NetworkRoute } from '../../../core/domain/network-route.ts';
import { newOrganization } from '../../../core/domain/organization.ts';
import type { ProviderConfig } from '../../../core/domain/provider.ts';
import { ApplyDeliveryReport } from '../../../core/use-cases/messaging/apply-delivery-report.ts';
import { DeliverMessage } from '../../../core/use-cases/messaging/deliver-message.ts';
import { DEFAULT_FRAUD_LIMITS, type SendContext } from '../../../core/use-cases/messaging/send-context.ts';
import { SendMessage } from '../../../core/use-cases/messaging/send-message.ts';
import { buildCore } from '../../support/build-core.ts';
import { startFakeTwilioLookup } from '../../support/fake-vendors/number-lookups.ts';

const PORTED = '+233241112233';

async function world(options: { lookupBaseUrl?: string; lookupCredentials?: { accountSid: string; authToken: string } } = {}) {
  const core = buildCore();
  const now = core.clock.now();
  const organizationId = core.ids.next();
  await core.storage.organizations.insert(newOrganization(organizationId, 'Kente Foods', now));
  await core.storage.wallets.create(organizationId, now);
  await core.storage.wallets.update(organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), now);
  const route = (network: string, provider: string, price: number): NetworkRoute => ({
    id: `r-${network}`, channel: 'SMS', country: 'GH', network, providers: [provider], pricePerUnit: price, pinned: null, createdAt: now, updatedAt: now,
  });
  const numbers = new InMemoryNumberNetworkRepository();
  const router = new NetworkRouter({ persist: (e164, known) => numbers.save({ e164, ...known, learnedAt: core.clock.now(), expiresAt: null }) });
  router.setRoutes([route('MTN', 'mtn-direct', 4), route('TELECEL', 'telecel-direct', 2)]);
  const config = (name: string): ProviderConfig => ({ id: name, name, vendor: 'test', channel: 'SMS', priority: 1, active: true, settings: {}, countries: ['GH'],
    hasCredentials: false, organizationId: null, platformFallback: true, createdAt: now, updatedAt: now });
  const vendors = { mtn: new RecordingProvider('SMS', 'mtn-direct'), telecel: new RecordingProvider('SMS', 'telecel-direct') };
  const directory = new RoutedProviderDirectory([vendors.mtn, vendors.telecel].map((p) => ({ config: config(p.name), provider: new GuardedProvider(p, { breaker: { threshold: 5, cooldownMs: 1_000 }, maxConcurrency: 5, maxPerSecond: 0 }) })), []);
  directory.useNetworkOrdering(router);
  const pricing = { listActive: async () => [...await core.storage.pricing.listActive(), ...networkPricingRules(router.routes())] };
  const deliver = new DeliverMessage({ storage: core.storage, providers: directory, clock: core.clock, ids: core.ids, maxAttempts: 3, leaseSeconds: 60, routes: router, networks: router });
  const settings = new InMemoryRoutingSettingsRepository();
  const lookup = options.lookupCredentials ? new TwilioNumberLookup(options.lookupCredentials, { baseUrl: options.lookupBaseUrl! }) : null;
  const send = new SendMessage({
    storage: core.storage, pricing, clock: core.clock, ids: core.ids, secrets: core.secrets, fraud: DEFAULT_FRAUD_LIMITS, deliverNow: (id) => deliver.execute(id), networks: router,
    lookups: { settings, deps: { storage: core.storage, clock: core.clock, ids: core.ids, numbers, intelligence: router, lookup, pricePerLookup: 1 } },
  });
  const reports = new ApplyDeliveryReport({ storage: core.storage, clock: core.clock, ids: core.ids, routes: router, networks: router });
  const ctx: SendContext = { organizationId, userId: null, apiKeyId: 'key', isSandbox: false };
  const balance = async () => (await core.storage.wallets.get(organizationId))!.balance;
  return { core, ctx, send, reports, vendors, settings, numbers, router, balance, organizationId };
}

describe('a ported number (MTN prefix, now on Telecel)', () => {
  it('is routed and priced as Telecel after one delivery report naming Telecel, and the delivery log records the network', async () => {
    const w = await world();
    const first = await w.send.execute(w.ctx, { channel: 'SMS', to: PORTED, body: 'Akwaaba' });
    expect(first.log).to.include({ network: 'MTN', cost: 0.04, provider: 'mtn-direct' });
    const report = { providerMessageId: w.vendors.mtn.received[0] ? `rec_${w.vendors.mtn.received[0].internalMessageId}` : '', status: 'DELIVERED' as const, errorCode: null, vendorStatus: 'Success', occurredAt: null, networkCode: '62002' };
    const delivered = await w.reports.execute('mtn-direct', report, 'test');
    expect(delivered).to.include({ status: 'DELIVERED', network: 'TELECEL' });
    const second = await w.send.execute(w.ctx, { channel: 'SMS', to: PORTED, body: 'Akwaaba' });
    expect(second.log).to.include({ network: 'TELECEL', cost: 0.02, provider: 'telecel-direct' });
    expect(await w.numbers.find(PORTED, w.core.clock.now())).to.include({ network: 'TELECEL', source: 'report' });
    // The learning counts: one send and its report under MTN (the network it was sent as), one send under Telecel.
    expect(w.router.drain().map((b) => [b.provider, b.network, b.sent, b.delivered])).to.deep.equal([['mtn-direct', 'MTN', 1, 1], ['telecel-direct', 'TELECEL', 1, 0]]);
  });

  describe('with lookups', () => {
    let twilio: Awaited<ReturnType<typeof startFakeTwilioLookup>>;
    before(async () => { twilio = await startFakeTwilioLookup(); twilio.networks.set(PORTED, '62002'); });
    after(async () => { await twilio.close(); });

    it('is routed and priced as Telecel after one lookup (charged once, from the wallet) for an organization that looks up always', async () => {
      const w = await world({ lookupBaseUrl: twilio.url, lookupCredentials: { accountSid: twilio.accountSid, authToken: twilio.authToken } });
      await w.settings.setLookupMode(w.organizationId, 'always');
      const before = twilio.lookups;
      const first = await w.send.execute(w.ctx, { channel: 'SMS', to: PORTED, body: 'Akwaaba' });
      expect(first.log).to.include({ network: 'TELECEL', cost: 0.02, provider: 'telecel-direct' });
      const second = await w.send.execute(w.ctx, { channel: 'SMS', to: PORTED, body: 'Akwaaba' });
      expect(second.log).to.include({ network: 'TELECEL', provider: 'telecel-direct' });
      expect(twilio.lookups - before).to.equal(1);
      expect(await w.balance()).to.equal(10_000 - 2 - 2 - 1);
      const entries = await w.core.storage.wallets.listEntries(w.organizationId, 10);
      expect(entries.filter((e) => e.description.startsWith('Number lookup'))).to.have.length(1);
    });

    it('never looks up for an organization with lookups off, and refunds a lookup the vendor fails (the send goes on the prefix)', async () => {
      const off = await world({ lookupBaseUrl: twilio.url, lookupCredentials: { accountSid: twilio.accountSid, authToken: twilio.authToken } });
      const before = twilio.lookups;
      expect((await off.send.execute(off.ctx, { channel: 'SMS', to: PORTED, body: 'hi' })).log).to.include({ network: 'MTN' });
      expect(twilio.lookups).to.equal(before);
      const failing = await world({ lookupBaseUrl: twilio.url, lookupCredentials: { accountSid: twilio.accountSid, authToken: twilio.authToken } });
      await failing.settings.setLookupMode(failing.organizationId, 'always');
      twilio.script({ kind: 'error', status: 503 });
      expect((await failing.send.execute(failing.ctx, { channel: 'SMS', to: PORTED, body: 'hi' })).log).to.include({ network: 'MTN', cost: 0.04 });
      expect(await failing.balance()).to.equal(10_000 - 4);
    });
  });
});
