import { expect } from 'chai';
import { ExpoPushProvider, type ExpoPushOptions } from '../../../adapters/providers/expo-push.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import { startFakeExpo, type FakeExpo } from '../../support/fake-vendors/expo.ts';

const DEVICE_TOKEN = 'ExponentPushToken[xxxxxxxxxxxxxxxxxxxxxx]';
const ACCESS_TOKEN = 'expo-access-token-s3cr3t-value';

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    messageId: 'msg_push_1', internalMessageId: 'int-push-1', organizationId: 'org-1', channel: 'PUSH',
    to: DEVICE_TOKEN, subject: null, body: 'GHS 50.00 received', senderId: null, ...overrides,
  };
}

describe('Contract: Expo push adapter against a local Expo push service fake', () => {
  let fake: FakeExpo;
  before(async () => { fake = await startFakeExpo({ accessToken: ACCESS_TOKEN }); });
  after(async () => { await fake.close(); });
  beforeEach(() => { fake.received.length = 0; fake.deadTokens.clear(); fake.throttledTokens.clear(); fake.badAppCredentials.value = false; });

  const provider = (overrides: Partial<ExpoPushOptions> = {}) => new ExpoPushProvider({
    baseUrl: fake.url, credentials: { accessToken: ACCESS_TOKEN }, timeoutMs: 2_000, ...overrides,
  });

  it('sends one message with the access token as a bearer and keeps the ticket id', async () => {
    const result = await provider({ defaultTitle: 'Nkra' }).send(message());
    expect(result.accepted).to.equal(true);
    if (result.accepted) expect(result.providerMessageId).to.match(/^[0-9a-f-]{36}$/);
    const [request] = fake.received;
    expect(request?.path).to.equal('/--/api/v2/push/send');
    expect(request?.headers.authorization).to.equal(`Bearer ${ACCESS_TOKEN}`);
    expect(request?.json).to.deep.equal([{ to: DEVICE_TOKEN, title: 'Nkra', body: 'GHS 50.00 received', data: { message_id: 'msg_push_1' }, sound: 'default' }]);
  });

  it('sends without an authorization header when no access token is configured', async () => {
    const open = await startFakeExpo();
    try {
      expect((await new ExpoPushProvider({ baseUrl: open.url }).send(message({ subject: 'Payment' }))).accepted).to.equal(true);
      expect(open.received[0]?.headers.authorization).to.equal(undefined);
    } finally {
      await open.close();
    }
  });

  it('refuses FCM and APNs tokens for good (TOKEN_NOT_EXPO) without calling Expo, and says it accepts only Expo tokens', async () => {
    const expo = provider();
    for (const to of [`fcm-instance-id:APA91b${'x7Yq'.repeat(36)}`, '740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad']) {
      expect(await expo.send(message({ to }))).to.include({ accepted: false, retryable: false, errorCode: 'TOKEN_NOT_EXPO' });
      expect(expo.accepts(to)).to.equal(false);
    }
    expect(expo.accepts('ExpoPushToken[abcdefgh12345678]')).to.equal(true);
    expect(fake.received).to.have.length(0);
  });

  it('reports a DeviceNotRegistered ticket as a permanent UNREGISTERED', async () => {
    fake.deadTokens.add(DEVICE_TOKEN);
    const result = await provider().send(message());
    expect(result).to.deep.include({ accepted: false, retryable: false, errorCode: 'UNREGISTERED' });
    if (!result.accepted) expect(result.errorMessage).to.contain('DeviceNotRegistered');
  });

  it('maps MessageRateExceeded tickets, HTTP 429 and 5xx to retryable failures', async () => {
    const expo = provider();
    fake.throttledTokens.add(DEVICE_TOKEN);
    expect(await expo.send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
    fake.throttledTokens.clear();
    fake.script({ kind: 'rate-limited', retryAfterSeconds: 5 });
    expect(await expo.send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
    fake.script({ kind: 'error', status: 503 });
    expect(await expo.send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
  });

  it('maps InvalidCredentials tickets and a refused access token to a permanent AUTH_FAILED that never contains the token', async () => {
    fake.badAppCredentials.value = true;
    expect(await provider().send(message())).to.deep.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    fake.badAppCredentials.value = false;
    const wrong = 'expo-access-token-wrong-one';
    const refused = await provider({ credentials: { accessToken: wrong } }).send(message());
    expect(refused).to.deep.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    expect(JSON.stringify(refused)).to.not.contain(wrong).and.not.contain(ACCESS_TOKEN);
  });

  it('times out a send Expo does not answer with a retryable TIMEOUT, within the configured timeout', async () => {
    fake.script({ kind: 'slow', delayMs: 5_000 });
    const started = Date.now();
    expect(await provider({ timeoutMs: 200 }).send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
    expect(Date.now() - started).to.be.below(1_000);
  });

  it('is healthy when the receipts endpoint answers with the access token, and not with a wrong one', async () => {
    const health = await provider().checkHealth();
    expect(health).to.deep.include({ ok: true, balance: null });
    expect(fake.received[0]?.path).to.equal('/--/api/v2/push/getReceipts');
    const bad = await provider({ credentials: { accessToken: 'expo-access-token-wrong-one' } }).checkHealth();
    expect(bad.ok).to.equal(false);
    expect(bad.detail).to.contain('auth failed').and.not.contain('expo-access-token-wrong-one');
  });
});
