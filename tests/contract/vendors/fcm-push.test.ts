import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { expect } from 'chai';
import { FcmPushProvider, type FcmPushOptions } from '../../../adapters/providers/fcm-push.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import { fcmError, makeTestServiceAccount, startFakeFcm, type FakeFcm, type TestServiceAccount } from '../../support/fake-vendors/fcm.ts';

const DEVICE_TOKEN = `fcm-instance-id:APA91b${'x7Yq'.repeat(36)}`;

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    messageId: 'msg_push_1', internalMessageId: 'int-push-1', organizationId: 'org-1', channel: 'PUSH',
    to: DEVICE_TOKEN, subject: null, body: 'GHS 50.00 received', senderId: null, ...overrides,
  };
}

describe('Contract: FCM HTTP v1 adapter against a local OAuth + FCM fake', () => {
  let keys: { privateKey: KeyObject; publicKey: KeyObject };
  let fake: FakeFcm;
  let account: TestServiceAccount;
  before(async () => {
    keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
    fake = await startFakeFcm({ clientEmail: 'firebase-adminsdk@nkra-test.iam.gserviceaccount.com', publicKey: keys.publicKey, projectId: 'nkra-test', keyId: 'key-1' });
    account = makeTestServiceAccount(fake.tokenUri, { keyPair: keys });
  });
  after(async () => { await fake.close(); });
  beforeEach(() => { fake.received.length = 0; fake.tokenRequests.length = 0; });

  const provider = (overrides: Partial<FcmPushOptions> = {}) => new FcmPushProvider({
    baseUrl: fake.url, credentials: { serviceAccountJson: account.json }, timeoutMs: 2_000, ...overrides,
  });

  it('exchanges an RS256-signed JWT for an access token and sends the notification with it', async () => {
    const result = await provider({ defaultTitle: 'Nkra' }).send(message());
    expect(result.accepted).to.equal(true);
    if (result.accepted) expect(result.providerMessageId).to.match(/^projects\/nkra-test\/messages\/0:/);
    expect(fake.tokenRequests).to.have.length(1);
    const form = new URLSearchParams(fake.tokenRequests[0]?.body);
    expect(form.get('grant_type')).to.equal('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const [request] = fake.received;
    expect(request?.path).to.equal('/v1/projects/nkra-test/messages:send');
    expect(request?.headers.authorization).to.match(/^Bearer ya29\.fake-access-token-\d+$/);
    expect(request?.json).to.deep.equal({
      message: { token: DEVICE_TOKEN, notification: { title: 'Nkra', body: 'GHS 50.00 received' }, data: { message_id: 'msg_push_1' } },
    });
  });

  it('refuses an APNs or Expo token for good (TOKEN_NOT_FCM) without calling FCM, and says it accepts only FCM tokens', async () => {
    for (const to of ['740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad', 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]']) {
      const result = await provider().send(message({ to }));
      expect(result).to.include({ accepted: false, retryable: false, errorCode: 'TOKEN_NOT_FCM' });
      expect(provider().accepts(to)).to.equal(false);
    }
    expect(provider().accepts(DEVICE_TOKEN)).to.equal(true);
    expect(fake.received).to.have.length(0);
  });

  it('uses the subject as the title, and sends no title when there is neither subject nor default', async () => {
    await provider({ defaultTitle: 'Nkra' }).send(message({ subject: 'Payment received' }));
    await provider().send(message());
    const titles = fake.received.map((r) => (r.json as { message: { notification: Record<string, unknown> } }).message.notification);
    expect(titles).to.deep.equal([{ title: 'Payment received', body: 'GHS 50.00 received' }, { body: 'GHS 50.00 received' }]);
  });

  it('caches the access token across sends and shares one exchange between concurrent sends', async () => {
    const push = provider();
    const results = await Promise.all([push.send(message()), push.send(message()), push.send(message())]);
    await push.send(message());
    expect(results.every((r) => r.accepted)).to.equal(true);
    expect(fake.received).to.have.length(4);
    expect(fake.tokenRequests).to.have.length(1);
  });

  it('gets a new token once the cached one nears expiry', async () => {
    const fakeFcm = await startFakeFcm({ clientEmail: account.clientEmail, publicKey: keys.publicKey, projectId: 'nkra-test' }, { tokenLifetimeSeconds: 120 });
    try {
      let now = Date.now();
      const json = makeTestServiceAccount(fakeFcm.tokenUri, { keyPair: keys }).json;
      const push = new FcmPushProvider({ baseUrl: fakeFcm.url, credentials: { serviceAccountJson: json }, now: () => now });
      await push.send(message());
      now += 30_000;
      await push.send(message());
      expect(fakeFcm.tokenRequests).to.have.length(1);
      now += 31_000; // past half of a 120 s token (short tokens refresh at half-life)
      await push.send(message());
      expect(fakeFcm.tokenRequests).to.have.length(2);
    } finally {
      await fakeFcm.close();
    }
  });

  it('refreshes an access token FCM refuses (401 UNAUTHENTICATED) and retries the send once', async () => {
    const push = provider();
    await push.send(message());
    fake.expireTokens();
    const result = await push.send(message());
    expect(result.accepted).to.equal(true);
    expect(fake.tokenRequests).to.have.length(2);
    expect(fake.received).to.have.length(3);
  });

  it('reports dead device tokens as a permanent UNREGISTERED so the contact token can be cleared', async () => {
    fake.script({ kind: 'error', status: 404, body: fcmError(404, 'NOT_FOUND', 'UNREGISTERED', 'Requested entity was not found.') });
    fake.script({ kind: 'error', status: 400, body: fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token', 'message.token') });
    fake.script({ kind: 'error', status: 403, body: fcmError(403, 'PERMISSION_DENIED', 'SENDER_ID_MISMATCH', 'SenderId mismatch') });
    const push = provider();
    for (let i = 0; i < 3; i += 1) {
      expect(await push.send(message())).to.deep.include({ accepted: false, retryable: false, errorCode: 'UNREGISTERED' });
    }
  });

  it('reports an invalid payload that is not about the token as a permanent INVALID_REQUEST', async () => {
    fake.script({ kind: 'error', status: 400, body: fcmError(400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'Invalid value at message.android.ttl', 'message.android.ttl') });
    const result = await provider().send(message());
    expect(result).to.deep.include({ accepted: false, retryable: false, errorCode: 'INVALID_REQUEST' });
  });

  it('maps QUOTA_EXCEEDED (429, with Retry-After) to RATE_LIMITED and UNAVAILABLE (503) to VENDOR_UNAVAILABLE, both retryable', async () => {
    fake.script({ kind: 'rate-limited', retryAfterSeconds: 60 });
    fake.script({ kind: 'error', status: 503 });
    const push = provider();
    const quota = await push.send(message());
    expect(quota).to.deep.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
    if (!quota.accepted) expect(quota.errorMessage).to.contain('retry after 60 s').and.contain('QUOTA_EXCEEDED');
    expect(await push.send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
  });

  it('times out a slow send with a retryable TIMEOUT', async () => {
    const push = provider({ timeoutMs: 150 });
    await push.checkHealth();
    fake.script({ kind: 'slow', delayMs: 1_000 });
    expect(await push.send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
  });

  it('fails a key Google does not know with a permanent AUTH_FAILED that never contains the key or the assertion', async () => {
    const stranger = makeTestServiceAccount(fake.tokenUri, { keyPair: generateKeyPairSync('rsa', { modulusLength: 2048 }) });
    const push = provider({ credentials: { serviceAccountJson: stranger.json } });
    const result = await push.send(message());
    expect(result).to.deep.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    if (!result.accepted) expect(result.errorMessage).to.contain('invalid_grant');
    const assertion = new URLSearchParams(fake.tokenRequests[0]?.body).get('assertion') ?? '';
    const keyBody = stranger.privateKeyPem.split('\n')[1] ?? '';
    expect(JSON.stringify(result)).to.not.contain(keyBody).and.not.contain(assertion);
    expect(fake.received).to.have.length(0);
  });

  it('treats token endpoint outages and slowness as retryable', async () => {
    fake.scriptToken({ kind: 'error', status: 500 });
    expect(await provider().send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    fake.scriptToken({ kind: 'slow', delayMs: 1_000 });
    expect(await provider({ timeoutMs: 150 }).send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
    expect(fake.received).to.have.length(0);
  });

  it('reports an unreadable service account as CONFIG_INVALID without throwing, from send and health alike', async () => {
    const push = provider({ credentials: { serviceAccountJson: '{"private_key": "-----BEGIN PRIVATE KEY-----\\nsecret' } });
    const result = await push.send(message());
    expect(result).to.deep.include({ accepted: false, retryable: false, errorCode: 'CONFIG_INVALID' });
    expect(JSON.stringify(result)).to.not.contain('secret');
    const health = await push.checkHealth();
    expect(health.ok).to.equal(false);
    const badKey = JSON.stringify({ ...JSON.parse(account.json) as object, private_key: 'not a key' });
    expect(await provider({ credentials: { serviceAccountJson: badKey } }).send(message())).to.deep.include({ accepted: false, errorCode: 'CONFIG_INVALID' });
  });

  it('is healthy when a fresh access token can be obtained, and not with an unknown key', async () => {
    const push = provider();
    const first = await push.checkHealth();
    const second = await push.checkHealth();
    expect(first).to.deep.include({ ok: true, balance: null });
    expect(second.ok).to.equal(true);
    expect(fake.tokenRequests).to.have.length(2);
    const stranger = makeTestServiceAccount(fake.tokenUri, { keyPair: generateKeyPairSync('rsa', { modulusLength: 2048 }) });
    const bad = await provider({ credentials: { serviceAccountJson: stranger.json } }).checkHealth();
    expect(bad.ok).to.equal(false);
    expect(bad.detail).to.contain('auth failed');
  });
});
