import { expect } from 'chai';
import { request } from 'node:http';
import { ok, requireTenant, type RouteDefinition } from '../../hosts/api/route.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';

/** A trivial API-key route, as in api-keys.test.ts. */
const WHOAMI: RouteDefinition = {
  method: 'GET', path: '/test/whoami', tag: 'Test', summary: 'The caller\'s tenant principal',
  auth: 'tenant-or-api-key', permission: 'messages:read', apiKeyScope: 'messages:read', responses: {},
  handler: async (input) => ok(requireTenant(input)),
};

interface Answer { status: number; body: { success: boolean; data?: Record<string, unknown>; error?: { code: string; message: string; details: Record<string, unknown> } } }

/** GET /test/whoami with an API key from one loopback address (the whole 127/8 reaches the server). */
function whoamiFrom(app: TestApp, localAddress: string, apiKey: string): Promise<Answer> {
  const url = new URL('/test/whoami', app.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'GET', localAddress, timeout: 10_000, headers: { 'x-api-key': apiKey } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** Issue 34 (docs/security.md, "API keys"): allowed client address ranges per key, and the last use's time and address. */
describe('HTTP: API keys limited to client address ranges; last use shown', function () {
  this.timeout(30_000);
  let app: TestApp;
  let owner: TestTenant;
  before(async () => {
    app = await startTestApp({ extraRoutes: [WHOAMI] });
    owner = await registerTenant(app.api, 'keyranges');
  });
  after(async () => { await app.close(); });

  async function createKey(body: Record<string, unknown>) {
    const res = await app.api.post('/api-keys', { name: 'ranged', scopes: ['messages:read'], ...body }, owner.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; key: string; allowedCidrs: string[]; lastUsedAt: string | null; lastUsedIp: string | null };
  }
  async function listed(id: string) {
    const res = await app.api.get('/api-keys', owner.auth);
    return (res.body.data as Array<{ id: string; lastUsedAt: string | null; lastUsedIp: string | null; allowedCidrs: string[] }>).find((k) => k.id === id)!;
  }

  it('accepts the key from an allowed address and answers 403 API_KEY_ADDRESS_NOT_ALLOWED in the spec envelope from any other', async () => {
    const key = await createKey({ allowedCidrs: ['127.0.40.0/24', '2001:DB8::/32', '127.0.41.5', '::ffff:127.0.42.0/120', '127.0.40.0/24'] });
    expect(key.allowedCidrs).to.deep.equal(['127.0.40.0/24', '2001:db8::/32', '127.0.41.5/32', '127.0.42.0/24']);
    for (const allowed of ['127.0.40.9', '127.0.41.5', '127.0.42.200']) {
      const res = await whoamiFrom(app, allowed, key.key);
      expect(res.status, `${allowed}: ${JSON.stringify(res.body)}`).to.equal(200);
      expect(res.body.data).to.include({ organizationId: owner.organizationId });
    }
    for (const refused of ['127.0.41.6', '127.0.43.1', '127.0.0.1']) {
      const res = await whoamiFrom(app, refused, key.key);
      expect(res.status, refused).to.equal(403);
      expect(res.body.success).to.equal(false);
      expect(res.body.error!.code).to.equal('API_KEY_ADDRESS_NOT_ALLOWED');
      expect(res.body.error!.message).to.include(refused);
      expect(res.body.error!.message).not.to.include(key.key);
    }
    // A bad key from a refused address is still 401: the address check never tells whether a key exists.
    expect((await whoamiFrom(app, '127.0.43.1', `${key.key.slice(0, -4)}zzzz`)).status).to.equal(401);
  });

  it('validates the ranges: not an address, host bits set, a bad prefix, more than 20', async () => {
    for (const [allowedCidrs, match] of [
      [['10.0.0.0/8', 'example.com'], /example.com is not an IPv4 or IPv6 address/],
      [['10.1.2.3/8'], /the range is 10.0.0.0\/8/],
      [['10.0.0.0/33'], /prefix length must be 0 to 32/],
      [['2001:db8::/129'], /prefix length must be 0 to 128/],
      [Array.from({ length: 21 }, (_, i) => `10.0.${i}.0/24`), /at most 20/],
      ['10.0.0.0/8', /array/],
    ] as const) {
      const res = await app.api.post('/api-keys', { name: 'bad', allowedCidrs }, owner.auth);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(res.body.error.details.fieldErrors.allowedCidrs.join(' ')).to.match(match);
    }
    expect((await createKey({ allowedCidrs: Array.from({ length: 20 }, (_, i) => `10.0.${i}.0/24`) })).allowedCidrs).to.have.length(20);
  });

  it('PATCH /api-keys/:id changes the ranges with effect at once; [] allows any address again', async () => {
    const key = await createKey({});
    expect(key.allowedCidrs).to.deep.equal([]);
    expect((await whoamiFrom(app, '127.0.50.1', key.key)).status).to.equal(200);
    const limited = await app.api.patch(`/api-keys/${key.id}`, { allowedCidrs: ['127.0.51.0/24'] }, owner.auth);
    expect(limited.status, limited.text).to.equal(200);
    expect(limited.body.data.allowedCidrs).to.deep.equal(['127.0.51.0/24']);
    expect((await whoamiFrom(app, '127.0.50.1', key.key)).body.error?.code).to.equal('API_KEY_ADDRESS_NOT_ALLOWED');
    expect((await whoamiFrom(app, '127.0.51.77', key.key)).status).to.equal(200);
    expect((await app.api.patch(`/api-keys/${key.id}`, { allowedCidrs: [] }, owner.auth)).body.data.allowedCidrs).to.deep.equal([]);
    expect((await whoamiFrom(app, '127.0.50.1', key.key)).status).to.equal(200);
    const bad = await app.api.patch(`/api-keys/${key.id}`, { allowedCidrs: ['nope'] }, owner.auth);
    expect([bad.status, bad.body.error.code]).to.deep.equal([400, 'VALIDATION_ERROR']);
    expect((await app.api.patch('/api-keys/unknown-key', { allowedCidrs: [] }, owner.auth)).body.error.code).to.equal('NOT_FOUND');
    const stranger = await registerTenant(app.api, 'keyranges-other');
    expect((await app.api.patch(`/api-keys/${key.id}`, { allowedCidrs: [] }, stranger.auth)).status).to.equal(404);
    const outsider = await registerUser(app.api, 'keyranges-outsider');
    expect((await app.api.patch(`/api-keys/${key.id}`, { allowedCidrs: [] }, { token: outsider.token, organizationId: owner.organizationId })).status).to.equal(403);
  });

  it('lists the last use\'s time and client address (recorded after the answer, refused uses not recorded)', async () => {
    const key = await createKey({ allowedCidrs: ['127.0.60.0/24'] });
    expect(await listed(key.id)).to.include({ lastUsedAt: null, lastUsedIp: null });
    expect((await whoamiFrom(app, '127.0.61.1', key.key)).status).to.equal(403);
    const before = Date.now();
    expect((await whoamiFrom(app, '127.0.60.25', key.key)).status).to.equal(200);
    let shown = await listed(key.id);
    for (let i = 0; i < 50 && shown.lastUsedAt === null; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      shown = await listed(key.id);
    }
    expect(shown.lastUsedIp).to.equal('127.0.60.25');
    expect(new Date(shown.lastUsedAt!).getTime()).to.be.within(before - 1_000, Date.now());
    // At most one write per key per minute: a use a moment later from another address is not written yet.
    expect((await whoamiFrom(app, '127.0.60.26', key.key)).status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await listed(key.id)).lastUsedIp).to.equal('127.0.60.25');
  });
});
