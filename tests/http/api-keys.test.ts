import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { MemberRole } from '../../core/domain/roles.ts';
import { ok, requireTenant, type RouteDefinition } from '../../hosts/api/route.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';

/** A trivial API-key route (the real ones, message send and event trigger, are built elsewhere). */
const WHOAMI: RouteDefinition = {
  method: 'GET', path: '/test/whoami', tag: 'Test', summary: 'The caller\'s tenant principal',
  auth: 'tenant-or-api-key', permission: 'messages:read', apiKeyScope: 'messages:read', responses: {},
  handler: async (input) => ok(requireTenant(input)),
};

describe('HTTP: /api-keys create, list, revoke, and X-API-Key authentication', () => {
  let app: TestApp;
  let owner: TestTenant;
  before(async () => {
    app = await startTestApp({ extraRoutes: [WHOAMI] });
    owner = await registerTenant(app.api, 'keys');
  });
  after(async () => { await app.close(); });

  async function createKey(body: Record<string, unknown>, tenant = owner) {
    const res = await app.api.post('/api-keys', body, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; key: string; prefix: string; isSandbox: boolean; scopes: string[] };
  }

  /** A registered user given `role` in the owner's organization directly (the invite endpoint is tested elsewhere). */
  async function memberWithRole(role: MemberRole) {
    const user = await registerUser(app.api, role.toLowerCase());
    await app.container.get(INFRA.storage).memberships.insert({
      id: randomUUID(), organizationId: owner.organizationId, userId: user.userId, role, createdAt: new Date(),
    });
    return { token: user.token, organizationId: owner.organizationId };
  }

  it('POST /api-keys answers 201 with the full key once, defaults applied', async () => {
    const res = await app.api.post('/api-keys', { name: 'Checkout server' }, owner.auth);
    expect(res.status).to.equal(201);
    expect(res.body.success).to.equal(true);
    const data = res.body.data;
    expect(data.key).to.match(/^nk_test_[A-Za-z0-9_-]{43}$/);
    expect(data).to.include({ name: 'Checkout server', isSandbox: true, prefix: data.key.slice(0, 12), state: 'active', expiresAt: null, revokedAt: null });
    expect(data.scopes).to.deep.equal(['messages:send', 'messages:read', 'events:read', 'events:trigger']);
    expect(data).to.not.have.property('keyHash');
  });

  it('GET /api-keys lists prefixes only, newest first, never `key` or `keyHash`', async () => {
    const tenant = await registerTenant(app.api, 'list');
    const first = await createKey({ name: 'First' }, tenant);
    const second = await createKey({ name: 'Second', isSandbox: false }, tenant);
    const res = await app.api.get('/api-keys', tenant.auth);
    expect(res.status).to.equal(200);
    expect(res.body.data.map((k: { id: string }) => k.id)).to.deep.equal([second.id, first.id]);
    expect(res.body.data[0]).to.include({ name: 'Second', prefix: second.prefix, isSandbox: false });
    for (const view of res.body.data) expect(view).to.not.have.any.keys('key', 'keyHash');
    expect(res.text).to.not.include(first.key).and.not.include(second.key);
  });

  it('POST /api-keys answers 400 NAME_REQUIRED without a name or with a blank one', async () => {
    for (const body of [{}, { name: '  ' }, { isSandbox: false, scopes: ['not:a-scope'] }]) {
      const res = await app.api.post('/api-keys', body, owner.auth);
      expect(res.status).to.equal(400);
      expect(res.body.error.code, JSON.stringify(body)).to.equal('NAME_REQUIRED');
    }
  });

  it('POST /api-keys answers 400 VALIDATION_ERROR naming an unknown scope, and for an expiry in the past', async () => {
    const scope = await app.api.post('/api-keys', { name: 'Bad', scopes: ['messages:send', 'wallet:drain'] }, owner.auth);
    expect(scope.status).to.equal(400);
    expect(scope.body.error.code).to.equal('VALIDATION_ERROR');
    expect(scope.body.error.details.fieldErrors.scopes[0]).to.include('wallet:drain');
    const past = await app.api.post('/api-keys', { name: 'Old', expiresAt: '2020-01-01T00:00:00Z' }, owner.auth);
    expect(past.status).to.equal(400);
    expect(past.body.error).to.deep.include({ code: 'VALIDATION_ERROR', details: { fieldErrors: { expiresAt: ['must be in the future'] }, formErrors: [] } });
  });

  it('authenticates a valid key as its organization, carrying the sandbox flag and scopes', async () => {
    const sandbox = await createKey({ name: 'Sandbox', scopes: ['messages:read'] });
    const live = await createKey({ name: 'Live', isSandbox: false, scopes: ['messages:read', 'messages:send'] });
    const a = await app.api.get('/test/whoami', { apiKey: sandbox.key });
    expect(a.status, a.text).to.equal(200);
    expect(a.body.data).to.deep.equal({
      organizationId: owner.organizationId, userId: null, role: null, apiKey: { id: sandbox.id, isSandbox: true, scopes: ['messages:read'] },
    });
    const b = await app.api.get('/test/whoami', { apiKey: live.key });
    expect(b.body.data.apiKey).to.include({ id: live.id, isSandbox: false });
  });

  it('answers 401 UNAUTHORIZED for an unknown or malformed key', async () => {
    for (const apiKey of [`nk_test_${'A'.repeat(43)}`, 'not-a-key']) {
      const res = await app.api.get('/test/whoami', { apiKey });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('UNAUTHORIZED');
    }
  });

  it('answers 403 FORBIDDEN for a key without the route\'s scope', async () => {
    const key = await createKey({ name: 'Send only', scopes: ['messages:send'] });
    const res = await app.api.get('/test/whoami', { apiKey: key.key });
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('FORBIDDEN');
  });

  it('DELETE /api-keys/:id revokes at once (the key answers 401 right after), and again is 200', async () => {
    const key = await createKey({ name: 'To revoke' });
    expect((await app.api.get('/test/whoami', { apiKey: key.key })).status).to.equal(200); // cached as active now

    const revoked = await app.api.delete(`/api-keys/${key.id}`, owner.auth);
    expect(revoked.status).to.equal(200);
    expect(revoked.body.data).to.include({ id: key.id, state: 'revoked' });
    expect(revoked.body.data.revokedAt).to.be.a('string');
    expect(revoked.body.data).to.not.have.any.keys('key', 'keyHash');

    const after = await app.api.get('/test/whoami', { apiKey: key.key });
    expect(after.status).to.equal(401);
    expect(after.body.error.code).to.equal('UNAUTHORIZED');

    const again = await app.api.delete(`/api-keys/${key.id}`, owner.auth);
    expect(again.status).to.equal(200);
    // lastUsedAt and lastUsedIp are written in the background after the whoami call (cached-api-key-lookup.ts): they may land between the two answers.
    const withoutLastUse = (data: Record<string, unknown>) => ({ ...data, lastUsedAt: null, lastUsedIp: null });
    expect(withoutLastUse(again.body.data)).to.deep.equal(withoutLastUse(revoked.body.data));
    const listed = (await app.api.get('/api-keys', owner.auth)).body.data.find((k: { id: string }) => k.id === key.id);
    expect(listed).to.include({ state: 'revoked', revokedAt: revoked.body.data.revokedAt });
  });

  it('DELETE /api-keys/:id answers 404 NOT_FOUND for an unknown id', async () => {
    const res = await app.api.delete(`/api-keys/${randomUUID()}`, owner.auth);
    expect(res.status).to.equal(404);
    expect(res.body.error.code).to.equal('NOT_FOUND');
  });

  it('answers 401 UNAUTHORIZED once a key\'s expiry has passed', async function () {
    this.timeout(10_000);
    const key = await createKey({ name: 'Brief', expiresAt: new Date(Date.now() + 2_000).toISOString() });
    expect((await app.api.get('/test/whoami', { apiKey: key.key })).status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    const res = await app.api.get('/test/whoami', { apiKey: key.key });
    expect(res.status).to.equal(401);
    expect(res.body.error.code).to.equal('UNAUTHORIZED');
    expect(res.body.error.message).to.include('expired');
  });

  it('refuses an API key on JWT-only routes with 401 (keys cannot manage keys)', async () => {
    const key = await createKey({ name: 'Not for the dashboard' });
    for (const res of [
      await app.api.get('/api-keys', { apiKey: key.key }),
      await app.api.post('/api-keys', { name: 'Minted by a key' }, { apiKey: key.key }),
      await app.api.delete(`/api-keys/${key.id}`, { apiKey: key.key }),
    ]) {
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('UNAUTHORIZED');
    }
  });

  it('answers 401 without credentials and 400 ORGANIZATION_REQUIRED without X-Organization-Id', async () => {
    const none = await app.api.get('/api-keys');
    expect(none.status).to.equal(401);
    expect(none.body.error.code).to.equal('UNAUTHORIZED');
    const noOrg = await app.api.post('/api-keys', { name: 'x' }, { token: owner.token });
    expect(noOrg.status).to.equal(400);
    expect(noOrg.body.error.code).to.equal('ORGANIZATION_REQUIRED');
  });

  it('lets a VIEWER list keys but not create or revoke them (403 FORBIDDEN); a DEVELOPER may create', async () => {
    const key = await createKey({ name: 'Owner\'s' });
    const viewer = await memberWithRole('VIEWER');
    expect((await app.api.get('/api-keys', viewer)).status).to.equal(200);
    const create = await app.api.post('/api-keys', { name: 'Viewer key' }, viewer);
    expect(create.status).to.equal(403);
    expect(create.body.error.code).to.equal('FORBIDDEN');
    const revoke = await app.api.delete(`/api-keys/${key.id}`, viewer);
    expect(revoke.status).to.equal(403);
    const developer = await memberWithRole('DEVELOPER');
    expect((await app.api.post('/api-keys', { name: 'Developer key' }, developer)).status).to.equal(201);
  });

  it('keeps tenants apart: another organization\'s user gets 403 with this X-Organization-Id, and 404 revoking this org\'s key from their own', async () => {
    const key = await createKey({ name: 'Tenant A key' });
    const other = await registerTenant(app.api, 'other');
    const asOwnerOrg = { token: other.token, organizationId: owner.organizationId };
    for (const res of [
      await app.api.get('/api-keys', asOwnerOrg),
      await app.api.post('/api-keys', { name: 'Planted' }, asOwnerOrg),
      await app.api.delete(`/api-keys/${key.id}`, asOwnerOrg),
    ]) {
      expect(res.status).to.equal(403);
      expect(res.body.error.code).to.equal('FORBIDDEN');
    }
    const fromOwn = await app.api.delete(`/api-keys/${key.id}`, other.auth);
    expect(fromOwn.status).to.equal(404);
    expect(fromOwn.body.error.code).to.equal('NOT_FOUND');
    expect((await app.api.get('/api-keys', other.auth)).body.data).to.deep.equal([]);
    expect((await app.api.get('/test/whoami', { apiKey: key.key })).status).to.equal(200);
  });

  it('ignores an organization id in the body: the key belongs to the X-Organization-Id organization', async () => {
    const other = await registerTenant(app.api, 'target');
    const key = await createKey({ name: 'Planted', organizationId: other.organizationId });
    const res = await app.api.get('/test/whoami', { apiKey: key.key });
    expect(res.body.data.organizationId).to.equal(owner.organizationId);
  });
});
