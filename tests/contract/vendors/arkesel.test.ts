import { expect } from 'chai';
import { ArkeselSmsProvider, type ArkeselSmsOptions } from '../../../adapters/providers/arkesel-sms.ts';
import { AppError } from '../../../core/errors.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import type { InboundCallback } from '../../../core/ports/vendor-adapter.ts';
import { startFakeArkesel, type FakeArkesel } from '../../support/fake-vendors/arkesel.ts';
import { startCallbackReceiver, type CallbackReceiver } from '../../support/fake-vendors/ghana-sms-fake-server.ts';

const API_KEY = 'ark-live-7f3c9a1e5d';

function sms(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return { messageId: 'msg_1', internalMessageId: 'nkr_1', organizationId: 'org_1', channel: 'SMS', to: '+233241234567', subject: null, body: 'Your code is 482913', senderId: null, ...overrides };
}

function thrown(run: () => unknown): unknown {
  try { run(); } catch (error) { return error; }
  throw new Error('expected an error');
}

describe('Arkesel SMS adapter against a fake Arkesel', () => {
  let fake: FakeArkesel;
  let receiver: CallbackReceiver;
  const adapter = (options: Partial<ArkeselSmsOptions> = {}) =>
    new ArkeselSmsProvider({ baseUrl: fake.url, credentials: { apiKey: API_KEY }, senderId: 'NKRA', timeoutMs: 300, ...options });

  beforeEach(async () => {
    fake = await startFakeArkesel({ apiKey: API_KEY });
    receiver = await startCallbackReceiver('/providers/callbacks/arkesel-sms');
  });
  afterEach(async () => { await fake.close(); await receiver.close(); });

  it('submits the message as Arkesel v2 expects and returns its message id', async () => {
    const result = await adapter().send(sms());

    expect(fake.received).to.have.length(1);
    const [request] = fake.received;
    expect(request).to.include({ method: 'POST', path: '/api/v2/sms/send' });
    expect(request!.headers).to.include({ 'api-key': API_KEY, 'content-type': 'application/json', accept: 'application/json' });
    expect(request!.json).to.deep.equal({ sender: 'NKRA', message: 'Your code is 482913', recipients: ['233241234567'] });
    expect(fake.accepted.map((m) => m.recipient)).to.deep.equal(['233241234567']);
    expect(result).to.deep.equal({ accepted: true, providerMessageId: fake.accepted[0]!.id, delivered: false });
  });

  it("uses the message's own sender id and the configured use case and sandbox flag", async () => {
    await adapter({ useCase: 'transactional', sandbox: true }).send(sms({ senderId: 'ShopGH' }));
    expect(fake.received[0]!.json).to.deep.include({ sender: 'ShopGH', use_case: 'transactional', sandbox: true });
  });

  it('asks for delivery reports at the callback URL, carrying a token but never the API key', async () => {
    await adapter({ callbackUrl: receiver.url }).send(sms());
    const callbackUrl = new URL((fake.received[0]!.json as { callback_url: string }).callback_url);
    expect(callbackUrl.origin + callbackUrl.pathname).to.equal(receiver.url);
    expect(callbackUrl.searchParams.get('token')).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(callbackUrl.toString()).to.not.include(API_KEY);
  });

  it('fails with INVALID_NUMBER, not retryable, when Arkesel lists the recipient under "invalid numbers"', async () => {
    fake.invalidNumbers.add('233241234567');
    const result = await adapter().send(sms());
    expect(result).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_NUMBER' });
  });

  it('fails with INVALID_NUMBER on a 422 naming the recipients field', async () => {
    fake.script({ kind: 'error', status: 422, body: { message: 'The given data was invalid.', errors: { 'recipients.0': ['Invalid phone number'] } } });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_NUMBER' });
  });

  it('fails with VENDOR_BALANCE, not retryable, on 402', async () => {
    fake.script({ kind: 'error', status: 402 });
    const result = await adapter().send(sms());
    expect(result).to.include({ accepted: false, retryable: false, errorCode: 'VENDOR_BALANCE' });
    expect(result).to.have.property('errorMessage').that.includes('Insufficient balance');
  });

  it('fails with AUTH_FAILED on a wrong key and keeps the key out of the result even when Arkesel echoes it', async () => {
    const wrongKey = 'ark-wrong-key-55d1e0';
    const result = await adapter({ credentials: { apiKey: wrongKey } }).send(sms());
    expect(result).to.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    expect(result).to.have.property('errorMessage').that.includes('Invalid api-key: [redacted]');
    expect(JSON.stringify(result)).to.not.include(wrongKey);
  });

  it('fails retryable with VENDOR_UNAVAILABLE on 500 and 503', async () => {
    fake.script({ kind: 'error', status: 500 });
    fake.script({ kind: 'error', status: 503 });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
  });

  it('fails retryable with RATE_LIMITED on 429 and reports Retry-After in the message', async () => {
    fake.script({ kind: 'rate-limited', retryAfterSeconds: 30 });
    const result = await adapter().send(sms());
    expect(result).to.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
    expect(result).to.have.property('errorMessage').that.includes('retry after 30 s');
  });

  it('gives up after the timeout with a retryable TIMEOUT', async () => {
    fake.script({ kind: 'slow', delayMs: 2_000 });
    const started = Date.now();
    const result = await adapter({ timeoutMs: 150 }).send(sms());
    expect(result).to.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
    expect(Date.now() - started).to.be.below(1_500);
  });

  it('fails retryable with VENDOR_UNAVAILABLE when nothing listens', async () => {
    const url = fake.url;
    await fake.close();
    const result = await new ArkeselSmsProvider({ baseUrl: url, credentials: { apiKey: API_KEY }, senderId: 'NKRA' }).send(sms());
    expect(result).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    fake = await startFakeArkesel({ apiKey: API_KEY });
  });

  it('reports healthy with the main balance from the balance call', async () => {
    const health = await adapter().checkHealth();
    expect(health).to.include({ ok: true, balance: 52.3 });
    expect(health.detail).to.include('SMS balance 1204');
    expect(fake.received[0]).to.include({ method: 'GET', path: '/api/v2/clients/balance-details' });
    expect(fake.received[0]!.headers['api-key']).to.equal(API_KEY);
  });

  it('reports unhealthy, without the key, when the key is refused, and never throws when unreachable', async () => {
    const wrongKey = 'ark-wrong-key-55d1e0';
    const refused = await adapter({ credentials: { apiKey: wrongKey } }).checkHealth();
    expect(refused).to.include({ ok: false, balance: null });
    expect(refused.detail).to.include('auth failed');
    expect(JSON.stringify(refused)).to.not.include(wrongKey);
    fake.script({ kind: 'slow', delayMs: 2_000 });
    expect(await adapter({ timeoutMs: 100 }).checkHealth()).to.include({ ok: false });
  });

  describe('delivery callbacks', () => {
    async function sendAndReport(status: string, method: 'GET' | 'POST' = 'GET'): Promise<{ id: string; callback: InboundCallback }> {
      const result = await adapter({ callbackUrl: receiver.url }).send(sms());
      if (!result.accepted) throw new Error(result.errorMessage);
      const answer = await fake.sendCallback(result.providerMessageId, status, method);
      expect(answer.status).to.equal(200);
      return { id: result.providerMessageId, callback: receiver.callbacks.at(-1)! };
    }

    it('reads a GET callback into a DELIVERED report', async () => {
      const { id, callback } = await sendAndReport('DELIVERED');
      expect(adapter().parseCallback(callback)).to.deep.equal([{ providerMessageId: id, status: 'DELIVERED', errorCode: null, vendorStatus: 'DELIVERED', occurredAt: null }]);
    });

    it('reads a POST form callback and maps failures and progress words', async () => {
      const failed = await sendAndReport('NOT_DELIVERED', 'POST');
      expect(adapter().parseCallback(failed.callback)).to.deep.equal([{ providerMessageId: failed.id, status: 'FAILED', errorCode: 'UNDELIVERED', vendorStatus: 'NOT_DELIVERED', occurredAt: null }]);
      const prohibited = await sendAndReport('PROHIBITED');
      expect(adapter().parseCallback(prohibited.callback)[0]).to.include({ status: 'FAILED', errorCode: 'REJECTED' });
      const expired = await sendAndReport('EXPIRED');
      expect(adapter().parseCallback(expired.callback)[0]).to.include({ status: 'FAILED', errorCode: 'EXPIRED' });
      const submitted = await sendAndReport('SUBMITTED');
      expect(adapter().parseCallback(submitted.callback)[0]).to.include({ status: 'SENT', errorCode: null });
    });

    it('ignores a status word it does not know', async () => {
      const { callback } = await sendAndReport('SOMETHING_NEW');
      expect(adapter().parseCallback(callback)).to.deep.equal([]);
    });

    it('rejects a callback with a tampered or missing token with INVALID_SIGNATURE', async () => {
      const { callback } = await sendAndReport('DELIVERED');
      const url = new URL(callback.url);
      const token = url.searchParams.get('token')!;
      url.searchParams.set('token', `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`);
      const tampered = thrown(() => adapter().parseCallback({ ...callback, url: url.toString() }));
      expect(tampered).to.be.instanceOf(AppError).and.include({ code: 'INVALID_SIGNATURE' });
      url.searchParams.delete('token');
      expect(thrown(() => adapter().parseCallback({ ...callback, url: url.toString() }))).to.include({ code: 'INVALID_SIGNATURE' });
    });

    it("rejects another Arkesel account's callback, so the right provider takes it", async () => {
      const { callback } = await sendAndReport('DELIVERED');
      const other = adapter({ credentials: { apiKey: 'another-account-key' } });
      expect(thrown(() => other.parseCallback(callback))).to.include({ code: 'INVALID_SIGNATURE' });
    });

    it('reads a callback whose gateway appended a second "?" to our query', async () => {
      const result = await adapter({ callbackUrl: receiver.url }).send(sms());
      if (!result.accepted) throw new Error(result.errorMessage);
      const ours = (fake.received.at(-1)!.json as { callback_url: string }).callback_url;
      const callback: InboundCallback = { url: `${ours}?sms_id=${result.providerMessageId}&status=DELIVERED`, headers: {}, rawBody: Buffer.alloc(0), contentType: '' };
      expect(adapter().parseCallback(callback)[0]).to.include({ providerMessageId: result.providerMessageId, status: 'DELIVERED' });
    });

    it('rejects a signed callback without sms_id or status with VALIDATION_ERROR', async () => {
      const result = await adapter({ callbackUrl: receiver.url }).send(sms());
      if (!result.accepted) throw new Error(result.errorMessage);
      const ours = (fake.received.at(-1)!.json as { callback_url: string }).callback_url;
      expect(thrown(() => adapter().parseCallback({ url: ours, headers: {}, rawBody: Buffer.alloc(0), contentType: '' }))).to.include({ code: 'VALIDATION_ERROR' });
    });
  });
});
