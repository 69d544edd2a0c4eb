import { expect } from 'chai';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { INFRA } from '../../hosts/tokens.ts';
import { SystemClock } from '../../adapters/memory/system-clock.ts';
import { loadProviders, MESSAGING } from '../../hosts/messaging-bindings.ts';
import { syncProviderConfiguration } from '../../hosts/provider-runtime.ts';
import { testConfig } from '../support/test-config.ts';
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

  it('requires a session (401); any signed-in user may run a health check, and a check of the last 30 s is shared, not repeated', async () => {
    expect((await app.api.get('/providers')).status).to.equal(401);
    expect((await app.api.post('/providers/x/health-check')).status).to.equal(401);
    const [tenant, other] = [await registerTenant(app.api), await registerTenant(app.api)];
    const [first] = (await app.api.get('/providers', { token: tenant.token })).body.data;
    const res = await app.api.post(`/providers/${first.id}/health-check`, undefined, { token: tenant.token });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.include({ providerId: first.id, ok: true });
    const again = await app.api.post(`/providers/${first.id}/health-check`, undefined, { token: other.token });
    expect(again.body.data).to.include({ shared: true, checkedAt: res.body.data.checkedAt });
    expect(JSON.stringify(res.body)).to.not.match(/credential|apiKey|secret/i);
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

  it('limits one user to 10 on-demand checks a minute (429 RATE_LIMITED); administrators are not limited', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-providers-'));
    const file = path.join(dir, 'providers.json');
    await writeFile(file, JSON.stringify({ providers: Array.from({ length: 12 }, (_, i) => ({
      name: `outbox-extra-${i}`, vendor: 'outbox', channel: 'SMS', priority: 2000 + i, countries: ['*'], settings: {}, credentials: {}, active: false, // never routed to
    })) }));
    const many = await startTestApp({ config: { dataDir: dir } });
    try {
      // What PROVIDERS_FILE does at start, applied to the running app: twelve providers to check.
      await syncProviderConfiguration(many.container.get(MESSAGING.providerRepository), new SystemClock(), testConfig({ providersFile: file, dataDir: dir }));
      await loadProviders(many.container);
      const tenant = await registerTenant(many.api, 'health-limit');
      const ids = ((await many.api.get('/providers', { token: tenant.token })).body.data as Array<{ id: string; name: string }>)
        .filter((p) => p.name.startsWith('outbox-extra-')).map((p) => p.id);
      expect(ids).to.have.length(12);
      const statuses = [];
      for (const id of ids.slice(0, 11)) statuses.push((await many.api.post(`/providers/${id}/health-check`, undefined, { token: tenant.token })).status);
      expect(statuses).to.deep.equal([...Array(10).fill(200), 429]);
      await many.container.get(INFRA.storage).users.setPlatformRole(tenant.userId, 'PLATFORM_SUPER_ADMIN');
      expect((await many.api.post(`/providers/${ids[11]}/health-check`, undefined, { token: tenant.token })).status).to.equal(200);
    } finally {
      await many.close();
    }
  });

  it('leaves a provider of PROVIDERS_FILE untouched when a process starts with the same file (its circuit and health survive), and updates it when the file changes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nkra-providers-'));
    const file = path.join(dir, 'providers.json');
    const entry = (settings: Record<string, string>) => ({ providers: [{
      name: 'sync-check', vendor: 'outbox', channel: 'SMS', priority: 3000, countries: ['gh', 'NG'], settings, credentials: { token: 'one' }, active: false,
    }] });
    const repository = app.container.get(MESSAGING.providerRepository);
    const sync = async (content: unknown) => {
      await writeFile(file, JSON.stringify(content));
      await syncProviderConfiguration(repository, new SystemClock(), testConfig({ providersFile: file, dataDir: dir }));
      return (await repository.listWithCredentials()).find((p) => p.config.name === 'sync-check')!;
    };
    const first = await sync(entry({ b: '2', a: '1' }));
    await new Promise((r) => setTimeout(r, 5));
    const again = await sync(entry({ a: '1', b: '2' }));
    expect(again.config.updatedAt.toISOString(), 'unchanged: not rewritten').to.equal(first.config.updatedAt.toISOString());
    const changed = await sync(entry({ a: '1', b: '3' }));
    expect(changed.config.updatedAt.getTime()).to.be.greaterThan(first.config.updatedAt.getTime());
    expect(changed.config.settings).to.deep.equal({ a: '1', b: '3' });
    const newCredentials = await sync({ providers: [{ ...entry({ a: '1', b: '3' }).providers[0], credentials: { token: 'two' } }] });
    expect(newCredentials.credentials).to.deep.equal({ token: 'two' });
    expect(newCredentials.config.updatedAt.getTime()).to.be.greaterThan(changed.config.updatedAt.getTime());
  });
});
