import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { INFRA } from '../../hosts/tokens.ts';
import { startFakeArkesel, type FakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const FIRST_KEY = `first-arkesel-key-${randomUUID()}`;
const ROTATED_KEY = `rotated-arkesel-key-${randomUUID()}`;

/**
 * Provider administration (issue 17): an administrator adds, changes, rotates and deletes a provider
 * through the API, and sends route to it at once, without a restart. The provider serves Côte d'Ivoire
 * only, so the other suites sharing this database keep their routes; it is deleted at the end.
 */
describe('HTTP: /admin/providers (configured live, credentials write-only)', function () {
  this.timeout(30_000);
  let app: TestApp;
  let ops: TestTenant;
  let tenant: TestTenant;
  let liveKey: string;
  let first: FakeArkesel;
  let second: FakeArkesel;
  const answers: string[] = [];
  const name = `arkesel-ci-${randomUUID().slice(0, 8)}`;
  let providerId = '';

  before(async () => {
    [first, second] = [await startFakeArkesel({ apiKey: FIRST_KEY }), await startFakeArkesel({ apiKey: ROTATED_KEY })];
    app = await startTestApp();
    ops = await registerTenant(app.api, 'provider-ops');
    await app.container.get(INFRA.storage).users.setPlatformRole(ops.userId, 'PLATFORM_SUPER_ADMIN');
    tenant = await registerTenant(app.api, 'provider-tenant');
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    liveKey = (await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth)).body.data.key as string;
  });
  after(async () => {
    if (providerId) await app.api.request('DELETE', `/admin/providers/${providerId}`, undefined, { token: ops.token });
    await app?.close();
    await first?.close();
    await second?.close();
  });

  const record = <T extends { text: string }>(response: T): T => { answers.push(response.text); return response; };
  const sendToIvoryCoast = () => app.api.post('/messages/send', { channel: 'SMS', to: '+2250701234567', body: 'Bonjour from Accra' }, { apiKey: liveKey });

  it('adds a provider that sends at once: the API never shows its credentials', async () => {
    const created = record(await app.api.post('/admin/providers', {
      name, vendor: 'arkesel-sms', channel: 'SMS', priority: 1, countries: ['CI'], settings: { senderId: 'NKRA', baseUrl: first.url }, credentials: { apiKey: FIRST_KEY },
    }, { token: ops.token }));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data).to.include({ name, vendor: 'arkesel-sms', channel: 'SMS', active: true, hasCredentials: true });
    providerId = created.body.data.id as string;
    const sent = record(await sendToIvoryCoast());
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data).to.include({ status: 'SENT', provider: name });
    expect(first.received.filter((r) => r.path === '/api/v2/sms/send')).to.have.length(1);
    record(await app.api.get(`/providers/${providerId}`, { token: tenant.token }));
  });

  it('rotates credentials and moves the base URL: the next send uses the new ones, without a restart', async () => {
    const rotated = record(await app.api.request('PATCH', `/admin/providers/${providerId}`, { credentials: { apiKey: ROTATED_KEY }, settings: { senderId: 'NKRA', baseUrl: second.url } }, { token: ops.token }));
    expect(rotated.status, rotated.text).to.equal(200);
    const sent = record(await sendToIvoryCoast());
    expect(sent.body.data).to.include({ status: 'SENT', provider: name });
    expect(second.received.filter((r) => r.path === '/api/v2/sms/send')).to.have.length(1);
    expect(first.received.filter((r) => r.path === '/api/v2/sms/send')).to.have.length(1);
  });

  it('sends a test message through this provider only: not recorded as a tenant message, audited; refused when inactive', async () => {
    const before = second.received.length;
    const test = record(await app.api.post(`/admin/providers/${providerId}/test-message`, { to: '+2250709999999', body: 'Provider test' }, { token: ops.token }));
    expect(test.status, test.text).to.equal(200);
    expect(test.body.data).to.include({ providerId, name, to: '+2250709999999', accepted: true });
    expect(second.received.length).to.equal(before + 1);
    const bad = record(await app.api.post(`/admin/providers/${providerId}/test-message`, { to: 'not-a-phone' }, { token: ops.token }));
    expect(bad.status).to.equal(400);
    expect(record(await app.api.post('/admin/providers/no-such-id/test-message', { to: '+2250709999999' }, { token: ops.token })).status).to.equal(404);
    await app.api.request('PATCH', `/admin/providers/${providerId}`, { active: false }, { token: ops.token });
    const inactive = record(await app.api.post(`/admin/providers/${providerId}/test-message`, { to: '+2250709999999' }, { token: ops.token }));
    expect(inactive.status).to.equal(503);
    expect(inactive.body.error.code).to.equal('PROVIDER_UNAVAILABLE');
    await app.api.request('PATCH', `/admin/providers/${providerId}`, { active: true }, { token: ops.token });
  });

  it('deactivates and reactivates a provider: inactive, its country has no route', async () => {
    expect(record(await app.api.request('PATCH', `/admin/providers/${providerId}`, { active: false }, { token: ops.token })).body.data.active).to.equal(false);
    const refused = record(await sendToIvoryCoast());
    expect(refused.body.data.status).to.be.oneOf(['FAILED', 'SENT']); // FAILED unless another provider serves CI
    expect(refused.body.data.provider).to.not.equal(name);
    expect(record(await app.api.request('PATCH', `/admin/providers/${providerId}`, { active: true }, { token: ops.token })).body.data.active).to.equal(true);
    expect(record(await sendToIvoryCoast()).body.data.provider).to.equal(name);
  });

  it('refuses bad input with 400 naming the field, a taken name with 409, non-administrators with 403, unknown ids with 404', async () => {
    const post = (body: unknown) => app.api.post('/admin/providers', body, { token: ops.token });
    const unknownVendor = record(await post({ name: 'x-unknown', vendor: 'no-such-vendor', channel: 'SMS' }));
    expect(unknownVendor.status).to.equal(400);
    expect(Object.keys(unknownVendor.body.error.details.fieldErrors)).to.deep.equal(['vendor']);
    const noKey = record(await post({ name: 'x-nokey', vendor: 'arkesel-sms', channel: 'SMS', settings: { senderId: 'NKRA' } }));
    expect(noKey.status).to.equal(400);
    expect(Object.keys(noKey.body.error.details.fieldErrors)).to.deep.equal(['credentials']);
    expect(record(await post({ name: 'Bad Name!', vendor: 'outbox', channel: 'SMS' })).status).to.equal(400);
    const taken = record(await post({ name, vendor: 'outbox', channel: 'SMS', countries: ['CI'] }));
    expect(taken.status).to.equal(409);
    expect(taken.body.error.code).to.equal('CONFLICT');
    expect(record(await app.api.post('/admin/providers', { name: 'x-tenant', vendor: 'outbox', channel: 'SMS' }, { token: tenant.token })).status).to.equal(403);
    expect(record(await app.api.request('PATCH', '/admin/providers/no-such-id', { active: false }, { token: ops.token })).status).to.equal(404);
    expect(record(await app.api.request('DELETE', '/admin/providers/no-such-id', undefined, { token: ops.token })).status).to.equal(404);
  });

  it('audits every change without credential values, and never answers them anywhere', async () => {
    const audit = record(await app.api.get('/admin/audit-log?limit=50', { token: ops.token }));
    const actions = (audit.body.data.items ?? audit.body.data).filter((e: { target: string | null }) => e.target === `provider:${providerId}`).map((e: { action: string }) => e.action);
    expect(actions).to.include.members(['provider.create', 'provider.update', 'provider.test']);
    for (const text of answers) expect(text).to.not.include(FIRST_KEY).and.not.include(ROTATED_KEY);
  });

  it('deletes a provider: gone from /providers, its country no longer routed to it', async () => {
    const deleted = record(await app.api.request('DELETE', `/admin/providers/${providerId}`, undefined, { token: ops.token }));
    expect(deleted.body.data).to.deep.equal({ deleted: true, id: providerId });
    expect((await app.api.get(`/providers/${providerId}`, { token: ops.token })).status).to.equal(404);
    expect((await sendToIvoryCoast()).body.data.provider).to.not.equal(name);
    providerId = '';
  });
});
