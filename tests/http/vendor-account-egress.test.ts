import { expect } from 'chai';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { makeTestServiceAccount } from '../support/fake-vendors/fcm.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const FCM_TOKEN = `fcm-instance-id:APA91b${'x7Yq'.repeat(36)}`;
const REMOTE_TEXT = 'internal-metadata-secret-7c1e';

/** A listener that records every TCP connection made to it (on IPv4 loopback, and IPv6 loopback where the host has it). */
async function startConnectionRecorder() {
  const connections: string[] = [];
  const servers: net.Server[] = [];
  const v4 = net.createServer((socket) => { connections.push(socket.remoteAddress ?? '?'); socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}'); });
  await new Promise<void>((resolve) => v4.listen(0, '127.0.0.1', resolve));
  servers.push(v4);
  const port = (v4.address() as AddressInfo).port;
  const v6 = net.createServer((socket) => { connections.push(socket.remoteAddress ?? '?'); socket.destroy(); });
  await new Promise<void>((resolve) => { v6.once('error', () => resolve()); v6.listen(port, '::1', resolve); });
  if (v6.listening) servers.push(v6);
  return { port, connections, close: () => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))) };
}

/**
 * Issue 28.1, SSRF through credentials: a tenant's FCM service account names `token_uri`, which the
 * server POSTs a signed JWT to. Own accounts' endpoints go through the egress policy (docs/security.md):
 * only the vendor's own hosts (or the operator's VENDOR_BASE_URLS origin), refused when saved and again
 * at every connection, no redirects, and nothing the remote end wrote reflected to the tenant.
 */
describe('HTTP: own vendor accounts cannot reach internal addresses (egress policy)', function () {
  this.timeout(30_000);
  let app: TestApp;
  let tenant: TestTenant;
  let recorder: Awaited<ReturnType<typeof startConnectionRecorder>>;
  let operatorFake: http.Server;
  let operatorUrl = '';
  const operatorRequests: string[] = [];

  before(async () => {
    recorder = await startConnectionRecorder();
    // The operator's own FCM endpoint (VENDOR_BASE_URLS, a local fake): trusted, so its token endpoint works; it redirects
    // sends to the recorder and answers token requests it dislikes with body text that must never reach the tenant.
    operatorFake = http.createServer((req, res) => {
      operatorRequests.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        if (req.url === '/token') { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ access_token: 'ya29.test', expires_in: 3600 })); return; }
        if (req.url === '/bad-token') { res.writeHead(400, { 'content-type': 'application/json' }); res.end(JSON.stringify({ error: 'invalid_grant', error_description: REMOTE_TEXT })); return; }
        res.writeHead(302, { location: `http://127.0.0.1:${recorder.port}/stolen` }); res.end(REMOTE_TEXT);
      });
    });
    await new Promise<void>((resolve) => operatorFake.listen(0, '127.0.0.1', resolve));
    operatorUrl = `http://127.0.0.1:${(operatorFake.address() as AddressInfo).port}`;
    // The test config lets 127.0.0.1, localhost and ::1 through the address check (EGRESS_ALLOW_PRIVATE_HOSTS, for webhook
    // receivers): it must not widen FCM's host allow-list.
    app = await startTestApp({ config: { vendorBaseUrls: { 'fcm-push': operatorUrl } } });
    tenant = await registerTenant(app.api, 'egress-tenant');
  });
  after(async () => {
    await app?.close();
    operatorFake?.close();
    await recorder?.close();
  });

  const account = (tokenUri: string) => ({ name: `fcm-${Math.random().toString(36).slice(2, 8)}`, vendor: 'fcm-push', credentials: { serviceAccountJson: makeTestServiceAccount(tokenUri).json } });
  const internalUris = () => [
    `http://127.0.0.1:${recorder.port}/token`, `http://localhost:${recorder.port}/token`, 'http://169.254.169.254/computeMetadata/v1/token',
    `http://[::1]:${recorder.port}/token`, `http://[::ffff:127.0.0.1]:${recorder.port}/token`, `http://2130706433:${recorder.port}/token`,
    `https://127.0.0.1:${recorder.port}/token`, `http://0177.0.0.1:${recorder.port}/token`, `https://oauth2.googleapis.com.evil.test/token`,
  ];

  it('refuses a token_uri off Google\'s hosts when the account is saved (400 naming the field), without connecting', async () => {
    for (const uri of internalUris()) {
      const res = await app.api.post('/vendor-accounts', account(uri), tenant.auth);
      expect(res.status, `${uri}: ${res.text}`).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(res.body.error.details.fieldErrors.credentials[0]).to.match(/^serviceAccountJson\.token_uri: .* is not a fcm-push host/);
    }
    const created = await app.api.post('/vendor-accounts', account('https://oauth2.googleapis.com/token'), tenant.auth);
    expect(created.status, created.text).to.equal(201);
    const rotated = await app.api.request('PATCH', `/vendor-accounts/${created.body.data.id}`, { credentials: account(`http://localhost:${recorder.port}/t`).credentials }, tenant.auth);
    expect(rotated.status).to.equal(400);
    expect(rotated.body.error.details.fieldErrors).to.have.key('credentials');
    expect(recorder.connections).to.deep.equal([]);
  });

  it('refuses again at send time an account stored before the check, and connects nowhere', async () => {
    const runtime = app.container.get(MESSAGING.runtime);
    const repository = app.container.get(MESSAGING.providerRepository);
    for (const uri of internalUris()) {
      const stored = await repository.create({
        name: `legacy-${Math.random().toString(36).slice(2, 8)}`, vendor: 'fcm-push', channel: 'PUSH', priority: 1, active: true, countries: ['*'], settings: {},
        organizationId: tenant.organizationId, platformFallback: true,
      }, account(uri).credentials, new Date());
      await runtime.reload();
      const res = await app.api.post(`/vendor-accounts/${stored.id}/test-message`, { to: FCM_TOKEN }, tenant.auth);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data, uri).to.include({ accepted: false, retryable: false, errorCode: 'ENDPOINT_REFUSED' });
      expect(res.body.data.errorMessage).to.match(/endpoint refused by the egress policy/);
    }
    expect(recorder.connections).to.deep.equal([]);
  });

  it('does not follow a vendor redirect to an internal address, and never reflects the remote answer\'s text', async () => {
    const owner = await registerTenant(app.api, 'egress-owner'); // the first tenant holds its 10 accounts by now
    const good = await app.api.post('/vendor-accounts', account(`${operatorUrl}/token`), owner.auth);
    expect(good.status, good.text).to.equal(201);
    const redirected = await app.api.post(`/vendor-accounts/${good.body.data.id}/test-message`, { to: FCM_TOKEN }, owner.auth);
    expect(redirected.body.data.accepted).to.equal(false);
    expect(operatorRequests.some((r) => r.startsWith('POST /v1/projects/'))).to.equal(true);
    expect(recorder.connections).to.deep.equal([]);
    expect(redirected.text).to.not.include(REMOTE_TEXT);

    const bad = await app.api.post('/vendor-accounts', account(`${operatorUrl}/bad-token`), owner.auth);
    expect(bad.status, bad.text).to.equal(201);
    const refused = await app.api.post(`/vendor-accounts/${bad.body.data.id}/test-message`, { to: FCM_TOKEN }, owner.auth);
    expect(refused.body.data).to.include({ accepted: false, errorCode: 'AUTH_FAILED' });
    expect(refused.body.data.errorMessage).to.match(/auth failed \(HTTP 4xx\)$/);
    expect(refused.text).to.not.include(REMOTE_TEXT);
    // The worker's periodic health check of the account (shown in GET /vendor-accounts/{id}): our classification only.
    const health = await app.container.get(MESSAGING.runtime).runHealthCheck(bad.body.data.id);
    expect(health).to.include({ ok: false });
    expect(health!.detail).to.not.include(REMOTE_TEXT);
    expect(health!.detail).to.match(/health check failed \(HTTP 4xx\)$/);
    const listed = await app.api.get(`/vendor-accounts/${bad.body.data.id}`, owner.auth);
    expect(listed.text).to.not.include(REMOTE_TEXT);
  });
});
