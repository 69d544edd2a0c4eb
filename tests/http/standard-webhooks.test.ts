import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { standardWebhookSignature } from '../../adapters/webhooks/standard-webhooks.ts';
import { DeliverWebhooks } from '../../core/use-cases/webhooks/deliver-webhooks.ts';
import { WEBHOOKS } from '../../hosts/webhook-bindings.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../support/webhook-receiver.ts';

type ClientModule = typeof import('../../clients/typescript/src/index.ts');
const ROOT = path.resolve(import.meta.dirname, '../..');
const TS_DIR = path.join(ROOT, 'clients/typescript');

/** The Standard Webhooks spec's published example (the reference libraries' test vector). */
const VECTOR = {
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: '1614265330', payload: '{"test": 2432232314}',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

/** The Python client's verify_webhook on a received delivery: the event id, or the NkraError code; null when no python3 is installed. */
async function pythonVerify(got: { rawBody: Buffer; headers: Record<string, string> }, secrets: string[], now?: number): Promise<string | null> {
  const script = 'import base64, json, sys\nfrom nkra_client import NkraError, verify_webhook\nq = json.load(sys.stdin)\n'
    + 'try:\n  print(verify_webhook(base64.b64decode(q["body"]), q["headers"], q["secrets"], now=q["now"]).id)\nexcept NkraError as e:\n  print(e.code)\n';
  return new Promise((resolve) => {
    const child = execFile('python3', ['-c', script], { env: { ...process.env, PYTHONPATH: path.join(ROOT, 'clients/python') }, timeout: 20_000 }, (error, stdout) => {
      resolve(error && (error as { code?: unknown }).code === 'ENOENT' ? null : error ? `error: ${String(error)}` : stdout.trim());
    });
    child.stdin!.end(JSON.stringify({ body: got.rawBody.toString('base64'), headers: got.headers, secrets, now: now ?? null }));
  });
}

interface ReferenceWebhook { verify(payload: string, headers: Record<string, string>): unknown }
/**
 * The `standardwebhooks` reference library (a devDependency, ADR 0003). STANDARDWEBHOOKS_FROM names
 * another directory to resolve it from (e.g. a newer release installed outside the repository).
 */
function referenceLibrary(): new (secret: string) => ReferenceWebhook {
  return (createRequire(process.env['STANDARDWEBHOOKS_FROM'] ?? import.meta.url)('standardwebhooks') as { Webhook: new (secret: string) => ReferenceWebhook }).Webhook;
}

/** The spec's algorithm written out independently of the service's code: v1 entries of base64 HMAC-SHA256 over "id.timestamp.body", key = base64 after whsec_. */
function specSignature(id: string, timestamp: string, body: string | Buffer, secret: string): string {
  return `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}

describe('HTTP: Standard Webhooks headers, replay protection and secret rotation', function () {
  this.timeout(60_000);
  let app: TestApp;
  let owner: TestTenant;
  let receiver: WebhookReceiver;
  let client: ClientModule;
  const Reference = referenceLibrary();

  before(async () => {
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(TS_DIR, 'tsconfig.json')]);
    client = await import(pathToFileURL(path.join(TS_DIR, 'dist/index.js')).href) as ClientModule;
    app = await startTestApp();
    owner = await registerTenant(app.api, 'stdhooks');
    receiver = await startWebhookReceiver();
  });
  after(async () => { await receiver?.close(); await app?.close(); });
  beforeEach(() => { receiver.received.length = 0; receiver.respond = () => ({ status: 200 }); });

  async function endpoint() {
    const res = await app.api.post('/webhook-endpoints', { url: receiver.url }, owner.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; secret: string };
  }
  async function testSend(id: string): Promise<ReceivedWebhook> {
    const res = await app.api.post(`/webhook-endpoints/${id}/test`, {}, owner.auth);
    expect(res.status, res.text).to.equal(200);
    return receiver.received.at(-1)!;
  }
  const headersOf = (got: ReceivedWebhook) => Object.fromEntries(Object.entries(got.headers).map(([k, v]) => [k, String(v)]));

  it('signs the spec\'s test vector exactly (service and both client helpers)', async () => {
    expect(standardWebhookSignature(VECTOR.id, VECTOR.timestamp, VECTOR.payload, VECTOR.secret)).to.equal(VECTOR.signature);
    expect(specSignature(VECTOR.id, VECTOR.timestamp, VECTOR.payload, VECTOR.secret)).to.equal(VECTOR.signature);
    expect(await client.signStandardWebhook(VECTOR.id, VECTOR.timestamp, VECTOR.payload, VECTOR.secret)).to.equal(VECTOR.signature);
    expect(await client.verifyStandardWebhookSignature(VECTOR.id, VECTOR.timestamp, VECTOR.payload, `v1,bogus ${VECTOR.signature}`, VECTOR.secret)).to.equal(true);
    expect(await client.verifyStandardWebhookSignature(VECTOR.id, VECTOR.timestamp, `${VECTOR.payload} `, VECTOR.signature, VECTOR.secret)).to.equal(false);
    expect(await client.verifyStandardWebhookSignature(VECTOR.id, '1614265331', VECTOR.payload, VECTOR.signature, VECTOR.secret)).to.equal(false);
  });

  it('is verified by the standardwebhooks reference library', async () => {
    const created = await endpoint();
    const got = await testSend(created.id);
    const h = headersOf(got);
    expect(() => new Reference(created.secret).verify(got.rawBody.toString('utf8'), h)).not.to.throw();
    expect(() => new Reference(created.secret).verify(`${got.rawBody.toString('utf8')} `, h)).to.throw();
    expect(() => new Reference(VECTOR.secret).verify(got.rawBody.toString('utf8'), h)).to.throw();
  });

  it('sends webhook-id, webhook-timestamp and webhook-signature next to an unchanged X-Service-Signature; both verify', async () => {
    const created = await endpoint();
    expect(created.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/); // standard base64 of 32 bytes: what the reference libraries decode
    const got = await testSend(created.id);
    const h = headersOf(got);
    const body = got.rawBody.toString('utf8');
    expect(h['webhook-id']).to.equal(JSON.parse(body).id).and.equal(h['x-service-event-id']);
    expect(h['webhook-timestamp']).to.equal(h['x-service-timestamp']);
    expect(Number(h['webhook-timestamp'])).to.be.closeTo(Date.now() / 1000, 60);
    expect(h['x-service-signature']).to.equal(createHmac('sha256', created.secret).update(got.rawBody).digest('hex'));
    expect(h['webhook-signature']).to.equal(specSignature(h['webhook-id']!, h['webhook-timestamp']!, got.rawBody, created.secret));
    expect(() => new Reference(created.secret).verify(body, h)).not.to.throw();
    const event = await client.verifyWebhook(got.rawBody, h, created.secret);
    expect(event).to.include({ kind: 'message.status.updated', id: h['webhook-id'] });
    const wrong = await client.verifyWebhook(got.rawBody, h, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').catch((e: unknown) => e);
    expect(wrong).to.include({ code: 'INVALID_SIGNATURE', status: 401 });
    const forgedId = await client.verifyWebhook(got.rawBody, { ...h, 'webhook-id': 'another' }, created.secret).catch((e: unknown) => e);
    expect(forgedId).to.include({ code: 'INVALID_SIGNATURE' });
    const noLegacy = await client.verifyWebhook(got.rawBody, { ...h, 'x-service-signature': '' }, created.secret).catch((e: unknown) => e);
    expect(noLegacy).to.include({ code: 'INVALID_SIGNATURE' });
    const python = await pythonVerify({ rawBody: got.rawBody, headers: h }, [created.secret]);
    if (python !== null) {
      expect(python).to.equal(h['webhook-id']);
      expect(await pythonVerify({ rawBody: got.rawBody, headers: h }, ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'])).to.equal('INVALID_SIGNATURE');
    }
  });

  it('lets a receiver reject a replayed delivery: the client refuses a webhook-timestamp older than the tolerance (5 min)', async () => {
    const created = await endpoint();
    const got = await testSend(created.id);
    const h = headersOf(got);
    const sentAt = Number(h['webhook-timestamp']) * 1000;
    expect(await client.verifyWebhook(got.rawBody, h, created.secret, { now: sentAt + 299_000 })).to.have.property('id');
    const replayed = await client.verifyWebhook(got.rawBody, h, created.secret, { now: sentAt + 301_000 }).catch((e: unknown) => e);
    expect(replayed).to.include({ code: 'WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE', status: 401 });
    const python = await pythonVerify({ rawBody: got.rawBody, headers: h }, [created.secret], sentAt / 1000 + 301);
    if (python !== null) expect(python).to.equal('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
    // Moving the timestamp forward breaks the signature, so a replay cannot be freshened.
    const freshened = await client.verifyWebhook(got.rawBody, { ...h, 'webhook-timestamp': String(Number(h['webhook-timestamp']) + 60) }, created.secret, { now: sentAt + 60_000 }).catch((e: unknown) => e);
    expect(freshened).to.include({ code: 'INVALID_SIGNATURE' });
    expect(await client.verifyWebhook(got.rawBody, h, created.secret, { now: sentAt + 3_600_000, toleranceSeconds: 7_200 })).to.have.property('id');
  });

  it('keeps webhook-id across attempts of one delivery, with a fresh timestamp and signature per attempt', async () => {
    const created = await endpoint();
    receiver.respond = () => ({ status: 500 });
    const first = await testSend(created.id);
    const deliveries = await app.api.get(`/webhook-endpoints/${created.id}/deliveries`, owner.auth);
    const deliveryId = deliveries.body.data[0].id as string;
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the next attempt falls in a later second
    receiver.respond = () => ({ status: 200 });
    expect((await app.api.post(`/webhook-endpoints/${created.id}/deliveries/${deliveryId}/replay`, {}, owner.auth)).status).to.equal(202);
    const [delivery] = await new DeliverWebhooks(app.container.get(WEBHOOKS.attemptDeps)).execute([{ organizationId: owner.organizationId, deliveryId }]);
    expect(delivery).to.include({ status: 'SUCCEEDED' });
    const second = receiver.received.at(-1)!;
    expect(second).not.to.equal(first);
    expect(second.headers['webhook-id']).to.equal(first.headers['webhook-id']);
    expect(second.headers['webhook-timestamp']).not.to.equal(first.headers['webhook-timestamp']);
    expect(await client.verifyWebhook(second.rawBody, headersOf(second), created.secret)).to.have.property('id', first.headers['webhook-id']);
  });

  it('during a rotation\'s overlap sends both v1 entries: receivers holding the old or the new secret verify', async () => {
    const created = await endpoint();
    const rotated = await app.api.post(`/webhook-endpoints/${created.id}/rotate-secret`, {}, owner.auth);
    expect(rotated.status, rotated.text).to.equal(200);
    const newSecret = rotated.body.data.secret as string;
    expect(newSecret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/).and.not.equal(created.secret);
    const got = await testSend(created.id);
    const h = headersOf(got);
    const entries = h['webhook-signature']!.split(' ');
    expect(entries).to.deep.equal([
      specSignature(h['webhook-id']!, h['webhook-timestamp']!, got.rawBody, newSecret),
      specSignature(h['webhook-id']!, h['webhook-timestamp']!, got.rawBody, created.secret),
    ]);
    expect(() => new Reference(newSecret).verify(got.rawBody.toString('utf8'), h)).not.to.throw();
    expect(() => new Reference(created.secret).verify(got.rawBody.toString('utf8'), h)).not.to.throw();
    expect(await client.verifyWebhook(got.rawBody, h, created.secret)).to.have.property('id');
    expect(await client.verifyWebhook(got.rawBody, h, newSecret)).to.have.property('id');
    expect(await client.verifyWebhook(got.rawBody, h, [newSecret, created.secret])).to.have.property('id');
    for (const secret of [created.secret, newSecret]) {
      const python = await pythonVerify({ rawBody: got.rawBody, headers: h }, [secret]);
      if (python !== null) expect(python).to.equal(h['webhook-id']);
    }
  });

  it('after the overlap ends signs with the new secret only', async () => {
    const created = await endpoint();
    const rotated = await app.api.post(`/webhook-endpoints/${created.id}/rotate-secret`, {}, owner.auth);
    const newSecret = rotated.body.data.secret as string;
    const storage = app.container.get(WEBHOOKS.attemptDeps).storage;
    const stored = (await storage.webhookEndpoints.find(owner.organizationId, created.id))!;
    await storage.webhookEndpoints.save({ ...stored, previousSecretExpiresAt: new Date(Date.now() - 1_000) });
    const got = await testSend(created.id);
    const h = headersOf(got);
    expect(h['webhook-signature']!.split(' ')).to.have.length(1);
    expect(h).not.to.have.property('x-service-signature-previous');
    expect(await client.verifyWebhook(got.rawBody, h, newSecret)).to.have.property('id');
    expect(await client.verifyWebhook(got.rawBody, h, created.secret).catch((e: unknown) => e)).to.include({ code: 'INVALID_SIGNATURE' });
  });
});
