import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { VENDOR_CHANNELS } from '../../core/domain/channel.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startFakeArkesel, type FakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const API_KEY = `metrics-arkesel-key-${randomUUID()}`;
const GOOD = ['+221771234567', '+221771234568'];
const INVALID = '+221779999999';

/**
 * GET /admin/provider-metrics (docs/observability.md): figures of real sends through a provider that
 * serves Senegal only (so the other suites sharing this database keep their routes), read back from the
 * shared database; deleted at the end.
 */
describe('HTTP: GET /admin/provider-metrics (per provider figures of the last hour)', function () {
  this.timeout(30_000);
  let app: TestApp;
  let ops: TestTenant;
  let tenant: TestTenant;
  let arkesel: FakeArkesel;
  const name = `arkesel-sn-${randomUUID().slice(0, 8)}`;
  let providerId = '';

  before(async () => {
    arkesel = await startFakeArkesel({ apiKey: API_KEY });
    arkesel.invalidNumbers.add(INVALID.slice(1));
    app = await startTestApp();
    ops = await registerTenant(app.api, 'metrics-ops');
    await app.container.get(INFRA.storage).users.setPlatformRole(ops.userId, 'PLATFORM_SUPER_ADMIN');
    tenant = await registerTenant(app.api, 'metrics-tenant');
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    const created = await app.api.post('/admin/providers', {
      name, vendor: 'arkesel-sms', channel: 'SMS', priority: 1, countries: ['SN'], settings: { senderId: 'NKRA', baseUrl: arkesel.url }, credentials: { apiKey: API_KEY },
    }, { token: ops.token });
    expect(created.status, created.text).to.equal(201);
    providerId = created.body.data.id as string;
    const liveKey = (await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth)).body.data.key as string;
    for (const to of [...GOOD, INVALID]) {
      const sent = await app.api.post('/messages/send', { channel: 'SMS', to, body: 'Salut from Accra' }, { apiKey: liveKey });
      expect(sent.status, sent.text).to.equal(201);
    }
  });
  after(async () => {
    if (providerId) await app.api.request('DELETE', `/admin/providers/${providerId}`, undefined, { token: ops.token });
    await app?.close();
    await arkesel?.close();
  });

  it('refuses a tenant user with FORBIDDEN and an anonymous caller with UNAUTHORIZED', async () => {
    const forbidden = await app.api.get('/admin/provider-metrics', { token: tenant.token });
    expect(forbidden.status).to.equal(403);
    expect(forbidden.body.error.code).to.equal('FORBIDDEN');
    expect((await app.api.get('/admin/provider-metrics')).status).to.equal(401);
  });

  it('answers the provider attempts, error codes, latency, circuit and health, a zero-filled minute series and the waiting messages per channel', async () => {
    await app.api.post(`/providers/${providerId}/health-check`, {}, { token: ops.token });
    const res = await app.api.get('/admin/provider-metrics?minutes=60', { token: ops.token });
    expect(res.status, res.text).to.equal(200);
    const data = res.body.data;
    expect(data.window.minutes).to.equal(60);
    expect(data.circuitScope).to.equal('as seen by this API process');
    const row = data.providers.find((p: { name: string }) => p.name === name);
    expect(row).to.deep.include({ id: providerId, vendor: 'arkesel-sms', channel: 'SMS', active: true, attempts: 3, accepted: 2, failed: 1, circuit: 'closed' });
    expect(row.errorRate).to.be.closeTo(1 / 3, 0.001);
    expect(row.topErrors).to.deep.equal([{ code: 'INVALID_NUMBER', count: 1 }]);
    expect(row.latencyMs.p50).to.be.a('number');
    expect(row.latencyMs.max).to.be.at.least(row.latencyMs.p95).and.at.least(row.latencyMs.p50);
    expect(row.health).to.include({ ok: true, status: 'ok' });
    expect(row.series).to.have.length(60);
    expect(row.series.reduce((s: number, m: { attempts: number }) => s + m.attempts, 0)).to.equal(3);
    expect(data.series).to.have.length(60);
    expect(data.series.reduce((s: number, m: { attempts: number }) => s + m.attempts, 0)).to.be.at.least(3);
    expect(data.queues.map((q: { channel: string }) => q.channel)).to.deep.equal([...VENDOR_CHANNELS]);
  });

  it('narrows the window with minutes and refuses minutes outside 1..60 with VALIDATION_ERROR', async () => {
    const five = await app.api.get('/admin/provider-metrics?minutes=5', { token: ops.token });
    expect(five.status, five.text).to.equal(200);
    expect(five.body.data.series).to.have.length(5);
    expect(five.body.data.window.minutes).to.equal(5);
    for (const minutes of ['0', '61', 'abc', '-1']) {
      const bad = await app.api.get(`/admin/provider-metrics?minutes=${minutes}`, { token: ops.token });
      expect(bad.status, minutes).to.equal(400);
      expect(bad.body.error.code).to.equal('VALIDATION_ERROR');
      expect(bad.body.error.details.fieldErrors).to.have.property('minutes');
    }
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await app.api.get('/openapi.json');
    const operation = doc.body.paths['/admin/provider-metrics']?.get;
    expect(operation, 'GET /admin/provider-metrics').to.exist;
    expect(operation.parameters.map((p: { name: string }) => p.name)).to.include('minutes');
  });
});
