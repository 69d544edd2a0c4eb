import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startFakeArkesel, type FakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const KEY = `paced-arkesel-key-${randomUUID()}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Rate shaping end to end (docs/providers.md, "Rate shaping"; docs/admin.md, "Delivery weight and ceiling"):
 * an administrator gives a provider `settings.ratePerSecond`, and delivery through the real container (buckets
 * in PostgreSQL) paces to it; an organization's weight and ceiling are set through the admin API. The provider
 * serves Rwanda only, so other suites keep their routes; it is deleted at the end.
 */
describe('HTTP: rate shaping (provider ratePerSecond, tenant delivery limits)', function () {
  this.timeout(30_000);
  let app: TestApp;
  let vendor: FakeArkesel;
  let ops: TestTenant;
  let tenant: TestTenant;
  let liveKey: string;
  let providerId = '';

  before(async () => {
    vendor = await startFakeArkesel({ apiKey: KEY });
    app = await startTestApp();
    ops = await registerTenant(app.api, 'rate-ops');
    await app.container.get(INFRA.storage).users.setPlatformRole(ops.userId, 'PLATFORM_SUPER_ADMIN');
    tenant = await registerTenant(app.api, 'rate-tenant');
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    liveKey = (await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth)).body.data.key as string;
  });
  after(async () => {
    if (providerId) await app.api.request('DELETE', `/admin/providers/${providerId}`, undefined, { token: ops.token });
    await app?.close();
    await vendor?.close();
  });

  it('refuses a ratePerSecond that is not a rate with 400 naming settings', async () => {
    for (const ratePerSecond of ['fast', '0', '-3', '200000']) {
      const res = await app.api.post('/admin/providers', { name: `bad-rate-${randomUUID().slice(0, 6)}`, vendor: 'outbox', channel: 'SMS', countries: ['ZZ'], settings: { ratePerSecond } }, { token: ops.token });
      expect(res.status, ratePerSecond).to.equal(400);
      expect(Object.keys(res.body.error.details.fieldErrors)).to.deep.equal(['settings']);
    }
  });

  it('lets an organization pace its own vendor account (settings.ratePerSecond), validated the same way', async () => {
    const bad = await app.api.post('/vendor-accounts', { name: 'own-paced', vendor: 'arkesel-sms', settings: { senderId: 'ACME', ratePerSecond: 'fast' }, credentials: { apiKey: 'k' } }, tenant.auth);
    expect(bad.status, bad.text).to.equal(400);
    expect(Object.keys(bad.body.error.details.fieldErrors)).to.deep.equal(['settings']);
    const good = await app.api.post('/vendor-accounts', { name: 'own-paced', vendor: 'arkesel-sms', countries: ['ZZ'], settings: { senderId: 'ACME', ratePerSecond: '2.5' }, credentials: { apiKey: 'k' } }, tenant.auth);
    expect(good.status, good.text).to.equal(201);
    expect(good.body.data.settings).to.include({ ratePerSecond: '2.5' });
    expect((await app.api.request('DELETE', `/vendor-accounts/${good.body.data.id}`, undefined, tenant.auth)).status).to.be.oneOf([200, 204]);
  });

  it('paces deliveries to a provider\'s ratePerSecond: postponed messages keep their attempt, each reaches the vendor once, at most 2 a second', async () => {
    const created = await app.api.post('/admin/providers', {
      name: `paced-rw-${randomUUID().slice(0, 8)}`, vendor: 'arkesel-sms', channel: 'SMS', priority: 1, countries: ['RW'],
      settings: { senderId: 'NKRA', baseUrl: vendor.url, ratePerSecond: '2' }, credentials: { apiKey: KEY },
    }, { token: ops.token });
    expect(created.status, created.text).to.equal(201);
    providerId = created.body.data.id as string;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = await app.api.post('/messages/send', { channel: 'SMS', to: `+25078812345${i}`, body: `Muraho ${i}`, async: true }, { apiKey: liveKey });
      expect(sent.status, sent.text).to.equal(202);
      ids.push(sent.body.data.id as string);
    }
    const deliver = app.container.get(MESSAGING.deliverMessage);
    const storage = app.container.get(INFRA.storage);
    const first = await deliver.executeMany(ids);
    expect(first.filter((o) => o.error !== undefined), 'a rate wait fails no job').to.deep.equal([]);
    const waiting = (await storage.messages.findManyByIds(tenant.organizationId, ids)).filter((m) => m.status === 'QUEUED');
    expect(waiting.length, 'only what the rate allows went at once').to.be.at.least(3);
    expect(waiting.every((m) => m.attempts === 0 && m.leaseUntil === null)).to.equal(true);
    for (let round = 0; round < 60; round++) {
      const left = (await storage.messages.findManyByIds(tenant.organizationId, ids)).filter((m) => m.status === 'QUEUED').map((m) => m.id);
      if (left.length === 0) break;
      await deliver.executeMany(left);
      await pause(100);
    }
    const messages = await storage.messages.findManyByIds(tenant.organizationId, ids);
    expect(messages.map((m) => [m.status, m.attempts])).to.deep.equal(ids.map(() => ['SENT', 1]));
    const times = vendor.received.filter((r) => r.path === '/api/v2/sms/send').map((r) => r.receivedAt).sort((a, b) => a - b);
    expect(times).to.have.length(5);
    const busiest = Math.max(...times.map((t, i) => times.slice(i).filter((u) => u < t + 1_000).length));
    expect(busiest, times.map((t) => t - times[0]!).join(' ')).to.be.at.most(3); // 2 a second, one more at a window's edge
  });

  it('sets an organization\'s delivery weight and ceiling (platform administrators, audited), 404 for an unknown one, 400 for bad values, 403 for tenants', async () => {
    const path = `/admin/tenants/${tenant.organizationId}/delivery-limits`;
    expect((await app.api.get(path, { token: ops.token })).body.data).to.deep.equal({ organizationId: tenant.organizationId, deliveryWeight: 1, maxDeliveryPerSecond: null });
    const set = await app.api.request('PATCH', path, { deliveryWeight: 2, maxDeliveryPerSecond: 50 }, { token: ops.token });
    expect(set.status, set.text).to.equal(200);
    expect(set.body.data).to.deep.equal({ organizationId: tenant.organizationId, deliveryWeight: 2, maxDeliveryPerSecond: 50 });
    const cleared = await app.api.request('PATCH', path, { maxDeliveryPerSecond: null }, { token: ops.token });
    expect(cleared.body.data).to.deep.equal({ organizationId: tenant.organizationId, deliveryWeight: 2, maxDeliveryPerSecond: null });
    expect((await app.api.get(path, { token: ops.token })).body.data.deliveryWeight).to.equal(2);
    const audit = await app.api.get(`/admin/audit-log?organizationId=${tenant.organizationId}`, { token: ops.token });
    expect(audit.body.data.items.filter((e: { action: string }) => e.action === 'tenant.delivery-limits')).to.have.length(2);
    const bad = await app.api.request('PATCH', path, { deliveryWeight: 0, maxDeliveryPerSecond: 'many' }, { token: ops.token });
    expect(bad.status).to.equal(400);
    expect(Object.keys(bad.body.error.details.fieldErrors).sort()).to.deep.equal(['deliveryWeight', 'maxDeliveryPerSecond']);
    expect((await app.api.request('PATCH', '/admin/tenants/no-such-org/delivery-limits', { deliveryWeight: 2 }, { token: ops.token })).status).to.equal(404);
    expect((await app.api.get('/admin/tenants/no-such-org/delivery-limits', { token: ops.token })).status).to.equal(404);
    expect((await app.api.request('PATCH', path, { deliveryWeight: 5 }, { token: tenant.token, organizationId: tenant.organizationId })).status).to.equal(403);
    await app.api.request('PATCH', path, { deliveryWeight: 1 }, { token: ops.token });
  });
});
