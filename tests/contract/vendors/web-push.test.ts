import { expect } from 'chai';
import { createECDH } from 'node:crypto';
import { createRequire } from 'node:module';
import { DnsEgressPolicy } from '../../../adapters/egress/dns-egress-policy.ts';
import { TenantVendorAdapter } from '../../../adapters/egress/tenant-vendor-adapter.ts';
import { WebPushProvider, vapidProblem, type WebPushOptions } from '../../../adapters/providers/web-push.ts';
import { parseWebPushSubscription, WEB_PUSH_PAYLOAD_MAX_BYTES, webPushPayload } from '../../../core/domain/web-push-subscription.ts';
import { normalizeRecipient, noProviderForDestination } from '../../../core/domain/recipient.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import { startFakePushService, type FakePushService } from '../../support/fake-vendors/web-push-service.ts';

/** The official web-push package's own key generator: the keys an operator pastes into the provider's credentials. */
const webpush = createRequire(import.meta.url)('web-push') as { generateVAPIDKeys(): { publicKey: string; privateKey: string } };
const VAPID = { ...webpush.generateVAPIDKeys(), subject: 'mailto:ops@nkra.example' };
const localOnly = () => new DnsEgressPolicy({ allowPrivateHosts: ['127.0.0.1'] });

function message(to: string, overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    messageId: 'msg_web_1', internalMessageId: 'int-web-1', organizationId: 'org-1', channel: 'PUSH',
    to, subject: null, body: 'GHS 50.00 received', senderId: null, ...overrides,
  };
}

describe('Contract: Web Push adapter against a local RFC 8030 push service (VAPID verified with jose, payload decrypted with http_ece)', () => {
  let fake: FakePushService;
  before(async () => { fake = await startFakePushService(); });
  after(async () => { await fake.close(); });
  beforeEach(() => { fake.delivered.length = 0; fake.refused.length = 0; });

  const provider = (overrides: Partial<WebPushOptions> = {}) => new WebPushProvider({ credentials: VAPID, egress: localOnly(), timeoutMs: 2_000, ...overrides });

  it('encrypts title, body, image, link and data to the subscription; the push service verifies the VAPID JWT and the browser decrypts them', async () => {
    const browser = fake.subscribe(VAPID.publicKey);
    const result = await provider({ urgency: 'high', ttlSeconds: 600 }).send(message(browser.json, {
      subject: 'Payment received', push: { imageUrl: 'https://cdn.example/receipt.png', link: 'https://shop.example/orders/1', data: { orderId: '1' } },
    }));
    expect(result.accepted).to.equal(true);
    if (result.accepted) expect(result.providerMessageId).to.match(/^webpush-/);
    const [push] = fake.delivered;
    expect(push?.payload).to.deep.equal({
      title: 'Payment received', body: 'GHS 50.00 received', image: 'https://cdn.example/receipt.png', url: 'https://shop.example/orders/1',
      data: { orderId: '1', message_id: 'msg_web_1', link: 'https://shop.example/orders/1' },
    });
    expect(push?.claims.aud).to.equal(fake.url);
    expect(push?.claims.sub).to.equal('mailto:ops@nkra.example');
    expect(push?.headers['ttl']).to.equal('600');
    expect(push?.headers['urgency']).to.equal('high');
    expect(push?.headers['content-encoding']).to.equal('aes128gcm');
  });

  it('sends the default title when there is no subject, and no title when neither', async () => {
    const browser = fake.subscribe(VAPID.publicKey);
    await provider({ defaultTitle: 'Nkra' }).send(message(browser.json));
    await provider().send(message(browser.json));
    expect(fake.delivered.map((d) => (d.payload as { title?: string }).title)).to.deep.equal(['Nkra', undefined]);
  });

  it('3,993 bytes of JSON encrypt to exactly the 4,096 bytes a push service must take; one byte more is refused (413 -> INVALID_REQUEST)', async () => {
    const browser = fake.subscribe(VAPID.publicKey);
    // The JSON the adapter encrypts for message() is {"body":...,"data":{"message_id":"msg_web_1"}}: fill the body to the byte.
    const overhead = JSON.stringify(webPushPayload('msg_web_1', null, '', null)).length;
    const fill = (bytes: number) => 'a'.repeat(bytes - overhead);
    expect((await provider().send(message(browser.json, { body: fill(WEB_PUSH_PAYLOAD_MAX_BYTES) }))).accepted).to.equal(true);
    const tooBig = await provider().send(message(browser.json, { body: fill(WEB_PUSH_PAYLOAD_MAX_BYTES + 1) }));
    expect(tooBig).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_REQUEST' });
    expect(fake.refused.map((r) => r.status)).to.deep.equal([413]);
  });

  it('a subscription the browser dropped (410) fails for good as UNREGISTERED, not account-level', async () => {
    const browser = fake.subscribe(VAPID.publicKey);
    fake.unsubscribe(browser.id);
    const result = await provider().send(message(browser.json));
    expect(result).to.include({ accepted: false, retryable: false, errorCode: 'UNREGISTERED' });
    expect(result).to.not.have.property('accountLevel');
  });

  it('429 is retryable with the Retry-After noted', async () => {
    const browser = fake.subscribe(VAPID.publicKey);
    fake.throttleNext(30);
    const result = await provider().send(message(browser.json));
    expect(result).to.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
    if (!result.accepted) expect(result.errorMessage).to.contain('retry after 30 s');
  });

  it('403 (the VAPID key is not the one the browser subscribed with) is an account-level AUTH_FAILED: it fails over', async () => {
    const other = webpush.generateVAPIDKeys();
    const browser = fake.subscribe(other.publicKey);
    const result = await provider().send(message(browser.json));
    expect(result).to.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED', accountLevel: true });
    expect(fake.refused[0]?.status).to.equal(403);
  });

  it('refuses private and metadata endpoints through the egress policy, for the platform account and an own account alike', async () => {
    const keys = fake.subscribe(VAPID.publicKey).subscription.keys;
    for (const endpoint of ['https://169.254.169.254/push/x', 'https://10.0.0.1/push/x', 'https://[::1]/push/x']) {
      const to = JSON.stringify({ endpoint, keys });
      const platform = await provider().send(message(to));
      expect(platform, endpoint).to.include({ accepted: false, retryable: false, errorCode: 'ENDPOINT_REFUSED' });
      const own = await new TenantVendorAdapter(provider({ egress: new DnsEgressPolicy() }), { policy: localOnly() }).send(message(to));
      expect(own, endpoint).to.include({ accepted: false, errorCode: 'ENDPOINT_REFUSED' });
    }
    // Without the escape hatch, the local push service itself is refused (no request reaches it).
    const strict = await provider({ egress: new DnsEgressPolicy() }).send(message(fake.subscribe(VAPID.publicKey).json));
    expect(strict).to.include({ accepted: false, errorCode: 'ENDPOINT_REFUSED' });
    expect(fake.delivered).to.have.length(0);
    expect(fake.refused).to.have.length(0);
  });

  it('refuses VAPID credentials that cannot sign: keys of the wrong size, two halves of different pairs, a subject that is not mailto: or https:', () => {
    const other = webpush.generateVAPIDKeys();
    expect(vapidProblem(VAPID)).to.equal(null);
    expect(vapidProblem({ ...VAPID, publicKey: other.publicKey })).to.match(/not one key pair/);
    expect(vapidProblem({ ...VAPID, privateKey: 'abc' })).to.match(/privateKey/);
    expect(vapidProblem({ ...VAPID, subject: 'ops@nkra.example' })).to.match(/subject/);
    expect(vapidProblem({ ...VAPID, subject: 'http://nkra.example' })).to.match(/subject/);
    expect(() => new WebPushProvider({ credentials: { ...VAPID, subject: 'x' } })).to.throw(/subject/);
  });

  it('a p256dh of the right size that is not a point on P-256 is not a subscription: refused by the adapter without a request, and by sends with a 400', async () => {
    const keys = { p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') };
    const to = JSON.stringify({ endpoint: `${fake.url}/push/x`, keys });
    expect(parseWebPushSubscription(to)).to.deep.include({ ok: false });
    const result = await provider().send(message(to));
    expect(result).to.include({ accepted: false, retryable: false, errorCode: 'TOKEN_NOT_WEB_PUSH' });
    expect(fake.refused.length + fake.delivered.length).to.equal(0);
  });

  it('accepts only Web Push subscriptions (routing sends other tokens elsewhere)', async () => {
    const browser = fake.subscribe(VAPID.publicKey);
    expect(provider().accepts(browser.json)).to.equal(true);
    expect(provider().accepts('ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]')).to.equal(false);
    const result = await provider().send(message('ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]'));
    expect(result).to.include({ accepted: false, retryable: false, errorCode: 'TOKEN_NOT_WEB_PUSH' });
  });
});

describe('Web Push subscription as a PUSH recipient', () => {
  const keys = { p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') };

  it('is read strictly and stored in one canonical spelling (expirationTime and padding dropped)', () => {
    const given = JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', expirationTime: null, keys: { auth: `${keys.auth}==`, p256dh: keys.p256dh } });
    const read = normalizeRecipient('PUSH', ` ${given} `);
    expect(read).to.deep.include({ ok: true, pushTokenKind: 'web' });
    if (read.ok) expect(read.recipient).to.equal(JSON.stringify({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys }));
    expect(noProviderForDestination('PUSH', given)).to.match(/web-push provider/);
  });

  it('refuses http endpoints (except loopback), bad keys, non-objects and oversized subscriptions, naming what is wrong', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ endpoint: 'http://push.example/x', keys }, /must be an https URL/],
      [{ endpoint: 'https://user:pw@push.example/x', keys }, /credentials/],
      [{ endpoint: `https://push.example/${'a'.repeat(1100)}`, keys }, /longer than 1024/],
      [{ endpoint: 'https://push.example/x', keys: { ...keys, p256dh: keys.auth } }, /p256dh/],
      [{ endpoint: 'https://push.example/x', keys: { ...keys, auth: keys.p256dh } }, /auth/],
      [{ endpoint: 'https://push.example/x' }, /p256dh/],
      [['https://push.example/x'], /JSON object/],
    ];
    for (const [value, reason] of cases) {
      const read = parseWebPushSubscription(JSON.stringify(value));
      expect(read.ok, JSON.stringify(value).slice(0, 80)).to.equal(false);
      if (!read.ok) expect(read.reason).to.match(reason);
    }
    expect(parseWebPushSubscription('{not json').ok).to.equal(false);
    expect(parseWebPushSubscription(JSON.stringify({ endpoint: 'http://127.0.0.1:8080/push/a', keys })).ok).to.equal(true);
  });
});
