import { expect } from 'chai';
import { createECDH, generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { DnsEgressPolicy } from '../../../adapters/egress/dns-egress-policy.ts';
import { TenantVendorAdapter } from '../../../adapters/egress/tenant-vendor-adapter.ts';
import { createVendorAdapter, isVendorAdapter } from '../../../adapters/providers/vendor-factory.ts';
import { TENANT_VENDOR_CHANNELS, type ProviderConfig } from '../../../core/domain/provider.ts';
import { VENDOR_HOSTS } from '../../../core/domain/vendor-endpoints.ts';
import { makeTestServiceAccount } from '../../support/fake-vendors/fcm.ts';

const webPushKeys = (createRequire(import.meta.url)('web-push') as { generateVAPIDKeys(): { publicKey: string; privateKey: string } }).generateVAPIDKeys();
const apnsKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const SETUP: Record<string, { credentials: Record<string, string>; settings?: Record<string, string>; to: string }> = {
  'arkesel-sms': { credentials: { apiKey: 'k' }, settings: { senderId: 'ACME' }, to: '+233241234567' },
  'hubtel-sms': { credentials: { clientId: 'c', clientSecret: 's' }, settings: { from: 'ACME' }, to: '+233241234567' },
  'mnotify-sms': { credentials: { apiKey: 'k' }, settings: { senderId: 'ACME' }, to: '+233241234567' },
  'termii-sms': { credentials: { apiKey: 'k' }, settings: { senderId: 'ACME' }, to: '+2348012345678' },
  'africas-talking-sms': { credentials: { username: 'u', apiKey: 'k' }, to: '+254712345678' },
  'africas-talking-voice': { credentials: { username: 'u', apiKey: 'k' }, settings: { from: '+254711082000' }, to: '+254712345678' },
  'twilio-sms': { credentials: { accountSid: `AC${'0'.repeat(32)}`, authToken: 't' }, settings: { from: '+15005550006' }, to: '+233241234567' },
  'twilio-voice': { credentials: { accountSid: `AC${'0'.repeat(32)}`, authToken: 't' }, settings: { from: '+15005550006' }, to: '+233241234567' },
  'meta-whatsapp': { credentials: { accessToken: 't' }, settings: { phoneNumberId: '1234567890' }, to: '+233241234567' },
  'sendgrid-email': { credentials: { apiKey: 'SG.k' }, settings: { from: 'no-reply@example.com' }, to: 'ama@example.com' },
  'fcm-push': { credentials: { serviceAccountJson: makeTestServiceAccount('https://oauth2.googleapis.com/token').json }, to: `fcm-instance-id:APA91b${'x7Yq'.repeat(36)}` },
  'apns-push': { credentials: { privateKey: apnsKey, keyId: 'ABC123DEFG', teamId: 'TEAM123456' }, settings: { topic: 'gh.example.app' }, to: 'ab'.repeat(32) },
  'expo-push': { credentials: {}, to: 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]' },
  // Web Push has no vendor host: each subscription names its push service, whose addresses the policy checks.
  'web-push': {
    credentials: { ...webPushKeys, subject: 'mailto:ops@example.com' },
    to: JSON.stringify({ endpoint: 'https://push.example.net/push/abc', keys: { p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') } }),
  },
};
/** Vendors without fixed hosts (VENDOR_HOSTS): the address policy alone applies, and their health check makes no call. */
const HOSTLESS = new Set(['web-push']);

/**
 * Every vendor an organization may bring talks to its vendor's default endpoint through the egress
 * policy, and that endpoint is on the vendor's allow-list: with DNS answering the metadata address,
 * each own account's send is refused before connecting ("resolves to", not "is not a host").
 */
describe('Own vendor accounts of every supported vendor connect through the egress policy', function () {
  this.timeout(20_000);
  const policy = new DnsEgressPolicy({ resolve: async () => [{ address: '169.254.169.254', family: 4 }], allowPrivateHosts: ['127.0.0.1'] });

  it('covers every tenant vendor', () => {
    expect(Object.keys(SETUP).sort()).to.deep.equal(Object.keys(TENANT_VENDOR_CHANNELS).sort());
    for (const vendor of Object.keys(TENANT_VENDOR_CHANNELS).filter((v) => !HOSTLESS.has(v))) expect(VENDOR_HOSTS[vendor], vendor).to.be.an('array').that.is.not.empty;
  });

  for (const [vendor, setup] of Object.entries(SETUP)) {
    it(`${vendor}: refused at the connection, its default host allowed but its address checked`, async () => {
      const config: ProviderConfig = {
        id: 'p1', name: `own-${vendor}`, vendor, channel: TENANT_VENDOR_CHANNELS[vendor]!, priority: 1, active: true, countries: ['*'], settings: setup.settings ?? {},
        hasCredentials: true, organizationId: 'org-1', platformFallback: true, createdAt: new Date(), updatedAt: new Date(),
      };
      const inner = createVendorAdapter(config, setup.credentials, { outboxDirectory: '/tmp', timeoutMs: 2_000, publicUrl: 'https://nkra.example' });
      expect(isVendorAdapter(inner)).to.equal(true);
      const adapter = new TenantVendorAdapter(inner as never, { policy });
      const result = await adapter.send({ messageId: 'm1', internalMessageId: 'm1', organizationId: 'org-1', channel: config.channel, to: setup.to, subject: 'Hi', body: 'Hello', senderId: null });
      expect(result).to.include({ accepted: false, retryable: false, errorCode: 'ENDPOINT_REFUSED' });
      if (!result.accepted) expect(result.errorMessage).to.match(/resolves to 169\.254\.169\.254|non-public address/);
      const health = await adapter.checkHealth();
      expect(health.ok).to.equal(HOSTLESS.has(vendor));
    });
  }
});

describe('An own vendor account behind the egress wrapper keeps what its vendor adapter can do', () => {
  const policy = new DnsEgressPolicy({ resolve: async () => [{ address: '169.254.169.254', family: 4 }], allowPrivateHosts: [] });
  const wrap = (vendor: string, credentials: Record<string, string> = SETUP[vendor]!.credentials) => {
    const config: ProviderConfig = {
      id: 'p1', name: `own-${vendor}`, vendor, channel: TENANT_VENDOR_CHANNELS[vendor]!, priority: 1, active: true, countries: ['*'], settings: SETUP[vendor]!.settings ?? {},
      hasCredentials: true, organizationId: 'org-1', platformFallback: true, createdAt: new Date(), updatedAt: new Date(),
    };
    return new TenantVendorAdapter(createVendorAdapter(config, credentials, { outboxDirectory: '/tmp', timeoutMs: 2_000, publicUrl: 'https://nkra.example' }) as never, { policy });
  };

  it('Expo receipts are still polled, through the egress policy (refused here before connecting)', async () => {
    const adapter = wrap('expo-push');
    expect(adapter.fetchReceipts).to.be.a('function');
    const poll = await adapter.fetchReceipts!(['0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b']);
    expect(poll.reports).to.deep.equal([]);
    expect(poll.failure).to.be.a('string');
  });

  it('Twilio still answers callbacks with TwiML, and an Africa\'s Talking account without a callback token says it cannot verify callbacks', () => {
    expect(wrap('twilio-sms').callbackReply?.().contentType).to.match(/xml/);
    expect(wrap('africas-talking-sms').verifiesCallbacks).to.equal(false);
    expect(wrap('africas-talking-sms', { username: 'u', apiKey: 'k', callbackToken: 'secret-token' }).verifiesCallbacks).to.equal(true);
  });
});
