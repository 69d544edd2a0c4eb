import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant } from '../support/tenants.ts';

describe('HTTP: /providers', () => {
  let app: TestApp;
  before(async () => { app = await startTestApp(); });
  after(async () => { await app.close(); });

  async function admin() {
    const tenant = await registerTenant(app.api, 'provider-admin');
    await app.container.get(INFRA.storage).users.setPlatformRole(tenant.userId, 'PLATFORM_SUPER_ADMIN');
    return tenant;
  }

  it('lists a provider for every channel with routes and latest health, never credentials', async () => {
    const tenant = await registerTenant(app.api);
    const res = await app.api.get('/providers', { token: tenant.token });
    expect(res.status).to.equal(200);
    const channels = new Set(res.body.data.map((p: { channel: string }) => p.channel));
    expect([...channels].sort()).to.deep.equal(['EMAIL', 'PUSH', 'SMS', 'VOICE', 'WHATSAPP']);
    const sms = res.body.data.find((p: { name: string }) => p.name === 'outbox-sms');
    expect(sms.routes).to.deep.equal([{ country: '*', priority: 1000 }]);
    expect(sms).to.have.property('health');
    expect(JSON.stringify(res.body)).to.not.include('credentials_encrypted');
    expect(sms).to.not.have.property('credentials');
  });

  it('requires a session (401) and lets only platform administrators run a health check (403)', async () => {
    expect((await app.api.get('/providers')).status).to.equal(401);
    const tenant = await registerTenant(app.api);
    const [first] = (await app.api.get('/providers', { token: tenant.token })).body.data;
    const res = await app.api.post(`/providers/${first.id}/health-check`, undefined, { token: tenant.token });
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('FORBIDDEN');
  });

  it('runs a real health check, records it, and shows it in the provider history', async () => {
    const ops = await admin();
    const [first] = (await app.api.get('/providers', { token: ops.token })).body.data;
    const check = await app.api.post(`/providers/${first.id}/health-check`, undefined, { token: ops.token });
    expect(check.status).to.equal(200);
    expect(check.body.data).to.include({ providerId: first.id, status: 'ok', ok: true });
    const detail = await app.api.get(`/providers/${first.id}`, { token: ops.token });
    expect(detail.status).to.equal(200);
    expect(detail.body.data.healthHistory[0]).to.include({ ok: true });
    expect(detail.body.data.health).to.include({ status: 'ok' });
  });

  it('answers 404 NOT_FOUND for an unknown provider on read and on health check', async () => {
    const ops = await admin();
    expect((await app.api.get('/providers/no-such-provider', { token: ops.token })).status).to.equal(404);
    const res = await app.api.post('/providers/no-such-provider/health-check', undefined, { token: ops.token });
    expect(res.status).to.equal(404);
    expect(res.body.error.code).to.equal('NOT_FOUND');
  });
});
