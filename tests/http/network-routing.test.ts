import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { INFRA } from '../../hosts/tokens.ts';
import { ROUTING } from '../../hosts/routing-bindings.ts';
import { startFakeArkesel, type FakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const KEY = `arkesel-key-${randomUUID()}`;
const VODACOM = '+255741234567';
const AIRTEL = '+255681234567';

/**
 * Network-aware routing over HTTP (issue 32, docs/routing.md): two providers serve Tanzania (so the
 * suites sharing this database keep their routes); a network route sends Vodacom through the second at
 * its own price while Airtel keeps the country order and price; the delivery log, preview and analytics
 * show the network; organizations set their lookup mode and ask lookups. Everything is deleted at the end.
 */
describe('HTTP: network routes, lookups and per-network analytics', function () {
  this.timeout(30_000);
  let app: TestApp;
  let ops: TestTenant;
  let tenant: TestTenant;
  let liveKey: string;
  let vendor: FakeArkesel;
  const suffix = randomUUID().slice(0, 8);
  const names = { a: `tz-a-${suffix}`, b: `tz-b-${suffix}` };
  const providerIds: string[] = [];
  let routeId = '';

  before(async () => {
    vendor = await startFakeArkesel({ apiKey: KEY });
    app = await startTestApp();
    ops = await registerTenant(app.api, 'routing-ops');
    await app.container.get(INFRA.storage).users.setPlatformRole(ops.userId, 'PLATFORM_SUPER_ADMIN');
    tenant = await registerTenant(app.api, 'routing-tenant');
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    liveKey = (await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth)).body.data.key as string;
    for (const [name, priority] of [[names.a, 1], [names.b, 2]] as const) {
      const created = await app.api.post('/admin/providers', {
        name, vendor: 'arkesel-sms', channel: 'SMS', priority, countries: ['TZ'], settings: { senderId: 'NKRA', baseUrl: vendor.url }, credentials: { apiKey: KEY },
      }, { token: ops.token });
      expect(created.status, created.text).to.equal(201);
      providerIds.push(created.body.data.id as string);
    }
  });
  after(async () => {
    if (routeId) await app.api.request('DELETE', `/admin/network-routes/${routeId}`, undefined, { token: ops.token });
    for (const id of providerIds) await app.api.request('DELETE', `/admin/providers/${id}`, undefined, { token: ops.token });
    await app?.close();
    await vendor?.close();
  });

  it('refuses a network outside the country\'s plan and a provider that is not the platform\'s, and a tenant altogether', async () => {
    const unknown = await app.api.request('PUT', '/admin/network-routes', { channel: 'SMS', country: 'TZ', network: 'MTN', providers: [names.b] }, { token: ops.token });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.code).to.equal('VALIDATION_ERROR');
    expect(unknown.body.error.details.fieldErrors.network[0]).to.match(/VODACOM/);
    const stranger = await app.api.request('PUT', '/admin/network-routes', { channel: 'SMS', country: 'TZ', network: 'VODACOM', providers: ['nobody'] }, { token: ops.token });
    expect(stranger.status).to.equal(400);
    expect(stranger.body.error.details.fieldErrors.providers).to.have.length(1);
    const tenantTry = await app.api.request('PUT', '/admin/network-routes', { channel: 'SMS', country: 'TZ', network: 'VODACOM', providers: [names.b] }, tenant.auth);
    expect(tenantTry.status).to.equal(403);
  });

  it('routes and prices Vodacom by its network route while Airtel keeps the country order; preview, log and analytics show the network', async () => {
    const saved = await app.api.request('PUT', '/admin/network-routes', { channel: 'SMS', country: 'TZ', network: 'vodacom', providers: [names.b], pricePerUnit: 0.02 }, { token: ops.token });
    expect(saved.status, saved.text).to.equal(200);
    expect(saved.body.data).to.include({ country: 'TZ', network: 'VODACOM', pricePerUnit: 0.02, unit: 'segment', pinned: null });
    routeId = saved.body.data.id as string;
    const preview = await app.api.post('/messages/preview', { channel: 'SMS', to: VODACOM, body: 'Habari' }, { apiKey: liveKey });
    expect(preview.body.data).to.include({ network: 'VODACOM', price: 0.02 });
    const vodacom = await app.api.post('/messages/send', { channel: 'SMS', to: VODACOM, body: 'Habari' }, { apiKey: liveKey });
    expect(vodacom.status, vodacom.text).to.equal(201);
    expect(vodacom.body.data).to.include({ provider: names.b, network: 'VODACOM', cost: 0.02 });
    const airtel = await app.api.post('/messages/send', { channel: 'SMS', to: AIRTEL, body: 'Habari' }, { apiKey: liveKey });
    expect(airtel.body.data).to.include({ provider: names.a, network: 'AIRTEL', cost: 0.25 });
    const overview = await app.api.get('/admin/routing', { token: ops.token });
    expect(overview.body.data.routes.map((r: { id: string }) => r.id)).to.include(routeId);
    expect(overview.body.data.networks.map((p: { country: string }) => p.country)).to.include.members(['GH', 'NG', 'KE', 'CI', 'SN', 'UG', 'TZ']);
    const analytics = await app.api.get('/analytics/networks?days=7', tenant.auth);
    expect(analytics.status, analytics.text).to.equal(200);
    const networks = analytics.body.data.networks as Array<{ network: string; messages: number; cost: number; providers: Array<{ provider: string }> }>;
    expect(networks.find((n) => n.network === 'VODACOM')).to.deep.include({ messages: 1, cost: 0.02 });
    expect(networks.find((n) => n.network === 'VODACOM')!.providers.map((p) => p.provider)).to.deep.equal([names.b]);
    expect((await app.api.get('/analytics/networks?days=91', tenant.auth)).status).to.equal(400);
    // Learning counted both sends under their (provider, network), flushed to the database in one statement.
    await app.container.get(ROUTING.sync).flush();
    const buckets = await app.container.get(ROUTING.routeStats).listBuckets(new Date(Date.now() - 5 * 60_000), 10_000);
    const mine = buckets.filter((b) => b.provider === names.a || b.provider === names.b).map((b) => [b.provider, b.network, b.sent]);
    expect(mine).to.deep.include.members([[names.b, 'VODACOM', 1], [names.a, 'AIRTEL', 1]]);
  });

  it('pins a provider: a pinned route goes first whatever the route order says', async () => {
    const pinned = await app.api.request('PUT', '/admin/network-routes', { channel: 'SMS', country: 'TZ', network: 'VODACOM', providers: [names.b], pricePerUnit: 0.02, pinned: names.a }, { token: ops.token });
    expect(pinned.body.data).to.include({ id: routeId, pinned: names.a });
    const sent = await app.api.post('/messages/send', { channel: 'SMS', to: VODACOM, body: 'Habari' }, { apiKey: liveKey });
    expect(sent.body.data).to.include({ provider: names.a, network: 'VODACOM', cost: 0.02 });
  });

  it('lets an organization set its lookup mode and ask a number\'s network; a paid lookup without a lookup vendor is LOOKUP_FAILED', async () => {
    expect((await app.api.get('/routing/settings', tenant.auth)).body.data).to.deep.equal({ lookupMode: 'off', lookupAvailable: false, lookupPrice: 0.05 });
    const set = await app.api.request('PUT', '/routing/settings', { lookupMode: 'unknown' }, tenant.auth);
    expect(set.body.data).to.include({ lookupMode: 'unknown' });
    expect((await app.api.request('PUT', '/routing/settings', { lookupMode: 'sometimes' }, tenant.auth)).status).to.equal(400);
    const free = await app.api.post('/routing/lookups', { to: '0201234567', lookup: false }, { apiKey: liveKey });
    expect(free.body.data).to.deep.equal({ number: '+233201234567', country: 'GH', network: 'TELECEL', source: 'prefix', charged: 0 });
    const paid = await app.api.post('/routing/lookups', { to: '0201234567' }, { apiKey: liveKey });
    expect(paid.status).to.equal(502);
    expect(paid.body.error.code).to.equal('LOOKUP_FAILED');
  });
});
