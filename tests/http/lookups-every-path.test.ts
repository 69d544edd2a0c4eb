import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { RunCampaign } from '../../core/use-cases/campaigns/run-campaign.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startFakeTwilioLookup, type FakeLookup } from '../support/fake-vendors/number-lookups.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/** A fresh Tanzanian number with a Vodacom prefix (74): never looked up before in this database. */
const vodacomNumber = () => `+25574${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

/**
 * Issue 32: an organization's paid lookup mode holds on every send path, not only POST /messages/send.
 * On PostgreSQL with a local Twilio Lookup: the campaign estimate shows the lookups' cost; the fan-out
 * and a bulk send look numbers up in each message's own delivery, charged once per number (one ledger
 * entry each), a ported number routed and repriced as its real network (the difference refunded), and a
 * number looked up once is never looked up or charged again.
 */
describe('HTTP: paid number lookups on campaigns and bulk sends', function () {
  this.timeout(60_000);
  let app: TestApp;
  let twilio: FakeLookup & { accountSid: string; authToken: string };
  let ops: TestTenant;
  let owner: TestTenant;
  let routeId = '';
  const ported = vodacomNumber(); // now on Airtel
  const stays = vodacomNumber();
  const fresh = vodacomNumber();
  const triggered = vodacomNumber(); // ported to Airtel, reached by an event trigger

  before(async () => {
    twilio = await startFakeTwilioLookup();
    twilio.networks.set(ported, '64005');
    twilio.networks.set(stays, '64004');
    twilio.networks.set(fresh, '64004');
    twilio.networks.set(triggered, '64005');
    app = await startTestApp({
      providers: new StaticProviderDirectory([new RecordingProvider('SMS', 'lookup-paths-sms')], []),
      config: { numberLookup: { vendor: 'twilio', credentials: { accountSid: twilio.accountSid, authToken: twilio.authToken }, baseUrl: twilio.url, price: 5, ttlDays: 30 } },
    });
    ops = await registerTenant(app.api, 'lookup-paths-ops');
    await app.container.get(INFRA.storage).users.setPlatformRole(ops.userId, 'PLATFORM_SUPER_ADMIN');
    // Airtel Tanzania priced apart (GHS 0.02 a segment): a ported number's lookup changes its price.
    const route = await app.api.request('PUT', '/admin/network-routes', { channel: 'SMS', country: 'TZ', network: 'AIRTEL', providers: [], pricePerUnit: 0.02 }, { token: ops.token });
    expect(route.status, route.text).to.equal(200);
    routeId = route.body.data.id as string;
    owner = await registerTenant(app.api, 'lookup-paths');
    await app.container.get(INFRA.storage).wallets.update(owner.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    expect((await app.api.request('PUT', '/routing/settings', { lookupMode: 'always' }, owner.auth)).body.data).to.include({ lookupMode: 'always', lookupAvailable: true, lookupPrice: 0.05 });
    for (const phone of [ported, stays]) expect((await app.api.post('/contacts', { firstName: 'Asha', phone, tags: ['lookups'] }, owner.auth)).status).to.equal(201);
  });
  after(async () => {
    if (routeId) await app.api.request('DELETE', `/admin/network-routes/${routeId}`, undefined, { token: ops.token });
    await app?.close();
    await twilio?.close();
  });

  it('estimates, charges and applies lookups for a campaign\'s recipients at delivery, once per number', async () => {
    const storage = app.container.get(INFRA.storage);
    const template = await app.api.post('/templates', { name: 'T', channel: 'SMS', body: 'Habari {{firstName}}', category: 'TRANSACTIONAL' }, owner.auth);
    const segment = await app.api.post('/segments', { name: 'Lookups', rules: { field: 'tags', op: 'contains', value: 'lookups' } }, owner.auth);
    const campaign = await app.api.post('/campaigns', { name: 'Lookups', channel: 'SMS', templateId: template.body.data.id, segmentId: segment.body.data.id }, owner.auth);
    expect(campaign.status, campaign.text).to.equal(201);
    const id = campaign.body.data.id as string;
    const estimate = (await app.api.get(`/campaigns/${id}/estimate`, owner.auth)).body.data;
    expect(estimate.lookups).to.deep.equal({ mode: 'always', recipients: 2, price: 0.05, cost: 0.1 });
    expect(estimate.totalCost).to.be.closeTo(estimate.cost + 0.1, 1e-9);
    const before = twilio.lookups;
    expect((await app.api.post(`/campaigns/${id}/send`, undefined, owner.auth)).status).to.equal(200);
    expect(twilio.lookups).to.equal(before); // the fan-out itself looks nothing up
    await new RunCampaign({ ...app.container.get(MESSAGING.sendDeps), batchSize: 10 }).execute({ campaignId: id, organizationId: owner.organizationId });
    const accepted = (await storage.messages.list(owner.organizationId, {}, 0, 100)).items;
    expect(accepted.map((m) => m.network).sort()).to.deep.equal(['VODACOM', 'VODACOM']); // priced by the prefix at acceptance
    const vodacomPrice = accepted[0]!.cost;
    const deliver = app.container.get(MESSAGING.deliverMessage);
    await Promise.all(accepted.map((m) => deliver.execute(m.id)));
    // A retried job (the same message again) looks nothing up.
    for (const m of accepted) await deliver.execute(m.id);
    expect(twilio.lookups - before).to.equal(2);
    const byRecipient = new Map((await storage.messages.list(owner.organizationId, {}, 0, 100)).items.map((m) => [m.recipient, m]));
    expect(byRecipient.get(ported)).to.include({ network: 'AIRTEL', cost: 2, status: 'SENT' });
    expect(byRecipient.get(stays)).to.include({ network: 'VODACOM', cost: vodacomPrice });
    const entries = await storage.wallets.listEntries(owner.organizationId, 50);
    expect(entries.filter((e) => e.description.startsWith('Number lookup')).map((e) => e.amount)).to.deep.equal([-5, -5]);
    expect(entries.filter((e) => e.reference.endsWith(':network-price')).map((e) => [e.kind, e.amount])).to.deep.equal([['REFUND', vodacomPrice - 2]]);
    expect((await storage.wallets.get(owner.organizationId))!.balance).to.equal(10_000 - 2 * vodacomPrice - 10 + (vodacomPrice - 2));
  });

  it('looks up a bulk send\'s new number at delivery and never again a number looked up before; the preview names the lookup price only when one would be made', async () => {
    const storage = app.container.get(INFRA.storage);
    const key = (await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, owner.auth)).body.data.key as string;
    const preview = await app.api.post('/messages/preview', { channel: 'SMS', to: fresh, body: 'Habari' }, { apiKey: key });
    expect(preview.body.data).to.include({ network: 'VODACOM', lookupPrice: 0.05 });
    expect((await app.api.post('/messages/preview', { channel: 'SMS', to: ported, body: 'Habari' }, { apiKey: key })).body.data).to.include({ network: 'AIRTEL' }).and.not.have.property('lookupPrice');
    const before = twilio.lookups;
    const lookupsCharged = async () => (await storage.wallets.listEntries(owner.organizationId, 100)).filter((e) => e.description.startsWith('Number lookup')).length;
    const charged = await lookupsCharged();
    const bulk = await app.api.post('/messages/bulk', { countryCode: 'TZ', messages: [{ channel: 'SMS', to: fresh, body: 'one' }, { channel: 'SMS', to: ported, body: 'two' }] }, { apiKey: key });
    expect(bulk.status, bulk.text).to.equal(201);
    expect(bulk.body.data.map((l: { network: string; cost: number }) => [l.network, l.cost === 0.02])).to.deep.equal([['VODACOM', false], ['AIRTEL', true]]);
    expect(twilio.lookups - before).to.equal(1);
    expect(await lookupsCharged()).to.equal(charged + 1);
    expect((await storage.wallets.get(owner.organizationId))!.balance).to.be.at.least(0);
  });

  it('looks up an event trigger\'s recipient in its delivery: routed and priced as the network the lookup names', async () => {
    const key = (await app.api.post('/api-keys', { name: 'Live 2', isSandbox: false }, owner.auth)).body.data.key as string;
    const template = await app.api.post('/templates', { name: 'Shipped', channel: 'SMS', body: 'Order {{order}} shipped' }, owner.auth);
    expect((await app.api.post('/events', { name: 'Shipped', slug: 'order.shipped', templateId: template.body.data.id }, owner.auth)).status).to.equal(201);
    const before = twilio.lookups;
    const res = await app.api.post('/events/trigger', { event: 'order.shipped', to: triggered, countryCode: 'TZ', variables: { order: 'A-1' } }, { apiKey: key });
    expect(res.status, res.text).to.equal(201);
    expect(twilio.lookups - before).to.equal(1);
    const log = res.body.data.deliveryLogs[0] as { network: string; cost: number; status: string };
    expect(log).to.include({ network: 'AIRTEL', cost: 0.02, status: 'SENT' });
  });
});
