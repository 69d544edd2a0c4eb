import { expect } from 'chai';
import { MetaWhatsappProvider, verifyChallenge, type MetaWhatsappOptions } from '../../../adapters/providers/meta-whatsapp.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import type { InboundCallback } from '../../../core/ports/vendor-adapter.ts';
import { startCallbackReceiver, type CallbackReceiver } from '../../support/fake-vendors/ghana-sms-fake-server.ts';
import { metaError, startFakeMetaWhatsapp, type FakeMetaWhatsapp } from '../../support/fake-vendors/meta-whatsapp.ts';

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    messageId: 'msg_wa_1', internalMessageId: 'int-wa-1', organizationId: 'org-1', channel: 'WHATSAPP',
    to: '+233241234567', subject: null, body: 'Your order A12345 has shipped', senderId: null, ...overrides,
  };
}

describe('Contract: Meta WhatsApp Cloud API adapter against a local fake', () => {
  let fake: FakeMetaWhatsapp;
  let receiver: CallbackReceiver;
  before(async () => { fake = await startFakeMetaWhatsapp(); receiver = await startCallbackReceiver('/providers/callbacks/meta-whatsapp'); });
  after(async () => { await fake.close(); await receiver.close(); });
  beforeEach(() => { fake.received.length = 0; receiver.callbacks.length = 0; });

  const provider = (overrides: Partial<MetaWhatsappOptions> = {}) => new MetaWhatsappProvider({
    baseUrl: fake.url, credentials: { accessToken: fake.accessToken, appSecret: fake.appSecret }, phoneNumberId: fake.phoneNumberId,
    apiVersion: fake.apiVersion, timeoutMs: 2_000, ...overrides,
  });

  it('sends a text message to the number without "+" with the bearer token and returns the wamid', async () => {
    const result = await provider().send(message());
    expect(result.accepted).to.equal(true);
    if (!result.accepted) return;
    expect(result.providerMessageId).to.match(/^wamid\./);
    expect(result.delivered).to.equal(false);
    const [request] = fake.received;
    expect(request?.method).to.equal('POST');
    expect(request?.path).to.equal(`/${fake.apiVersion}/${fake.phoneNumberId}/messages`);
    expect(request?.headers.authorization).to.equal(`Bearer ${fake.accessToken}`);
    expect(request?.json).to.deep.equal({
      messaging_product: 'whatsapp', recipient_type: 'individual', to: '233241234567', type: 'text',
      text: { preview_url: false, body: 'Your order A12345 has shipped' }, biz_opaque_callback_data: 'msg_wa_1',
    });
  });

  it('in template mode sends the configured template with one body parameter per line of the body', async () => {
    const result = await provider({ mode: 'template', templateName: 'order_update_v1', templateLanguage: 'en_GB' }).send(message({ body: 'Ama\n\nA12345\n' }));
    expect(result.accepted).to.equal(true);
    expect(fake.received[0]?.json).to.deep.include({
      type: 'template',
      template: { name: 'order_update_v1', language: { code: 'en_GB' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ama' }, { type: 'text', text: 'A12345' }] }] },
    });
  });

  it('sends a body starting with [[template]] as the configured template even in text mode, without the marker', async () => {
    await provider({ templateName: 'order_update_v1' }).send(message({ body: '[[template]]Kofi' }));
    const sent = fake.received[0]?.json as Record<string, unknown>;
    expect(sent['type']).to.equal('template');
    expect(sent['template']).to.deep.equal({ name: 'order_update_v1', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Kofi' }] }] });
    expect(sent).to.not.have.property('text');
  });

  it('fails TEMPLATE_NOT_CONFIGURED (permanent) without calling Meta when a template is wanted but none is configured', async () => {
    const result = await provider({ mode: 'template' }).send(message());
    expect(result).to.deep.include({ accepted: false, retryable: false, errorCode: 'TEMPLATE_NOT_CONFIGURED' });
    expect(fake.received).to.have.length(0);
  });

  it('maps 131026 (not on WhatsApp) to a permanent UNDELIVERABLE and 131047 to REENGAGEMENT_REQUIRED', async () => {
    fake.script({ kind: 'error', status: 400, body: metaError(131026, 'Message undeliverable') });
    fake.script({ kind: 'error', status: 400, body: metaError(131047, 'Re-engagement message', 'More than 24 hours have passed') });
    const undeliverable = await provider().send(message());
    const window = await provider().send(message());
    expect(undeliverable).to.deep.include({ accepted: false, retryable: false, errorCode: 'UNDELIVERABLE' });
    expect(window).to.deep.include({ accepted: false, retryable: false, errorCode: 'REENGAGEMENT_REQUIRED' });
    if (!window.accepted) expect(window.errorMessage).to.contain('131047').and.contain('More than 24 hours');
  });

  it('maps throughput and pair-rate errors to retryable RATE_LIMITED, with Retry-After in the message', async () => {
    fake.script({ kind: 'rate-limited', retryAfterSeconds: 30 });
    fake.script({ kind: 'error', status: 400, body: metaError(131056, 'Pair rate limit hit') });
    const throughput = await provider().send(message());
    const pair = await provider().send(message());
    expect(throughput).to.deep.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
    if (!throughput.accepted) expect(throughput.errorMessage).to.contain('retry after 30 s');
    expect(pair).to.deep.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
  });

  it('maps 5xx to retryable VENDOR_UNAVAILABLE and template parameter errors to a permanent TEMPLATE_ERROR', async () => {
    fake.script({ kind: 'error', status: 503 });
    fake.script({ kind: 'error', status: 400, body: metaError(132000, 'Number of parameters does not match') });
    expect(await provider().send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    expect(await provider().send(message())).to.deep.include({ accepted: false, retryable: false, errorCode: 'TEMPLATE_ERROR' });
  });

  it('answers a bad token with a permanent AUTH_FAILED that never contains the token, even when Meta echoes it', async () => {
    const secret = 'EAAG-leaky-secret-token-123';
    const bad = await provider({ credentials: { accessToken: secret } }).send(message());
    expect(bad).to.deep.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    fake.script({ kind: 'error', status: 400, body: metaError(100, `Invalid parameter for token ${fake.accessToken}`) });
    const echoed = await provider().send(message());
    expect(echoed).to.deep.include({ accepted: false, retryable: false, errorCode: 'INVALID_REQUEST' });
    expect(JSON.stringify(bad)).to.not.contain(secret);
    expect(JSON.stringify(echoed)).to.not.contain(fake.accessToken);
    expect(JSON.stringify(echoed)).to.contain('[redacted]');
  });

  it('gives up after the timeout with a retryable TIMEOUT, and reports a closed port as retryable VENDOR_UNAVAILABLE', async () => {
    fake.script({ kind: 'slow', delayMs: 1_000 });
    const slow = await provider({ timeoutMs: 150 }).send(message());
    expect(slow).to.deep.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
    const down = await provider({ baseUrl: 'http://127.0.0.1:9' }).send(message());
    expect(down).to.deep.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
  });

  it('is healthy when the phone number can be read with the token, and not with a bad token', async () => {
    const ok = await provider().checkHealth();
    expect(ok).to.deep.include({ ok: true, balance: null });
    expect(ok.detail).to.contain('GREEN');
    expect(fake.received[0]?.path).to.equal(`/${fake.apiVersion}/${fake.phoneNumberId}`);
    const bad = await provider({ credentials: { accessToken: 'wrong-token-xyz' } }).checkHealth();
    expect(bad.ok).to.equal(false);
    expect(bad.detail).to.contain('auth failed').and.not.contain('wrong-token-xyz');
  });

  it('parses a signed status webhook into SENT/DELIVERED/FAILED reports, read counting as delivered, unknown statuses ignored', async () => {
    const response = await fake.postStatuses(receiver.url, [
      { id: 'wamid.A', status: 'sent', timestamp: '1750857384', recipient_id: '233241234567', biz_opaque_callback_data: 'msg_wa_1' },
      { id: 'wamid.A', status: 'read', timestamp: '1750857390', recipient_id: '233241234567' },
      { id: 'wamid.B', status: 'failed', timestamp: '1750857400', recipient_id: '233241234568', errors: [{ code: 131026, title: 'Message undeliverable' }] },
      { id: 'wamid.C', status: 'deleted', timestamp: '1750857401', recipient_id: '233241234569' },
    ]);
    expect(response.status).to.equal(200);
    const reports = provider().parseCallback(receiver.callbacks[0] as InboundCallback);
    expect(reports).to.deep.equal([
      { providerMessageId: 'wamid.A', status: 'SENT', errorCode: null, vendorStatus: 'sent', occurredAt: new Date(1750857384_000) },
      { providerMessageId: 'wamid.A', status: 'DELIVERED', errorCode: null, vendorStatus: 'read', occurredAt: new Date(1750857390_000) },
      { providerMessageId: 'wamid.B', status: 'FAILED', errorCode: 'UNDELIVERABLE', vendorStatus: 'failed', occurredAt: new Date(1750857400_000) },
    ]);
  });

  it('refuses a tampered, unsigned or unverifiable webhook with INVALID_SIGNATURE', async () => {
    await fake.postStatuses(receiver.url, [{ id: 'wamid.A', status: 'delivered', timestamp: '1750857384' }]);
    const original = receiver.callbacks[0] as InboundCallback;
    const tampered = { ...original, rawBody: Buffer.from(original.rawBody.toString('utf8').replace('delivered', 'failed')) };
    const unsigned = { ...original, headers: { ...original.headers, 'x-hub-signature-256': undefined } };
    expect(() => provider().parseCallback(tampered)).to.throw().with.property('code', 'INVALID_SIGNATURE');
    expect(() => provider().parseCallback(unsigned)).to.throw().with.property('code', 'INVALID_SIGNATURE');
    expect(() => provider({ credentials: { accessToken: fake.accessToken } }).parseCallback(original)).to.throw().with.property('code', 'INVALID_SIGNATURE');
    expect(() => provider({ credentials: { accessToken: fake.accessToken, appSecret: 'other-secret' } }).parseCallback(original)).to.throw().with.property('code', 'INVALID_SIGNATURE');
  });

  it('answers the subscription handshake with the challenge only for the right verify token and mode', () => {
    const query = { 'hub.mode': 'subscribe', 'hub.challenge': '1158201444', 'hub.verify_token': 'my-verify-token' };
    expect(verifyChallenge(query, 'my-verify-token')).to.equal('1158201444');
    expect(verifyChallenge({ hub_mode: 'subscribe', hub_challenge: '42', hub_verify_token: 'my-verify-token' }, 'my-verify-token')).to.equal('42');
    expect(verifyChallenge(query, 'another-token')).to.equal(null);
    expect(verifyChallenge({ ...query, 'hub.mode': 'unsubscribe' }, 'my-verify-token')).to.equal(null);
    expect(verifyChallenge({ ...query, 'hub.verify_token': '' }, '')).to.equal(null);
  });
});
