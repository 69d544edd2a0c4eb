import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { expect } from 'chai';
import { ApnsPushProvider, type ApnsPushOptions } from '../../../adapters/providers/apns-push.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import { startFakeApns, type FakeApns } from '../../support/fake-vendors/apns.ts';

const DEVICE_TOKEN = '740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad';
const TOPIC = 'gh.nkra.wallet';

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    messageId: 'msg_push_1', internalMessageId: 'int-push-1', organizationId: 'org-1', channel: 'PUSH',
    to: DEVICE_TOKEN, subject: null, body: 'GHS 50.00 received', senderId: null, ...overrides,
  };
}

function ecKeys(): { privateKey: KeyObject; publicKey: KeyObject; pem: string } {
  const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...pair, pem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

describe('Contract: APNs provider API adapter (HTTP/2, token auth) against a local h2c fake', () => {
  let keys: ReturnType<typeof ecKeys>;
  let fake: FakeApns;
  const opened: ApnsPushProvider[] = [];
  before(async () => {
    keys = ecKeys();
    fake = await startFakeApns({ teamId: 'TEAM123456', keyId: 'KEY1234567', publicKey: keys.publicKey, topic: TOPIC });
  });
  after(async () => { await fake.close(); });
  beforeEach(() => { fake.received.length = 0; fake.acceptedJwts.clear(); fake.deadTokens.clear(); });
  afterEach(async () => { await Promise.all(opened.splice(0).map((p) => p.close())); });

  const provider = (overrides: Partial<ApnsPushOptions> = {}) => {
    const apns = new ApnsPushProvider({
      baseUrl: fake.url, topic: TOPIC, credentials: { privateKey: keys.pem, keyId: 'KEY1234567', teamId: 'TEAM123456' }, timeoutMs: 2_000, ...overrides,
    });
    opened.push(apns);
    return apns;
  };

  it('sends an alert to /3/device/{token} with an ES256 provider token and the documented headers, and keeps the apns-id', async () => {
    const result = await provider({ defaultTitle: 'Nkra' }).send(message());
    expect(result.accepted).to.equal(true);
    if (result.accepted) expect(result.providerMessageId).to.match(/^[0-9a-f-]{36}$/);
    const [request] = fake.received;
    expect(request?.path).to.equal(`/3/device/${DEVICE_TOKEN}`);
    expect(request?.headers).to.include({ 'apns-topic': TOPIC, 'apns-push-type': 'alert', 'apns-priority': '10' });
    expect(Number(request?.headers['apns-expiration'])).to.be.closeTo(Date.now() / 1000 + 86_400, 60);
    expect(request?.headers.authorization).to.match(/^bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    expect(request?.json).to.deep.equal({ aps: { alert: { title: 'Nkra', body: 'GHS 50.00 received' }, sound: 'default' }, message_id: 'msg_push_1' });
  });

  it('refuses FCM and Expo tokens for good (TOKEN_NOT_APNS) without calling APNs, and says it accepts only APNs tokens', async () => {
    const apns = provider();
    for (const to of [`fcm-instance-id:APA91b${'x7Yq'.repeat(36)}`, 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]']) {
      expect(await apns.send(message({ to }))).to.include({ accepted: false, retryable: false, errorCode: 'TOKEN_NOT_APNS' });
      expect(apns.accepts(to)).to.equal(false);
    }
    expect(apns.accepts(DEVICE_TOKEN)).to.equal(true);
    expect(fake.received).to.have.length(0);
  });

  it('reuses one provider token and one HTTP/2 connection across sends, and signs a new token after 50 minutes', async () => {
    let now = Date.now();
    const apns = provider({ now: () => now });
    const before = fake.connections();
    await Promise.all([apns.send(message()), apns.send(message()), apns.send(message())]);
    now += 40 * 60_000;
    await apns.send(message());
    expect(fake.acceptedJwts.size).to.equal(1);
    expect(fake.connections() - before).to.equal(1);
    now += 11 * 60_000;
    expect((await apns.send(message())).accepted).to.equal(true);
    expect(fake.acceptedJwts.size).to.equal(2);
  });

  it('opens a new connection when APNs closes the current one (GOAWAY)', async () => {
    const apns = provider();
    await apns.send(message());
    const before = fake.connections();
    fake.dropConnections();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await apns.send(message())).accepted).to.equal(true);
    expect(fake.connections()).to.equal(before + 1);
  });

  it('signs a new provider token on 403 ExpiredProviderToken and retries the send once', async () => {
    const apns = provider();
    await apns.send(message());
    for (const jwt of fake.acceptedJwts) fake.expiredJwts.add(jwt);
    const result = await apns.send(message());
    expect(result.accepted).to.equal(true);
    expect(fake.received).to.have.length(3);
    expect(new Set(fake.received.map((r) => r.jwt)).size).to.equal(2);
  });

  it('signs one new provider token, not one per send, when concurrent sends all meet ExpiredProviderToken', async () => {
    const apns = provider();
    await apns.send(message());
    for (const jwt of fake.acceptedJwts) fake.expiredJwts.add(jwt);
    const results = await Promise.all([apns.send(message()), apns.send(message()), apns.send(message())]);
    expect(results.every((r) => r.accepted)).to.equal(true);
    expect(new Set(fake.received.map((r) => r.jwt)).size).to.equal(2);
  });

  it('reports dead device tokens (410 Unregistered, 400 BadDeviceToken) as a permanent UNREGISTERED', async () => {
    fake.deadTokens.add(DEVICE_TOKEN);
    const apns = provider();
    const gone = await apns.send(message());
    expect(gone).to.deep.include({ accepted: false, retryable: false, errorCode: 'UNREGISTERED' });
    if (!gone.accepted) expect(gone.errorMessage).to.contain('HTTP 410').and.contain('Unregistered');
    fake.script({ kind: 'error', status: 400, body: { reason: 'BadDeviceToken' } });
    expect(await apns.send(message())).to.deep.include({ accepted: false, retryable: false, errorCode: 'UNREGISTERED' });
  });

  it('maps 429 TooManyRequests to RATE_LIMITED and 503 to VENDOR_UNAVAILABLE, both retryable; TopicDisallowed (our bundle id) to an account-level CONFIG_INVALID', async () => {
    const apns = provider();
    fake.script({ kind: 'rate-limited', retryAfterSeconds: 30 });
    const limited = await apns.send(message());
    expect(limited).to.deep.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
    if (!limited.accepted) expect(limited.errorMessage).to.contain('TooManyRequests');
    fake.script({ kind: 'error', status: 503, body: { reason: 'ServiceUnavailable' } });
    expect(await apns.send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    // Apple: 400 TopicDisallowed "Pushing to this topic is not allowed" is our configuration, not the device's: it fails over.
    expect(await provider({ topic: 'gh.other.app' }).send(message())).to.deep.include({ accepted: false, retryable: false, errorCode: 'CONFIG_INVALID', accountLevel: true });
    fake.script({ kind: 'error', status: 400, body: { reason: 'BadCollapseId' } });
    expect(await apns.send(message())).to.deep.include({ accepted: false, retryable: false, errorCode: 'INVALID_REQUEST' });
  });

  it('fails a key APNs does not know with a permanent AUTH_FAILED that never contains the key or the provider token', async () => {
    const stranger = ecKeys();
    const result = await provider({ credentials: { privateKey: stranger.pem, keyId: 'KEY1234567', teamId: 'TEAM123456' } }).send(message());
    expect(result).to.deep.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    if (!result.accepted) expect(result.errorMessage).to.contain('InvalidProviderToken');
    const keyBody = stranger.pem.split('\n')[1] ?? '';
    expect(JSON.stringify(result)).to.not.contain(keyBody).and.not.contain(fake.received[0]!.jwt);
    expect(await provider({ credentials: { privateKey: keys.pem, keyId: 'WRONGKEYID', teamId: 'TEAM123456' } }).send(message()))
      .to.deep.include({ accepted: false, errorCode: 'AUTH_FAILED' });
  });

  it('times out a send APNs never answers with a retryable TIMEOUT, within the configured timeout', async () => {
    const apns = provider({ timeoutMs: 200 });
    fake.script({ kind: 'hang' });
    const started = Date.now();
    expect(await apns.send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
    expect(Date.now() - started).to.be.below(1_000);
    expect((await apns.send(message())).accepted).to.equal(true); // the connection stays usable
  });

  it('treats an unreachable APNs as a retryable VENDOR_UNAVAILABLE', async () => {
    const gone = await startFakeApns({ teamId: 'T', keyId: 'K', publicKey: keys.publicKey, topic: TOPIC });
    await gone.close();
    expect(await provider({ baseUrl: gone.url }).send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
  });

  it('reports a key that cannot sign as CONFIG_INVALID without throwing or echoing it', async () => {
    const apns = provider({ credentials: { privateKey: '-----BEGIN PRIVATE KEY-----\nsecretsecret\n-----END PRIVATE KEY-----', keyId: 'K', teamId: 'T' } });
    const result = await apns.send(message());
    expect(result).to.deep.include({ accepted: false, retryable: false, errorCode: 'CONFIG_INVALID' });
    expect(JSON.stringify(result)).to.not.contain('secretsecret');
    expect((await apns.checkHealth()).ok).to.equal(false);
    expect(fake.received).to.have.length(0);
  });

  it('is healthy when APNs accepts the provider token (a probe token answered 400 BadDeviceToken), not with a wrong key or topic', async () => {
    const health = await provider().checkHealth();
    expect(health).to.deep.include({ ok: true, balance: null });
    expect(fake.received[0]?.headers).to.include({ 'apns-push-type': 'background', 'apns-priority': '5' });
    const stranger = ecKeys();
    const badKey = await provider({ credentials: { privateKey: stranger.pem, keyId: 'KEY1234567', teamId: 'TEAM123456' } }).checkHealth();
    expect(badKey.ok).to.equal(false);
    expect(badKey.detail).to.contain('auth failed').and.not.contain(stranger.pem.split('\n')[1]);
    const badTopic = await provider({ topic: 'gh.other.app' }).checkHealth();
    expect(badTopic).to.deep.include({ ok: false });
    expect(badTopic.detail).to.contain('TopicDisallowed');
  });
});
