import { expect } from 'chai';
import { HubtelSmsProvider, type HubtelSmsOptions } from '../../../adapters/providers/hubtel-sms.ts';
import { AppError } from '../../../core/errors.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import { startFakeHubtel, type FakeHubtel } from '../../support/fake-vendors/hubtel.ts';

const CLIENT_ID = 'hub-client-4411';
const CLIENT_SECRET = 'hub-secret-9c2e77f0';

function sms(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return { messageId: 'msg_1', internalMessageId: 'nkr_1', organizationId: 'org_1', channel: 'SMS', to: '+233241234567', subject: null, body: 'Your code is 482913', senderId: null, ...overrides };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try { await promise; } catch (error) { return error; }
  throw new Error('expected a rejection');
}

describe('Hubtel SMS adapter against a fake Hubtel', () => {
  let fake: FakeHubtel;
  const adapter = (options: Partial<HubtelSmsOptions> = {}) =>
    new HubtelSmsProvider({ baseUrl: fake.url, credentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, from: 'NKRA', timeoutMs: 300, ...options });
  const wrongCredentials = { credentials: { clientId: CLIENT_ID, clientSecret: 'hub-wrong-secret-31' } };

  beforeEach(async () => { fake = await startFakeHubtel({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }); });
  afterEach(async () => { await fake.close(); });

  it('submits the message with Basic auth and PascalCase JSON, the number without "+", and returns the message id', async () => {
    const result = await adapter().send(sms());

    const [request] = fake.received;
    expect(request).to.include({ method: 'POST', path: '/v1/messages/send' });
    expect(request!.headers.authorization).to.equal(`Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
    expect(request!.headers['content-type']).to.equal('application/json');
    expect(request!.json).to.deep.equal({ From: 'NKRA', To: '233241234567', Content: 'Your code is 482913' });
    expect(request!.query).to.deep.equal({});
    expect(fake.accepted).to.have.length(1);
    expect(result).to.deep.equal({ accepted: true, providerMessageId: fake.accepted[0]!.messageId, delivered: false, networkCode: '62001' });
  });

  it('accepts the wrapped success shape ({ data: { messageId } }) too', async () => {
    fake.shape = 'wrapped';
    const result = await adapter().send(sms());
    expect(result).to.deep.equal({ accepted: true, providerMessageId: fake.accepted[0]!.messageId, delivered: false, networkCode: '62001' });
  });

  // Hubtel's older answer (api.hubtel.com/v1/messages; hubtel/hubtel-sms-php src/MessageResponse.php reads
  // Status, MessageId, Rate, NetworkId, ClientReference): HTTP 201 {"Status":0,"MessageId":"...","Rate":...}.
  it('accepts the older PascalCase success answer (HTTP 201 {"Status":0,"MessageId":...}) instead of failing an accepted message', async () => {
    fake.shape = 'legacy';
    const result = await adapter().send(sms());
    expect(result).to.deep.equal({ accepted: true, providerMessageId: fake.accepted[0]!.messageId, delivered: false, networkCode: '62001' });
  });

  it("sends the message's own sender id when it has one", async () => {
    await adapter().send(sms({ senderId: 'ShopGH' }));
    expect(fake.accepted[0]).to.include({ from: 'ShopGH', via: 'POST' });
  });

  it('fails with INVALID_NUMBER, not retryable, on subcode 1 (invalid destination)', async () => {
    const result = await adapter().send(sms({ to: '+2348031234567' }));
    expect(result).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_NUMBER' });
    expect(result).to.have.property('errorMessage').that.includes('Invalid destination number');
  });

  it('fails with INVALID_SENDER on subcode 2 and VENDOR_BALANCE on subcode 12', async () => {
    expect(await adapter().send(sms({ senderId: 'FarTooLongSender' }))).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_SENDER' });
    fake.script({ kind: 'error', status: 400, body: { status: 12, message: 'Payment required' } });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: false, errorCode: 'VENDOR_BALANCE' });
  });

  it('fails with AUTH_FAILED on 401 and never shows the client secret', async () => {
    const result = await adapter(wrongCredentials).send(sms());
    expect(result).to.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    expect(JSON.stringify(result)).to.not.include('hub-wrong-secret-31');
    expect(JSON.stringify(result)).to.not.include(Buffer.from(`${CLIENT_ID}:hub-wrong-secret-31`).toString('base64'));
  });

  it('fails with VENDOR_BALANCE on 402 and RECIPIENT_BLOCKED on 403, neither retryable', async () => {
    fake.script({ kind: 'error', status: 402 });
    fake.script({ kind: 'error', status: 403 });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: false, errorCode: 'VENDOR_BALANCE' });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: false, errorCode: 'RECIPIENT_BLOCKED' });
  });

  it('fails retryable with VENDOR_UNAVAILABLE on 500 and 502', async () => {
    fake.script({ kind: 'error', status: 500 });
    fake.script({ kind: 'error', status: 502 });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
  });

  it('fails retryable with RATE_LIMITED on 429 and reports Retry-After in the message', async () => {
    fake.script({ kind: 'rate-limited', retryAfterSeconds: 12 });
    const result = await adapter().send(sms());
    expect(result).to.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
    expect(result).to.have.property('errorMessage').that.includes('retry after 12 s');
  });

  it('gives up after the timeout with a retryable TIMEOUT', async () => {
    fake.script({ kind: 'slow', delayMs: 2_000 });
    const started = Date.now();
    expect(await adapter({ timeoutMs: 150 }).send(sms())).to.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
    expect(Date.now() - started).to.be.below(1_500);
  });

  it('reports healthy when an authenticated GET is accepted (Hubtel has no balance call)', async () => {
    const health = await adapter().checkHealth();
    expect(health).to.include({ ok: true, balance: null });
    expect(fake.received[0]).to.include({ method: 'GET', path: '/v1/messages/00000000-0000-0000-0000-000000000000' });
    expect(fake.received[0]!.headers.authorization).to.match(/^Basic /);
  });

  it('reports unhealthy, without the secret, when the credentials are refused or Hubtel is down', async () => {
    const refused = await adapter(wrongCredentials).checkHealth();
    expect(refused).to.include({ ok: false });
    expect(refused.detail).to.include('auth failed');
    expect(JSON.stringify(refused)).to.not.include('hub-wrong-secret-31');
    fake.script({ kind: 'error', status: 503 });
    expect(await adapter().checkHealth()).to.include({ ok: false });
  });

  describe('status polling', () => {
    it('reports nothing while Hubtel says Pending, then DELIVERED with its update time', async () => {
      const sent = await adapter().send(sms());
      if (!sent.accepted) throw new Error(sent.errorMessage);
      expect(await adapter().fetchStatus(sent.providerMessageId)).to.equal(null);

      fake.setStatus(sent.providerMessageId, 'Delivered', '2025-08-15T09:31:12');
      expect(await adapter().fetchStatus(sent.providerMessageId)).to.deep.equal({
        providerMessageId: sent.providerMessageId, status: 'DELIVERED', errorCode: null, vendorStatus: 'Delivered', occurredAt: new Date('2025-08-15T09:31:12Z'),
      });
      expect(fake.received.at(-1)).to.include({ method: 'GET', path: `/v1/messages/${sent.providerMessageId}` });
    });

    it('maps Undelivered and Expired to FAILED and Sent to SENT', async () => {
      const sent = await adapter().send(sms());
      if (!sent.accepted) throw new Error(sent.errorMessage);
      const cases: Array<[string, string, string | null]> = [['Undelivered', 'FAILED', 'UNDELIVERED'], ['Expired', 'FAILED', 'EXPIRED'], ['Sent', 'SENT', null]];
      for (const [word, status, errorCode] of cases) {
        fake.setStatus(sent.providerMessageId, word);
        expect(await adapter().fetchStatus(sent.providerMessageId)).to.include({ status, errorCode, vendorStatus: word });
      }
    });

    it('answers null for a message Hubtel does not know', async () => {
      expect(await adapter().fetchStatus('no-such-message')).to.equal(null);
    });

    it('throws a retryable PROVIDER_UNAVAILABLE on 5xx and timeouts, and a permanent one without the secret on bad credentials', async () => {
      fake.script({ kind: 'error', status: 500 });
      expect(await rejection(adapter().fetchStatus('x'))).to.be.instanceOf(AppError).and.include({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
      fake.script({ kind: 'slow', delayMs: 2_000 });
      expect(await rejection(adapter({ timeoutMs: 100 }).fetchStatus('x'))).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
      const refused = await rejection(adapter(wrongCredentials).fetchStatus('x')) as AppError;
      expect(refused).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: false });
      expect(`${refused.message} ${JSON.stringify(refused.details)}`).to.not.include('hub-wrong-secret-31');
    });
  });
});
