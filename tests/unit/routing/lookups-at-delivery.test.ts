import { expect } from 'chai';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { InMemoryNumberNetworkRepository, InMemoryRoutingSettingsRepository } from '../../../adapters/memory/in-memory-routing-repositories.ts';
import { TwilioNumberLookup } from '../../../adapters/lookups/twilio-number-lookup.ts';
import { GuardedProvider } from '../../../adapters/providers/guarded-provider.ts';
import { RoutedProviderDirectory } from '../../../adapters/providers/routed-provider-directory.ts';
import { NetworkRouter } from '../../../adapters/routing/network-router.ts';
import { networkPricingRules, type NetworkRoute } from '../../../core/domain/network-route.ts';
import { newOrganization } from '../../../core/domain/organization.ts';
import { costPreview } from '../../../core/domain/pricing.ts';
import type { ProviderConfig } from '../../../core/domain/provider.ts';
import type { Message } from '../../../core/domain/message.ts';
import { DeliverMessage } from '../../../core/use-cases/messaging/deliver-message.ts';
import { SendBulkMessages } from '../../../core/use-cases/messaging/send-bulk-messages.ts';
import { DEFAULT_FRAUD_LIMITS, type SendContext } from '../../../core/use-cases/messaging/send-context.ts';
import { buildCore } from '../../support/build-core.ts';
import { startFakeTwilioLookup } from '../../support/fake-vendors/number-lookups.ts';

const PORTED = '+233241112233'; // MTN prefix, on Telecel
const STAYS = '+233241112244'; // MTN prefix, on MTN

/**
 * Paid lookups on the paths other than the single send (issue 32): a bulk send's messages (and a
 * campaign's, a trigger's, a workflow's: they all deliver through DeliverMessage) are looked up in their
 * own delivery, charged like a send, and a ported number is routed and repriced as its real network.
 */
describe('paid lookups at delivery (bulk sends, campaigns, triggers, workflows)', () => {
  let twilio: Awaited<ReturnType<typeof startFakeTwilioLookup>>;
  before(async () => { twilio = await startFakeTwilioLookup(); twilio.networks.set(PORTED, '62002'); twilio.networks.set(STAYS, '62001'); });
  after(async () => { await twilio.close(); });

  async function world(seed = 10_000) {
    const core = buildCore();
    const now = core.clock.now();
    const organizationId = core.ids.next();
    await core.storage.organizations.insert(newOrganization(organizationId, 'Kente Foods', now));
    await core.storage.wallets.create(organizationId, now);
    await core.storage.wallets.update(organizationId, () => ({ amount: seed, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), now);
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
    const settings = new InMemoryRoutingSettingsRepository();
    const lookup = new TwilioNumberLookup({ accountSid: twilio.accountSid, authToken: twilio.authToken }, { baseUrl: twilio.url });
    const lookups = {
      settings, deps: { storage: core.storage, clock: core.clock, ids: core.ids, numbers, intelligence: router, lookup, pricePerLookup: 1 },
      priceFor: async (m: Message, network: string | null) => costPreview(await pricing.listActive(), m.channel, m.country, m.body, network)?.price ?? null,
    };
    const deliver = new DeliverMessage({ storage: core.storage, providers: directory, clock: core.clock, ids: core.ids, maxAttempts: 3, leaseSeconds: 60, routes: router, networks: router, lookups });
    // The bulk path does no lookup itself: it prices by the prefix and delivers through DeliverMessage.
    const bulk = new SendBulkMessages({ storage: core.storage, pricing, clock: core.clock, ids: core.ids, secrets: core.secrets, fraud: DEFAULT_FRAUD_LIMITS, deliverNow: (id) => deliver.execute(id), networks: router });
    const ctx: SendContext = { organizationId, userId: null, apiKeyId: 'key', isSandbox: false };
    const balance = async () => (await core.storage.wallets.get(organizationId))!.balance;
    const entries = async () => (await core.storage.wallets.listEntries(organizationId, 50)).filter((e) => e.kind !== 'TOP_UP');
    return { core, ctx, bulk, deliver, settings, numbers, router, balance, entries, organizationId, vendors };
  }

  it('looks up a bulk send\'s ported number at delivery, charged once, and routes and reprices it as Telecel (difference refunded)', async () => {
    const w = await world();
    await w.settings.setLookupMode(w.organizationId, 'always');
    const before = twilio.lookups;
    const sent = await w.bulk.execute(w.ctx, { messages: [{ channel: 'SMS', to: PORTED, body: 'Akwaaba' }, { channel: 'SMS', to: STAYS, body: 'Akwaaba' }] });
    expect(sent.logs.map((l) => [l.network, l.cost, l.provider])).to.deep.equal([['TELECEL', 0.02, 'telecel-direct'], ['MTN', 0.04, 'mtn-direct']]);
    expect(twilio.lookups - before).to.equal(2);
    expect(await w.balance()).to.equal(10_000 - 8 - 1 - 1 + 2);
    const ledger = (await w.entries()).map((e) => [e.kind, e.amount]);
    expect(ledger).to.have.deep.members([['DEBIT', -8], ['DEBIT', -1], ['DEBIT', -1], ['REFUND', 2]]);
    // Sent again (a retried job, the next campaign): known from the lookup, neither looked up nor charged again.
    const again = await w.bulk.execute(w.ctx, { messages: [{ channel: 'SMS', to: PORTED, body: 'Akwaaba' }] });
    expect(again.logs[0]).to.include({ network: 'TELECEL', cost: 0.02, provider: 'telecel-direct' });
    expect(twilio.lookups - before).to.equal(2);
    expect(await w.balance()).to.equal(10_000 - 8 - 2 + 2 - 2);
  });

  it('looks a number up once when two of its messages are delivered at once; a later one is moved to the learnt network for free', async () => {
    const w = await world();
    await w.settings.setLookupMode(w.organizationId, 'always');
    const before = twilio.lookups;
    const sent = await w.bulk.execute(w.ctx, { async: true, messages: [{ channel: 'SMS', to: PORTED, body: 'one' }, { channel: 'SMS', to: PORTED, body: 'two' }] });
    const ids = sent.logs.map((l) => l.id as string);
    await Promise.all(ids.map((id) => w.deliver.execute(id)));
    expect(twilio.lookups - before).to.equal(1);
    expect((await w.entries()).filter((e) => e.description.startsWith('Number lookup'))).to.have.length(1);
    const third = await w.bulk.execute(w.ctx, { async: true, messages: [{ channel: 'SMS', to: PORTED, body: 'three' }] });
    expect(third.logs[0]).to.include({ network: 'TELECEL' }); // priced by the learnt network at acceptance already
  });

  it('never looks up with lookups off, and never takes the wallet below zero: a lookup the wallet cannot cover is skipped, the message goes on the prefix', async () => {
    const off = await world();
    const before = twilio.lookups;
    expect((await off.bulk.execute(off.ctx, { messages: [{ channel: 'SMS', to: PORTED, body: 'hi' }] })).logs[0]).to.include({ network: 'MTN', provider: 'mtn-direct' });
    expect(twilio.lookups).to.equal(before);
    const poor = await world(4); // exactly the message
    await poor.settings.setLookupMode(poor.organizationId, 'always');
    expect((await poor.bulk.execute(poor.ctx, { messages: [{ channel: 'SMS', to: PORTED, body: 'hi' }] })).logs[0]).to.include({ network: 'MTN', cost: 0.04, status: 'SENT' });
    expect(twilio.lookups).to.equal(before);
    expect(await poor.balance()).to.equal(0);
    // The claim was released: once funded, the number is looked up.
    await poor.core.storage.wallets.update(poor.organizationId, () => ({ amount: 100, kind: 'TOP_UP', reference: 'more', description: 'more' }), poor.core.clock.now());
    expect((await poor.bulk.execute(poor.ctx, { messages: [{ channel: 'SMS', to: PORTED, body: 'hi' }] })).logs[0]).to.include({ network: 'TELECEL', cost: 0.02 });
    expect(twilio.lookups).to.equal(before + 1);
  });
});
