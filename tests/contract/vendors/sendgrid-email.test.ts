import { createPublicKey } from 'node:crypto';
import { expect } from 'chai';
import { SendgridEmailProvider, type SendgridEmailOptions } from '../../../adapters/providers/sendgrid-email.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import type { InboundCallback } from '../../../core/ports/vendor-adapter.ts';
import { startCallbackReceiver, type CallbackReceiver } from '../../support/fake-vendors/ghana-sms-fake-server.ts';
import { sendgridError, startFakeSendgrid, type FakeSendgrid } from '../../support/fake-vendors/sendgrid.ts';

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    messageId: 'msg_sg_1', internalMessageId: 'int-sg-1', organizationId: 'org-1', channel: 'EMAIL',
    to: 'ama@example.com', subject: 'Your receipt', body: '<p>Hello Ama,</p><p>We received <b>GHS 50.00</b>.</p>', senderId: null, ...overrides,
  };
}

describe('Contract: SendGrid v3 email adapter against a local fake', () => {
  let fake: FakeSendgrid;
  let receiver: CallbackReceiver;
  before(async () => { fake = await startFakeSendgrid(); receiver = await startCallbackReceiver('/providers/callbacks/sendgrid-email'); });
  after(async () => { await fake.close(); await receiver.close(); });
  beforeEach(() => { fake.received.length = 0; receiver.callbacks.length = 0; });

  const provider = (overrides: Partial<SendgridEmailOptions> = {}) => new SendgridEmailProvider({
    baseUrl: fake.url, credentials: { apiKey: fake.apiKey, webhookPublicKey: fake.webhookPublicKey },
    from: '"Nkra" <no-reply@nkra.example>', timeoutMs: 2_000, ...overrides,
  });

  it('posts the mail with the bearer key, text/plain before text/html, and returns the X-Message-Id of the 202', async () => {
    const result = await provider({ replyTo: 'support@nkra.example' }).send(message());
    expect(result).to.deep.equal({ accepted: true, providerMessageId: fake.messageIds[0], delivered: false });
    const [request] = fake.received;
    expect(request?.path).to.equal('/v3/mail/send');
    expect(request?.headers.authorization).to.equal(`Bearer ${fake.apiKey}`);
    expect(request?.json).to.deep.equal({
      personalizations: [{ to: [{ email: 'ama@example.com' }], subject: 'Your receipt', custom_args: { message_id: 'msg_sg_1' } }],
      from: { email: 'no-reply@nkra.example', name: 'Nkra' },
      content: [
        { type: 'text/plain', value: 'Hello Ama,\n\nWe received GHS 50.00.' },
        { type: 'text/html', value: '<p>Hello Ama,</p><p>We received <b>GHS 50.00</b>.</p>' },
      ],
      reply_to: { email: 'support@nkra.example' },
    });
  });

  it('in sandbox mode asks SendGrid not to send and accepts its 200', async () => {
    const result = await provider({ sandboxMode: true, from: 'no-reply@nkra.example' }).send(message());
    expect(result.accepted).to.equal(true);
    expect(fake.received[0]?.json).to.deep.include({ from: { email: 'no-reply@nkra.example' }, mail_settings: { sandbox_mode: { enable: true } } });
  });

  it('maps refusals to permanent codes: bad address, unverified sender, oversized payload', async () => {
    fake.script({ kind: 'error', status: 400, body: sendgridError('Does not contain a valid address.', 'personalizations.0.to') });
    fake.script({ kind: 'error', status: 403 });
    fake.script({ kind: 'error', status: 413, body: sendgridError('Payload too large') });
    const email = provider();
    const address = await email.send(message());
    expect(address).to.deep.include({ accepted: false, retryable: false, errorCode: 'INVALID_ADDRESS' });
    if (!address.accepted) expect(address.errorMessage).to.contain('Does not contain a valid address');
    expect(await email.send(message())).to.deep.include({ accepted: false, retryable: false, errorCode: 'INVALID_SENDER' });
    expect(await email.send(message())).to.deep.include({ accepted: false, retryable: false, errorCode: 'PAYLOAD_TOO_LARGE' });
  });

  it('fails a bad API key with a permanent AUTH_FAILED that never contains the key, even when echoed', async () => {
    const secret = 'SG.wrong-key.super-secret-value';
    const bad = await provider({ credentials: { apiKey: secret } }).send(message());
    expect(bad).to.deep.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
    fake.script({ kind: 'error', status: 400, body: sendgridError(`Bad request for key ${fake.apiKey}`) });
    const echoed = await provider().send(message());
    expect(JSON.stringify(bad)).to.not.contain(secret);
    expect(JSON.stringify(echoed)).to.not.contain(fake.apiKey);
  });

  it('maps 429 (Retry-After in the message) and 5xx to retryable failures, and a slow answer to TIMEOUT', async () => {
    fake.script({ kind: 'rate-limited', retryAfterSeconds: 12 });
    fake.script({ kind: 'error', status: 502 });
    fake.script({ kind: 'slow', delayMs: 1_000 });
    const email = provider({ timeoutMs: 150 });
    const limited = await email.send(message());
    expect(limited).to.deep.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
    if (!limited.accepted) expect(limited.errorMessage).to.contain('retry after 12 s');
    expect(await email.send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    expect(await email.send(message())).to.deep.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
  });

  it('is healthy when the key has the mail.send scope; not without it, nor with a bad key', async () => {
    expect(await provider().checkHealth()).to.deep.include({ ok: true, balance: null });
    expect(fake.received[0]?.path).to.equal('/v3/scopes');
    fake.scopes.splice(0, fake.scopes.length, 'user.account.read');
    try {
      const narrow = await provider().checkHealth();
      expect(narrow.ok).to.equal(false);
      expect(narrow.detail).to.contain('mail.send');
    } finally {
      fake.scopes.splice(0, fake.scopes.length, 'mail.send', 'user.account.read');
    }
    const bad = await provider({ credentials: { apiKey: 'SG.bad.key-xyz' } }).checkHealth();
    expect(bad.ok).to.equal(false);
    expect(bad.detail).to.not.contain('SG.bad.key-xyz');
  });

  it('parses a signed event batch: delivery events in our terms, engagement as delivered, ids matched to the send', async () => {
    const sent = await provider().send(message());
    const id = sent.accepted ? sent.providerMessageId : 'none';
    const response = await fake.postEvents(receiver.url, [
      { email: 'ama@example.com', timestamp: 1750857384, event: 'processed', sg_event_id: 'e1', sg_message_id: `${id}.filterdrecv-1-2`, message_id: 'msg_sg_1' },
      { email: 'ama@example.com', timestamp: 1750857390, event: 'delivered', sg_event_id: 'e2', sg_message_id: `${id}.filterdrecv-1-2`, response: '250 OK' },
      { email: 'ama@example.com', timestamp: 1750857395, event: 'open', sg_event_id: 'e3', sg_message_id: `${id}.filterdrecv-1-2` },
      { email: 'kofi@example.com', timestamp: 1750857396, event: 'bounce', type: 'bounce', sg_event_id: 'e4', sg_message_id: 'B1.filter' },
      { email: 'yaw@example.com', timestamp: 1750857397, event: 'bounce', type: 'blocked', sg_event_id: 'e5', sg_message_id: 'B2.filter' },
      { email: 'esi@example.com', timestamp: 1750857398, event: 'dropped', reason: 'Bounced Address', sg_event_id: 'e6', sg_message_id: 'D1.filter' },
      { email: 'ama@example.com', timestamp: 1750857399, event: 'unsubscribe', sg_event_id: 'e7', sg_message_id: `${id}.filterdrecv-1-2` },
    ]);
    expect(response.status).to.equal(200);
    const reports = provider().parseCallback(receiver.callbacks[0] as InboundCallback);
    expect(reports.map((r) => [r.providerMessageId, r.status, r.errorCode, r.vendorStatus])).to.deep.equal([
      [id, 'SENT', null, 'processed'],
      [id, 'DELIVERED', null, 'delivered'],
      [id, 'DELIVERED', null, 'open'],
      ['B1', 'FAILED', 'BOUNCED', 'bounce'],
      ['B2', 'FAILED', 'BLOCKED', 'bounce'],
      ['D1', 'FAILED', 'DROPPED', 'dropped'],
    ]);
    expect(reports[0]?.occurredAt).to.deep.equal(new Date(1750857384_000));
  });

  it('accepts the verification key as PEM too', async () => {
    await fake.postEvents(receiver.url, [{ event: 'delivered', timestamp: 1750857390, sg_message_id: 'X1.filter' }]);
    const pem = createPublicKey({ key: Buffer.from(fake.webhookPublicKey, 'base64'), format: 'der', type: 'spki' }).export({ type: 'spki', format: 'pem' }).toString();
    const reports = provider({ credentials: { apiKey: fake.apiKey, webhookPublicKey: pem } }).parseCallback(receiver.callbacks[0] as InboundCallback);
    expect(reports.map((r) => r.status)).to.deep.equal(['DELIVERED']);
  });

  it('refuses tampered, unsigned, stale or unverifiable event batches with INVALID_SIGNATURE', async () => {
    await fake.postEvents(receiver.url, [{ event: 'delivered', timestamp: 1750857390, sg_message_id: 'X1.filter' }]);
    await fake.postEvents(receiver.url, [{ event: 'delivered', timestamp: 1750857390, sg_message_id: 'X1.filter' }], { signed: false });
    await fake.postEvents(receiver.url, [{ event: 'delivered', timestamp: 1750857390, sg_message_id: 'X1.filter' }], { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const [good, unsigned, stale] = receiver.callbacks as InboundCallback[];
    const tampered = { ...good!, rawBody: Buffer.from(good!.rawBody.toString('utf8').replace('delivered', 'bounce')) };
    for (const callback of [tampered, unsigned!, stale!]) {
      expect(() => provider().parseCallback(callback)).to.throw().with.property('code', 'INVALID_SIGNATURE');
    }
    expect(() => provider({ credentials: { apiKey: fake.apiKey } }).parseCallback(good!)).to.throw().with.property('code', 'INVALID_SIGNATURE');
    const other = await startFakeSendgrid();
    await other.close();
    const otherKey = other.webhookPublicKey;
    expect(() => provider({ credentials: { apiKey: fake.apiKey, webhookPublicKey: otherKey } }).parseCallback(good!)).to.throw().with.property('code', 'INVALID_SIGNATURE');
  });
});
