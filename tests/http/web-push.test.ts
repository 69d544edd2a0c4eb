import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { PUSH_PAYLOAD_MAX_BYTES, pushPayloadBytes } from '../../core/domain/push-content.ts';
import { WEB_PUSH_PAYLOAD_MAX_BYTES, webPushPayloadBytes } from '../../core/domain/web-push-subscription.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { startFakePushService, type FakePushService } from '../support/fake-vendors/web-push-service.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/** The keys as the official web-push package generates them (`web-push generate-vapid-keys`). */
const webpush = createRequire(import.meta.url)('web-push') as { generateVAPIDKeys(): { publicKey: string; privateKey: string } };

/**
 * Web Push (issue 29): a platform `web-push` provider with VAPID credentials; a PUSH send whose `to` is
 * a browser's subscription JSON reaches the subscription's push service (a local one, allowed by the
 * tests' EGRESS_ALLOW_PRIVATE_HOSTS), which verifies the VAPID JWT and decrypts what the browser would
 * show. Endpoints on private or metadata addresses are refused by the egress policy.
 */
describe('HTTP: Web Push sends to a browser subscription', () => {
  let push: FakePushService;
  let app: TestApp;
  let tenant: TestTenant;
  let apiKey: string;
  const vapid = { ...webpush.generateVAPIDKeys(), subject: 'https://nkra.example/contact' };
  const name = `web-push-${randomUUID().slice(0, 6)}`;

  async function configure(active: boolean) {
    await app.container.get(MESSAGING.providerRepository).upsert({ name, vendor: 'web-push', channel: 'PUSH', priority: 1, active, countries: ['*'], settings: { urgency: 'high' } }, vapid, new Date());
    await app.container.get(MESSAGING.runtime).reload();
  }

  before(async () => {
    push = await startFakePushService();
    app = await startTestApp();
    await configure(true);
    tenant = await registerTenant(app.api, 'webpush');
    apiKey = (await app.api.post('/api-keys', { name: 'live', isSandbox: false }, tenant.auth)).body.data.key;
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${name}`, description: 'test credit' }), new Date());
  });

  after(async () => {
    await configure(false);
    await app.close();
    await push.close();
  });

  it('delivers title, body, link and data encrypted to the subscription; the push service verifies VAPID and decrypts them', async () => {
    const browser = push.subscribe(vapid.publicKey);
    const sent = await app.api.post('/messages/send', {
      channel: 'PUSH', to: browser.json, subject: 'Order shipped', body: 'Order 42 is on its way', link: 'https://shop.example/orders/42', data: { orderId: '42' },
    }, { apiKey });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data).to.include({ status: 'SENT', provider: name, subject: 'Order shipped' });
    const delivered = push.delivered.at(-1);
    expect(delivered?.subscriptionId).to.equal(browser.id);
    expect(delivered?.payload).to.deep.equal({
      title: 'Order shipped', body: 'Order 42 is on its way', url: 'https://shop.example/orders/42',
      data: { orderId: '42', message_id: sent.body.data.id, link: 'https://shop.example/orders/42' },
    });
    expect(delivered?.claims).to.include({ aud: push.url, sub: vapid.subject });
    expect(delivered?.headers['urgency']).to.equal('high');
  });

  it('a dropped subscription (410) fails the message UNREGISTERED and clears it from the contact, whatever spelling the contact was saved with', async () => {
    const browser = push.subscribe(vapid.publicKey);
    const spelled = JSON.stringify({ keys: { auth: browser.subscription.keys.auth, p256dh: browser.subscription.keys.p256dh }, expirationTime: null, endpoint: browser.subscription.endpoint });
    const malformed = await app.api.post('/contacts', { firstName: 'Ama', fcmToken: JSON.stringify({ endpoint: 'https://push.example/x', keys: { p256dh: 'short', auth: 'short' } }) }, tenant.auth);
    expect(malformed.status, malformed.text).to.equal(400);
    expect(malformed.text).to.contain('fcmToken').and.contain('p256dh');
    const contact = (await app.api.post('/contacts', { firstName: 'Ama', fcmToken: spelled }, tenant.auth)).body.data;
    expect(contact.fcmToken).to.equal(browser.json);
    push.unsubscribe(browser.id);
    const sent = await app.api.post('/messages/send', { channel: 'PUSH', to: spelled, body: 'Your order' }, { apiKey });
    expect(sent.status, sent.text).to.equal(201);
    const detail = (await app.api.get(`/messages/${sent.body.data.id}`, { apiKey })).body.data;
    expect(detail).to.include({ status: 'FAILED', errorCode: 'UNREGISTERED', cost: 0 });
    const after = (await app.api.get(`/contacts/${contact.id}`, tenant.auth)).body.data;
    expect(after.fcmToken).to.equal(null);
    expect(after.pushTokenRemovedReason).to.contain('UNREGISTERED');
  });

  it('refuses subscriptions whose endpoint is a private or metadata address (the escape hatch covers only loopback): ENDPOINT_REFUSED, nothing sent', async () => {
    const keys = push.subscribe(vapid.publicKey).subscription.keys;
    const before = push.delivered.length + push.refused.length;
    for (const endpoint of ['https://169.254.169.254/latest/meta-data', 'https://10.0.0.1/push/x']) {
      const sent = await app.api.post('/messages/send', { channel: 'PUSH', to: JSON.stringify({ endpoint, keys }), body: 'hello' }, { apiKey });
      expect(sent.status, sent.text).to.equal(201);
      const detail = (await app.api.get(`/messages/${sent.body.data.id}`, { apiKey })).body.data;
      expect(detail, endpoint).to.include({ status: 'FAILED', errorCode: 'ENDPOINT_REFUSED' });
    }
    expect(push.delivered.length + push.refused.length).to.equal(before);
  });

  it('an organization\'s own web-push account: bad VAPID credentials are refused when saved; its sends reach the subscription through the egress policy', async () => {
    const own = await registerTenant(app.api, 'webpush-own');
    const ownKeys = webpush.generateVAPIDKeys();
    const mismatched = await app.api.post('/vendor-accounts', { name: 'my-web-push', vendor: 'web-push', credentials: { ...ownKeys, publicKey: vapid.publicKey, subject: 'mailto:a@b.example' } }, own.auth);
    expect(mismatched.status, mismatched.text).to.equal(400);
    expect(mismatched.text).to.contain('not one key pair').and.not.contain(ownKeys.privateKey);
    const created = await app.api.post('/vendor-accounts', { name: 'my-web-push', vendor: 'web-push', credentials: { ...ownKeys, subject: 'mailto:a@b.example' } }, own.auth);
    expect(created.status, created.text).to.equal(201);
    expect(created.text).to.not.contain(ownKeys.privateKey);
    await app.container.get(MESSAGING.runtime).reload();
    const ownKey = (await app.api.post('/api-keys', { name: 'live', isSandbox: false }, own.auth)).body.data.key;
    await app.container.get(INFRA.storage).wallets.update(own.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-own-${name}`, description: 'test credit' }), new Date());
    const browser = push.subscribe(ownKeys.publicKey);
    const sent = await app.api.post('/messages/send', { channel: 'PUSH', to: browser.json, body: 'From our own account' }, { apiKey: ownKey });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data).to.include({ status: 'SENT', provider: `${own.organizationId}/my-web-push` });
    expect(push.delivered.at(-1)).to.deep.include({ subscriptionId: browser.id });
    const metadata = await app.api.post('/messages/send', { channel: 'PUSH', to: JSON.stringify({ ...browser.subscription, endpoint: 'https://169.254.169.254/push/x' }), body: 'x' }, { apiKey: ownKey });
    const failed = (await app.api.get(`/messages/${metadata.body.data.id}`, { apiKey: ownKey })).body.data;
    expect(failed.errorCode).to.equal('ENDPOINT_REFUSED');
  });

  it('refuses malformed subscriptions and notifications too big for a push service with a 400 naming the field', async () => {
    const browser = push.subscribe(vapid.publicKey);
    const http = await app.api.post('/messages/send', { channel: 'PUSH', to: JSON.stringify({ ...browser.subscription, endpoint: 'http://push.example/x' }), body: 'hi' }, { apiKey });
    expect(http.status).to.equal(400);
    expect(http.body.error.details.fieldErrors.to[0]).to.contain('https');
    // Data that fits FCM's, APNs' and Expo's 4,096 bytes but not the 3,993 left by Web Push encryption.
    const body = 'a'.repeat(1_500);
    let filler = 2_300;
    while (webPushPayloadBytes(null, body, { imageUrl: null, link: null, data: { note: 'x'.repeat(filler + 1) } }) <= WEB_PUSH_PAYLOAD_MAX_BYTES) filler += 1;
    const data = { note: 'x'.repeat(filler + 1) };
    expect(pushPayloadBytes(null, body, { imageUrl: null, link: null, data })).to.be.at.most(PUSH_PAYLOAD_MAX_BYTES);
    const big = await app.api.post('/messages/send', { channel: 'PUSH', to: browser.json, body, data }, { apiKey });
    expect(big.status, big.text).to.equal(400);
    expect(big.body.error.details.fieldErrors.data[0]).to.contain('Web Push');
    const expo = await app.api.post('/messages/send', { channel: 'PUSH', to: 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]', body, data }, { apiKey });
    expect(expo.status, 'the same notification fits the other vendors').to.not.equal(400);
  });
});
