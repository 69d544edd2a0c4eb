import { expect } from 'chai';
import { TermiiSmsProvider, type TermiiSmsOptions } from '../../../adapters/providers/termii-sms.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import { startFakeTermii, type FakeTermii } from '../../support/fake-vendors/termii.ts';

const API_KEY = 'TLtermiiLiveKey0b8e4c21';
const WRONG_KEY = 'TLwrongKey77a0';

function sms(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return { messageId: 'msg_1', internalMessageId: 'nkr_1', organizationId: 'org_1', channel: 'SMS', to: '+2348031234567', subject: null, body: 'Your code is 482913', senderId: null, ...overrides };
}

describe('Termii SMS adapter against a fake Termii', () => {
  let fake: FakeTermii;
  const adapter = (options: Partial<TermiiSmsOptions> = {}) =>
    new TermiiSmsProvider({ baseUrl: fake.url, credentials: { apiKey: API_KEY }, senderId: 'NKRA', timeoutMs: 300, ...options });

  beforeEach(async () => { fake = await startFakeTermii({ apiKey: API_KEY, senders: ['NKRA', 'SHOPNG'] }); });
  afterEach(async () => { await fake.close(); });

  it('sends a plain SMS with the key in the JSON body and returns the message_id', async () => {
    const result = await adapter().send(sms());
    const [request] = fake.received;
    expect(request).to.include({ method: 'POST', path: '/api/sms/send' });
    expect(request!.json).to.deep.equal({ to: '2348031234567', from: 'NKRA', sms: 'Your code is 482913', type: 'plain', channel: 'generic', api_key: API_KEY });
    expect(result).to.deep.equal({ accepted: true, providerMessageId: fake.accepted[0]!.id, delivered: false });
  });

  it("uses the message's own sender id, and the dnd route when configured", async () => {
    await adapter({ route: 'dnd' }).send(sms({ senderId: 'SHOPNG' }));
    expect(fake.accepted[0]).to.include({ from: 'SHOPNG', channel: 'dnd' });
  });

  it('fails for good with INVALID_SENDER for an unregistered sender and INVALID_NUMBER for a bad number', async () => {
    expect(await adapter().send(sms({ senderId: 'UNKNOWN' }))).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_SENDER' });
    expect(await adapter().send(sms({ to: '+23480' }))).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_NUMBER' });
  });

  it('fails with AUTH_FAILED on a wrong key and never shows a key', async () => {
    const refused = await adapter({ credentials: { apiKey: WRONG_KEY } }).send(sms());
    expect(refused).to.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    expect(JSON.stringify(refused)).to.not.include(WRONG_KEY).and.not.include(API_KEY);
  });

  it('fails retryable on 500 (VENDOR_UNAVAILABLE), 429 (RATE_LIMITED) and a timeout (TIMEOUT, no URL or key in the message)', async () => {
    fake.script({ kind: 'error', status: 500 });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    fake.script({ kind: 'rate-limited', retryAfterSeconds: 3 });
    expect(await adapter().send(sms())).to.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
    fake.script({ kind: 'slow', delayMs: 2_000 });
    const slow = await adapter({ timeoutMs: 150 }).send(sms());
    expect(slow).to.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
    expect(JSON.stringify(slow)).to.not.include(API_KEY).and.not.include('127.0.0.1');
  });

  it('reports healthy with the balance from get-balance, and unhealthy without the key when it is refused', async () => {
    expect(await adapter().checkHealth()).to.include({ ok: true, balance: 250.5 });
    const refused = await adapter({ credentials: { apiKey: WRONG_KEY } }).checkHealth();
    expect(refused.ok).to.equal(false);
    expect(JSON.stringify(refused)).to.not.include(WRONG_KEY);
  });
});
