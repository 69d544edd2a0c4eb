import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { docSnippetVerifier } from '../support/webhook-doc-snippet.ts';

describe('HTTP: /webhook-endpoints', function () {
  this.timeout(20_000);
  let app: TestApp;
  let owner: TestTenant;
  let other: TestTenant;
  let receiver: WebhookReceiver;
  const verify = docSnippetVerifier();

  before(async () => {
    app = await startTestApp();
    owner = await registerTenant(app.api, 'hooks');
    other = await registerTenant(app.api, 'hooks-other');
    receiver = await startWebhookReceiver();
  });
  after(async () => { await receiver.close(); await app.close(); });
  beforeEach(() => { receiver.received.length = 0; receiver.respond = () => ({ status: 200 }); });

  async function create(body: Record<string, unknown> = {}, tenant = owner) {
    const res = await app.api.post('/webhook-endpoints', { url: receiver.url, ...body }, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; secret: string; events: string[]; subscribedTo: string[]; isActive: boolean };
  }

  it('refuses an endpoint without url with 400 URL_REQUIRED, and bad fields with VALIDATION_ERROR', async () => {
    for (const body of [{}, { url: '' }, { url: '   ', events: [] }, { events: ['message.status.updated'] }]) {
      const res = await app.api.post('/webhook-endpoints', body, owner.auth);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error.code).to.equal('URL_REQUIRED');
    }
    const notHttp = await app.api.post('/webhook-endpoints', { url: 'ftp://example.com/x' }, owner.auth);
    expect(notHttp.status).to.equal(400);
    expect(notHttp.body.error.details.fieldErrors.url[0]).to.match(/http/);
    const badKind = await app.api.post('/webhook-endpoints', { url: receiver.url, events: ['message.sent'] }, owner.auth);
    expect(badKind.status).to.equal(400);
    expect(badKind.body.error.details.fieldErrors).to.have.property('events');
  });

  it('returns the signing secret once at creation and never again; empty events means every kind', async () => {
    const created = await create({ events: [] });
    expect(created.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.subscribedTo).to.deep.equal(['message.status.updated', 'contact.opted_out', 'campaign.completed', 'verification.approved', 'verification.failed', 'message.received', 'verification.budget_exceeded', 'contact.push_token_removed', 'workflow.run_failed', 'message.clicked', 'message.opened', 'routing.route_shifted']);
    const list = await app.api.get('/webhook-endpoints', owner.auth);
    expect(list.status).to.equal(200);
    expect(list.text).not.to.include(created.secret);
    expect(list.text).not.to.match(/ciphertext|v1\./i);
    expect(list.body.data.map((e: { id: string }) => e.id)).to.include(created.id);
    expect((await app.api.get('/webhook-endpoints', other.auth)).body.data.map((e: { id: string }) => e.id)).not.to.include(created.id);
  });

  it('updates url, events and isActive; another organization gets 404', async () => {
    const created = await create({ events: ['contact.opted_out'] });
    const res = await app.api.patch(`/webhook-endpoints/${created.id}`, { events: ['campaign.completed', 'campaign.completed'], isActive: false }, owner.auth);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.include({ isActive: false });
    expect(res.body.data.events).to.deep.equal(['campaign.completed']);
    expect((await app.api.patch(`/webhook-endpoints/${created.id}`, { isActive: true }, other.auth)).status).to.equal(404);
    expect((await app.api.patch('/webhook-endpoints/nope', { isActive: true }, owner.auth)).body.error.code).to.equal('NOT_FOUND');
    expect((await app.api.patch(`/webhook-endpoints/${created.id}`, { isActive: 'yes' }, owner.auth)).status).to.equal(400);
  });

  it('deactivates on DELETE; unknown or foreign ids answer 404 NOT_FOUND; testing an inactive endpoint is 404', async () => {
    const created = await create();
    const unknown = await app.api.delete('/webhook-endpoints/does-not-exist', owner.auth);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('NOT_FOUND');
    expect((await app.api.delete(`/webhook-endpoints/${created.id}`, other.auth)).status).to.equal(404);
    const res = await app.api.delete(`/webhook-endpoints/${created.id}`, owner.auth);
    expect(res.status).to.equal(200);
    expect(res.body.data.isActive).to.equal(false);
    const test = await app.api.post(`/webhook-endpoints/${created.id}/test`, {}, owner.auth);
    expect(test.status).to.equal(404);
    expect(receiver.received).to.have.length(0);
  });

  it('sends a signed test event that the documented snippet verifies, and reports the attempt', async () => {
    const created = await create({ events: ['contact.opted_out'] });
    const res = await app.api.post(`/webhook-endpoints/${created.id}/test`, { event: 'message.status.updated' }, owner.auth);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.include({ success: true, statusCode: 200 });
    expect(receiver.received).to.have.length(1);
    const got = receiver.received[0]!;
    expect(got.headers['x-service-event']).to.equal('message.status.updated');
    expect(got.headers['x-service-signature']).to.match(/^[0-9a-f]{64}$/);
    expect(Number(got.headers['x-service-timestamp'])).to.be.closeTo(Date.now() / 1000, 60);
    const event = verify(got.rawBody, got.headers, [created.secret]) as Record<string, any>;
    expect(event).to.include({ kind: 'message.status.updated', organizationId: owner.organizationId, id: got.headers['x-service-event-id'] });
    expect(event.data.test).to.equal(true);
    expect(verify(got.rawBody, got.headers, ['whsec_wrong'])).to.equal(null);
    expect(verify(Buffer.concat([got.rawBody, Buffer.from(' ')]), got.headers, [created.secret])).to.equal(null);
    const bad = await app.api.post(`/webhook-endpoints/${created.id}/test`, { event: 'nope' }, owner.auth);
    expect(bad.status).to.equal(400);
  });

  it('reports a failed test attempt without retrying it, lists it and replays it', async () => {
    const created = await create();
    receiver.respond = () => ({ status: 500 });
    const res = await app.api.post(`/webhook-endpoints/${created.id}/test`, {}, owner.auth);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ success: false, statusCode: 500 });
    expect(res.body.data.delivery).to.include({ status: 'FAILED', attempts: 1, responseCode: 500 });
    const list = await app.api.get(`/webhook-endpoints/${created.id}/deliveries`, owner.auth);
    expect(list.status).to.equal(200);
    expect(list.body.data).to.have.length(1);
    expect((await app.api.get(`/webhook-endpoints/${created.id}/deliveries`, other.auth)).status).to.equal(404);
    const deliveryId = list.body.data[0].id as string;
    const replay = await app.api.post(`/webhook-endpoints/${created.id}/deliveries/${deliveryId}/replay`, {}, owner.auth);
    expect(replay.status, replay.text).to.equal(202);
    expect(replay.body.data).to.include({ status: 'PENDING', attempts: 0 });
    const again = await app.api.post(`/webhook-endpoints/${created.id}/deliveries/${deliveryId}/replay`, {}, owner.auth);
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('CONFLICT');
    expect((await app.api.post(`/webhook-endpoints/${created.id}/deliveries/${deliveryId}/replay`, {}, other.auth)).status).to.equal(404);
  });

  it('after a rotation signs with the new secret and, during the grace period, also with the old one', async () => {
    const created = await create();
    const rotated = await app.api.post(`/webhook-endpoints/${created.id}/rotate-secret`, {}, owner.auth);
    expect(rotated.status, rotated.text).to.equal(200);
    const newSecret = rotated.body.data.secret as string;
    expect(newSecret).to.match(/^whsec_/).and.not.equal(created.secret);
    expect(new Date(rotated.body.data.secretRotationGraceUntil).getTime() - Date.now()).to.be.closeTo(24 * 3600 * 1000, 60_000);
    await app.api.post(`/webhook-endpoints/${created.id}/test`, {}, owner.auth);
    const got = receiver.received[0]!;
    expect(got.headers['x-service-signature-previous']).to.match(/^[0-9a-f]{64}$/);
    expect(verify(got.rawBody, { 'x-service-signature': got.headers['x-service-signature'] }, [newSecret])).not.to.equal(null);
    expect(verify(got.rawBody, { 'x-service-signature': got.headers['x-service-signature'] }, [created.secret])).to.equal(null);
    expect(verify(got.rawBody, { 'x-service-signature-previous': got.headers['x-service-signature-previous'] }, [created.secret])).not.to.equal(null);
    expect((await app.api.post(`/webhook-endpoints/${created.id}/rotate-secret`, {}, other.auth)).status).to.equal(404);
  });

  it('requires webhooks:write to change endpoints (a VIEWER may only read)', async () => {
    const viewer = await registerUser(app.api, 'viewer');
    const invite = await app.api.post('/organizations/invite', { email: viewer.email, role: 'VIEWER' }, owner.auth);
    expect(invite.status, invite.text).to.be.oneOf([200, 201]);
    const auth = { token: viewer.token, organizationId: owner.organizationId };
    expect((await app.api.get('/webhook-endpoints', auth)).status).to.equal(200);
    const res = await app.api.post('/webhook-endpoints', { url: receiver.url }, auth);
    expect(res.status).to.equal(403);
  });
});

describe('HTTP: /webhook-endpoints refuses private addresses (SSRF)', function () {
  this.timeout(20_000);
  let app: TestApp;
  let owner: TestTenant;
  before(async () => {
    app = await startTestApp({ config: { egressAllowPrivateHosts: [] } });
    owner = await registerTenant(app.api, 'ssrf');
  });
  after(async () => { await app.close(); });

  const refused = [
    'http://127.0.0.1/hook', 'http://10.1.2.3/hook', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook', 'http://2130706433/hook', 'http://0177.0.0.1/hook', 'http://localhost:8080/hook',
    'http://100.64.0.1/', 'http://192.168.1.1/', 'http://[fd00::1]/', 'http://[fe80::1]/', 'http://0.0.0.0/', 'file:///etc/passwd',
  ];
  it('checks the url again on PATCH', async () => {
    const storage = app.container.get(INFRA.storage);
    const now = new Date();
    await storage.webhookEndpoints.insert({
      id: `wh-${owner.organizationId}`, organizationId: owner.organizationId, url: 'https://hooks.example.com/x', events: [], isActive: true, secretCiphertext: 'x',
      previousSecretCiphertext: null, previousSecretExpiresAt: null, disabledReason: null, failingSince: null, createdAt: now, updatedAt: now,
    });
    const res = await app.api.patch(`/webhook-endpoints/wh-${owner.organizationId}`, { url: 'http://169.254.169.254/latest/meta-data/' }, owner.auth);
    expect(res.status, res.text).to.equal(400);
    expect(res.body.error.details.fieldErrors.url[0]).to.match(/169\.254\.169\.254/);
    expect((await storage.webhookEndpoints.find(owner.organizationId, `wh-${owner.organizationId}`))!.url).to.equal('https://hooks.example.com/x');
  });

  for (const url of refused) {
    it(`refuses ${url} with 400 VALIDATION_ERROR on url`, async () => {
      const res = await app.api.post('/webhook-endpoints', { url }, owner.auth);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(res.body.error.details.fieldErrors).to.have.property('url');
    });
  }
});
