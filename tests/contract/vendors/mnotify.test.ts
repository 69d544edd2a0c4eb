import { expect } from 'chai';
import { MnotifySmsProvider, type MnotifySmsOptions } from '../../../adapters/providers/mnotify-sms.ts';
import { AppError } from '../../../core/errors.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import { startFakeMnotify, type FakeMnotify } from '../../support/fake-vendors/mnotify.ts';

const API_KEY = 'mn-live-0b8e4c21aa';
const WRONG_KEY = 'mn-wrong-key-77a0';

function sms(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return { messageId: 'msg_1', internalMessageId: 'nkr_1', organizationId: 'org_1', channel: 'SMS', to: '+233241234567', subject: null, body: 'Your code is 482913', senderId: null, ...overrides };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try { await promise; } catch (error) { return error; }
  throw new Error('expected a rejection');
}

describe('mNotify SMS adapter against a fake mNotify', () => {
  let fake: FakeMnotify;
  const adapter = (options: Partial<MnotifySmsOptions> = {}) =>
    new MnotifySmsProvider({ baseUrl: fake.url, credentials: { apiKey: API_KEY }, senderId: 'NKRA', timeoutMs: 300, ...options });
  const wrongKey = { credentials: { apiKey: WRONG_KEY } };

  beforeEach(async () => { fake = await startFakeMnotify({ apiKey: API_KEY }); });
  afterEach(async () => { await fake.close(); });

  it('submits a quick SMS with the key in the query and returns the campaign id', async () => {
    const result = await adapter().send(sms());

    const [request] = fake.received;
    expect(request).to.include({ method: 'POST', path: '/api/sms/quick' });
    expect(request!.query).to.deep.equal({ key: API_KEY });
    expect(request!.headers['content-type']).to.equal('application/json');
    expect(request!.json).to.deep.equal({ recipient: ['233241234567'], sender: 'NKRA', message: 'Your code is 482913', is_schedule: false, schedule_date: '' });
    expect(fake.campaigns).to.have.length(1);
    expect(result).to.deep.equal({ accepted: true, providerMessageId: fake.campaigns[0]!.id, delivered: false });
  });

  it("sends the message's own sender id when it has one", async () => {
    await adapter().send(sms({ senderId: 'ShopGH' }));
    expect(fake.campaigns[0]).to.include({ sender: 'ShopGH' });
  });

  it('fails with RECIPIENT_REJECTED, not retryable, when mNotify sends to nobody', async () => {
    fake.rejectedNumbers.add('233241234567');
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: false, errorCode: 'RECIPIENT_REJECTED' });
  });

  it('fails with INVALID_SENDER when mNotify refuses the sender id', async () => {
    const result = await adapter().send(sms({ senderId: 'FarTooLongSender' }));
    expect(result).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_SENDER' });
    expect(result).to.have.property('errorMessage').that.includes('Sender ID is invalid');
  });

  it('fails with AUTH_FAILED on a wrong key (HTTP 401 or code 4001 in a 200) and never shows the key', async () => {
    const refused = await adapter(wrongKey).send(sms());
    expect(refused).to.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    fake.script({ kind: 'error', status: 200, body: { status: 'error', code: '4001', message: `Invalid API key ${API_KEY}` } });
    const inBody = await adapter().send(sms());
    expect(inBody).to.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    expect(JSON.stringify([refused, inBody])).to.not.include(WRONG_KEY).and.not.include(API_KEY);
  });

  it('fails with VENDOR_BALANCE, not retryable, on 402', async () => {
    fake.script({ kind: 'error', status: 402 });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: false, errorCode: 'VENDOR_BALANCE' });
  });

  it('fails retryable with VENDOR_UNAVAILABLE on 500', async () => {
    fake.script({ kind: 'error', status: 500 });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
  });

  it('fails retryable with RATE_LIMITED on 429 and reports Retry-After in the message', async () => {
    fake.script({ kind: 'rate-limited', retryAfterSeconds: 5 });
    const result = await adapter().send(sms());
    expect(result).to.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
    expect(result).to.have.property('errorMessage').that.includes('retry after 5 s');
  });

  it('gives up after the timeout with a retryable TIMEOUT whose message has no URL or key', async () => {
    fake.script({ kind: 'slow', delayMs: 2_000 });
    const started = Date.now();
    const result = await adapter({ timeoutMs: 150 }).send(sms());
    expect(result).to.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
    expect(Date.now() - started).to.be.below(1_500);
    expect(JSON.stringify(result)).to.not.include(API_KEY).and.not.include('127.0.0.1');
  });

  it('fails retryable with VENDOR_UNAVAILABLE, without the key, when nothing listens', async () => {
    const url = fake.url;
    await fake.close();
    const result = await new MnotifySmsProvider({ baseUrl: url, credentials: { apiKey: API_KEY }, senderId: 'NKRA' }).send(sms());
    expect(result).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    expect(JSON.stringify(result)).to.not.include(API_KEY);
    fake = await startFakeMnotify({ apiKey: API_KEY });
  });

  it('reports healthy with the SMS balance from the balance call', async () => {
    const health = await adapter().checkHealth();
    expect(health).to.include({ ok: true, balance: 7701 });
    expect(health.detail).to.include('bonus 12');
    expect(fake.received[0]).to.deep.include({ method: 'GET', path: '/api/balance/sms', query: { key: API_KEY } });
  });

  it('reports unhealthy, without the key, when the key is refused or mNotify is slow', async () => {
    const refused = await adapter(wrongKey).checkHealth();
    expect(refused).to.include({ ok: false, balance: null });
    expect(refused.detail).to.include('auth failed');
    expect(JSON.stringify(refused)).to.not.include(WRONG_KEY);
    fake.script({ kind: 'slow', delayMs: 2_000 });
    expect(await adapter({ timeoutMs: 100 }).checkHealth()).to.include({ ok: false });
  });

  describe('delivery report polling', () => {
    async function sent(): Promise<string> {
      const result = await adapter().send(sms());
      if (!result.accepted) throw new Error(result.errorMessage);
      return result.providerMessageId;
    }

    it('reports nothing while the campaign is PENDING, then DELIVERED with the send date', async () => {
      const id = await sent();
      expect(await adapter().fetchStatus(id)).to.equal(null);
      fake.setStatus(id, 'DELIVERED', '2025-08-15 21:51:40');
      expect(await adapter().fetchStatus(id)).to.deep.equal({
        providerMessageId: id, status: 'DELIVERED', errorCode: null, vendorStatus: 'DELIVERED', occurredAt: new Date('2025-08-15T21:51:40Z'),
      });
      expect(fake.received.at(-1)).to.deep.include({ method: 'GET', path: `/api/campaign/${id}`, query: { key: API_KEY } });
    });

    it('maps UNDELIVERED and EXPIRED to FAILED and SUBMITTED to SENT', async () => {
      const id = await sent();
      const cases: Array<[string, string, string | null]> = [['UNDELIVERED', 'FAILED', 'UNDELIVERED'], ['EXPIRED', 'FAILED', 'EXPIRED'], ['SUBMITTED', 'SENT', null]];
      for (const [word, status, errorCode] of cases) {
        fake.setStatus(id, word);
        expect(await adapter().fetchStatus(id)).to.include({ status, errorCode, vendorStatus: word });
      }
    });

    it('answers null for a campaign mNotify does not know', async () => {
      expect(await adapter().fetchStatus('NO-SUCH-CAMPAIGN')).to.equal(null);
    });

    it('throws a retryable PROVIDER_UNAVAILABLE on 5xx, and a permanent one without the key on a refused key', async () => {
      fake.script({ kind: 'error', status: 502 });
      expect(await rejection(adapter().fetchStatus('x'))).to.be.instanceOf(AppError).and.include({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
      const refused = await rejection(adapter(wrongKey).fetchStatus('x')) as AppError;
      expect(refused).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: false });
      expect(`${refused.message} ${JSON.stringify(refused.details)}`).to.not.include(WRONG_KEY);
    });
  });
});
