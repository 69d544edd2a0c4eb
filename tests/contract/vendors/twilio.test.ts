import { expect } from 'chai';
import { TwilioSmsProvider, verifiedTwilioParams, type TwilioSmsOptions } from '../../../adapters/providers/twilio-sms.ts';
import { TwilioVoiceProvider, type TwilioVoiceOptions } from '../../../adapters/providers/twilio-voice.ts';
import { AppError } from '../../../core/errors.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import type { InboundCallback } from '../../../core/ports/vendor-adapter.ts';
import { startCallbackReceiver, type CallbackReceiver } from '../../support/fake-vendors/ghana-sms-fake-server.ts';
import { signTwilioRequest, startFakeTwilio, type FakeTwilio } from '../../support/fake-vendors/twilio.ts';

const ACCOUNT_SID = 'AC5ef8732a3c49700934481addd5ce1659';
const AUTH_TOKEN = 'tw-auth-3b9e71c4d2a8f605';
const WRONG_TOKEN = 'tw-wrong-token-8d1f00aa';

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return { messageId: 'msg_1', internalMessageId: 'nkr_1', organizationId: 'org_1', channel: 'SMS', to: '+233241234567', subject: null, body: 'Your code is 482913', senderId: null, ...overrides };
}

function thrown(run: () => unknown): unknown {
  try { run(); } catch (error) { return error; }
  throw new Error('expected an error');
}

function basic(sid: string, token: string): string {
  return `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;
}

describe('Twilio adapters against a fake Twilio', () => {
  let fake: FakeTwilio;
  let receiver: CallbackReceiver;
  const credentials = () => ({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
  const sms = (options: Partial<TwilioSmsOptions> = {}) =>
    new TwilioSmsProvider({ baseUrl: fake.url, credentials: credentials(), from: '+15005550006', statusCallbackUrl: receiver.url, timeoutMs: 300, ...options });
  const voice = (options: Partial<TwilioVoiceOptions> = {}) =>
    new TwilioVoiceProvider({ baseUrl: fake.url, credentials: credentials(), from: '+15005550006', statusCallbackUrl: receiver.url, timeoutMs: 300, ...options });

  beforeEach(async () => {
    fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
    receiver = await startCallbackReceiver('/providers/callbacks/twilio?region=gh');
  });
  afterEach(async () => { await fake.close(); await receiver.close(); });

  describe('SMS', () => {
    it('creates the message as Twilio expects and returns its SM sid', async () => {
      const result = await sms().send(message());

      expect(fake.received).to.have.length(1);
      const [request] = fake.received;
      expect(request).to.include({ method: 'POST', path: `/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json` });
      expect(request!.headers).to.include({ authorization: basic(ACCOUNT_SID, AUTH_TOKEN), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' });
      expect(Object.fromEntries(new URLSearchParams(request!.body))).to.deep.equal({
        To: '+233241234567', From: '+15005550006', Body: 'Your code is 482913', StatusCallback: receiver.url,
      });
      expect(result).to.deep.equal({ accepted: true, providerMessageId: fake.created[0]!.sid, delivered: false });
      expect(fake.created[0]!.sid).to.match(/^SM[0-9a-f]{32}$/);
    });

    it("sends through a Messaging Service and uses the message's own sender id", async () => {
      const result = await sms({ messagingServiceSid: 'MG9752274e9e519418a7406176694466fa' }).send(message({ senderId: 'NKRA', to: '233241234567' }));
      expect(result).to.include({ accepted: true });
      const params = new URLSearchParams(fake.received[0]!.body);
      expect(params.get('MessagingServiceSid')).to.equal('MG9752274e9e519418a7406176694466fa');
      expect(params.get('From')).to.equal('NKRA');
      expect(params.get('To')).to.equal('+233241234567');
    });

    it('fails with INVALID_NUMBER, not retryable, on error 21211 and UNSUBSCRIBED on 21610', async () => {
      fake.rejectedNumbers.set('+233241234567', { status: 400, code: 21211, message: "The 'To' number +233241234567 is not a valid phone number." });
      const invalid = await sms().send(message());
      expect(invalid).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_NUMBER' });
      expect(invalid).to.have.property('errorMessage').that.includes('Twilio error 21211');

      fake.rejectedNumbers.set('+233241234567', { status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' });
      expect(await sms().send(message())).to.include({ accepted: false, retryable: false, errorCode: 'UNSUBSCRIBED' });
    });

    it('fails with AUTH_FAILED on a wrong auth token and keeps every credential out of the result', async () => {
      const result = await sms({ credentials: { accountSid: ACCOUNT_SID, authToken: WRONG_TOKEN } }).send(message());
      expect(result).to.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
      const text = JSON.stringify(result);
      expect(text).to.not.include(WRONG_TOKEN);
      expect(text).to.not.include(Buffer.from(`${ACCOUNT_SID}:${WRONG_TOKEN}`).toString('base64'));
    });

    it('blanks the credentials out of an error message that echoes them', async () => {
      fake.script({ kind: 'error', status: 400, body: { code: 21604, message: `Bad request for ${ACCOUNT_SID} with ${AUTH_TOKEN}`, status: 400 } });
      const result = await sms().send(message());
      expect(result).to.include({ accepted: false, retryable: false, errorCode: 'VENDOR_REJECTED' });
      expect(JSON.stringify(result)).to.not.include(AUTH_TOKEN).and.not.include(ACCOUNT_SID);
    });

    it('fails retryable with RATE_LIMITED on 429 (error 20429) and reports Retry-After in the message', async () => {
      fake.script({ kind: 'rate-limited', retryAfterSeconds: 12 });
      const result = await sms().send(message());
      expect(result).to.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
      expect(result).to.have.property('errorMessage').that.includes('retry after 12 s').and.includes('20429');
    });

    it('fails retryable with VENDOR_UNAVAILABLE on 500 and 503', async () => {
      fake.script({ kind: 'error', status: 500 });
      fake.script({ kind: 'error', status: 503 });
      expect(await sms().send(message())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
      expect(await sms().send(message())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    });

    it('gives up after the timeout with a retryable TIMEOUT', async () => {
      fake.script({ kind: 'slow', delayMs: 2_000 });
      const started = Date.now();
      const result = await sms({ timeoutMs: 150 }).send(message());
      expect(result).to.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
      expect(Date.now() - started).to.be.below(1_500);
    });

    it('fails retryable with VENDOR_UNAVAILABLE when nothing listens', async () => {
      const url = fake.url;
      await fake.close();
      const result = await new TwilioSmsProvider({ baseUrl: url, credentials: credentials(), from: '+15005550006' }).send(message());
      expect(result).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
      fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
    });

    it('reports healthy with the account balance', async () => {
      const health = await sms().checkHealth();
      expect(health).to.include({ ok: true, balance: 23.84 });
      expect(health.detail).to.equal('Twilio: balance 23.84 USD');
      expect(fake.received[0]).to.include({ method: 'GET', path: `/2010-04-01/Accounts/${ACCOUNT_SID}/Balance.json` });
      expect(fake.received[0]!.headers.authorization).to.equal(basic(ACCOUNT_SID, AUTH_TOKEN));
    });

    it('reports unhealthy, without the token, on bad credentials, and never throws when too slow', async () => {
      const refused = await sms({ credentials: { accountSid: ACCOUNT_SID, authToken: WRONG_TOKEN } }).checkHealth();
      expect(refused).to.include({ ok: false, balance: null });
      expect(refused.detail).to.include('auth failed');
      expect(JSON.stringify(refused)).to.not.include(WRONG_TOKEN);
      fake.script({ kind: 'slow', delayMs: 2_000 });
      expect(await sms({ timeoutMs: 100 }).checkHealth()).to.include({ ok: false });
    });

    describe('status callbacks', () => {
      async function sendAndReport(status: string, options: Parameters<FakeTwilio['sendStatusCallback']>[2] = {}): Promise<{ sid: string; callback: InboundCallback }> {
        const result = await sms().send(message());
        if (!result.accepted) throw new Error(result.errorMessage);
        const answer = await fake.sendStatusCallback(result.providerMessageId, status, options);
        expect(answer.status).to.equal(200);
        return { sid: result.providerMessageId, callback: receiver.callbacks.at(-1)! };
      }

      it('reads a signed "delivered" callback into a DELIVERED report', async () => {
        const { sid, callback } = await sendAndReport('delivered');
        expect(callback.url).to.equal(receiver.url);
        expect(sms().parseCallback(callback)).to.deep.equal([{ providerMessageId: sid, status: 'DELIVERED', errorCode: null, vendorStatus: 'delivered', occurredAt: null }]);
      });

      it('maps sent, undelivered with its error code, failed, and ignores non-final words', async () => {
        expect(sms().parseCallback((await sendAndReport('sent')).callback)[0]).to.include({ status: 'SENT', errorCode: null });
        const unreachable = await sendAndReport('undelivered', { extra: { ErrorCode: '30003', ErrorMessage: 'Unreachable destination handset' } });
        expect(sms().parseCallback(unreachable.callback)[0]).to.include({ status: 'FAILED', errorCode: 'UNREACHABLE', vendorStatus: 'undelivered' });
        const filtered = await sendAndReport('undelivered', { extra: { ErrorCode: '30007' } });
        expect(sms().parseCallback(filtered.callback)[0]).to.include({ status: 'FAILED', errorCode: 'CARRIER_FILTERED' });
        expect(sms().parseCallback((await sendAndReport('failed')).callback)[0]).to.include({ status: 'FAILED', errorCode: 'REJECTED' });
        expect(sms().parseCallback((await sendAndReport('sending')).callback)).to.deep.equal([]);
        expect(sms().parseCallback((await sendAndReport('queued')).callback)).to.deep.equal([]);
      });

      it('rejects a callback whose parameters were changed after signing with INVALID_SIGNATURE', async () => {
        const { callback } = await sendAndReport('undelivered', { tamper: { MessageStatus: 'delivered' } });
        expect(thrown(() => sms().parseCallback(callback))).to.be.instanceOf(AppError).and.include({ code: 'INVALID_SIGNATURE' });
      });

      it('rejects a callback signed with another auth token, for another URL, or without a signature', async () => {
        const otherKey = await sendAndReport('delivered', { signWith: WRONG_TOKEN });
        expect(thrown(() => sms().parseCallback(otherKey.callback))).to.include({ code: 'INVALID_SIGNATURE' });
        const otherUrl = await sendAndReport('delivered', { signedUrl: `${receiver.url}&extra=1` });
        expect(thrown(() => sms().parseCallback(otherUrl.callback))).to.include({ code: 'INVALID_SIGNATURE' });
        const { callback } = await sendAndReport('delivered');
        const unsigned = { ...callback, headers: { ...callback.headers, 'x-twilio-signature': undefined } };
        expect(thrown(() => sms().parseCallback(unsigned))).to.include({ code: 'INVALID_SIGNATURE' });
        expect(thrown(() => sms().parseCallback({ ...callback, url: callback.url.replace('region=gh', 'region=ng') }))).to.include({ code: 'INVALID_SIGNATURE' });
      });

      it('rejects a correctly signed callback without MessageSid or MessageStatus with VALIDATION_ERROR', () => {
        const params = new URLSearchParams({ AccountSid: ACCOUNT_SID, MessageStatus: 'delivered' });
        const url = 'https://hooks.example.com/twilio';
        const callback: InboundCallback = {
          url, headers: { 'x-twilio-signature': signTwilioRequest(AUTH_TOKEN, url, params) }, rawBody: Buffer.from(params.toString()), contentType: 'application/x-www-form-urlencoded',
        };
        expect(thrown(() => sms().parseCallback(callback))).to.include({ code: 'VALIDATION_ERROR' });
      });
    });
  });

  describe('X-Twilio-Signature against the vectors of Twilio\'s own validators', () => {
    // twilio-php / twilio-node RequestValidator tests: auth token '12345'.
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    const form = 'CallSid=CA1234567890ABCDE&Caller=%2B14158675309&Digits=1234&From=%2B14158675309&To=%2B18005551212';
    const callback = (signature: string, overrides: Partial<InboundCallback> = {}): InboundCallback =>
      ({ url, headers: { 'X-Twilio-Signature': signature }, rawBody: Buffer.from(form), contentType: 'application/x-www-form-urlencoded', ...overrides });

    it('accepts the documented signature and returns the parameters', () => {
      expect(Object.fromEntries(verifiedTwilioParams(callback('RSOYDt4T1cUTdK1PDd93/VVr8B8='), '12345'))).to.include({ CallSid: 'CA1234567890ABCDE', To: '+18005551212' });
    });

    it('sorts repeated parameters by name, then value, counting each pair once', () => {
      const rawBody = Buffer.from('Sid=CA123&SidAccount=AC123&Digits=5678&Digits=1234&Digits=1234');
      expect(() => verifiedTwilioParams(callback('IK+Dwps556ElfBT0I3Rgjkr1wJU=', { rawBody }), '12345')).to.not.throw();
    });

    it('accepts a signature made over the URL with its default port', () => {
      expect(() => verifiedTwilioParams(callback('kvajT1Ptam85bY51eRf/AJRuM3w='), '12345')).to.not.throw();
      expect(() => verifiedTwilioParams(callback('0ZXoZLH/DfblKGATFgpif+LLRf4=', { url: url.replace('https', 'http') }), '12345')).to.not.throw();
    });

    it('checks a JSON body against the bodySHA256 the signed URL carries', () => {
      const json = { url: `${url}&bodySHA256=0a1ff7634d9ab3b95db5c9a2dfe9416e41502b283a80c7cf19632632f96e6620`, rawBody: Buffer.from('{"property": "value", "boolean": true}'), contentType: 'application/json' };
      expect(Object.fromEntries(verifiedTwilioParams(callback('a9nBmqA0ju/hNViExpshrM61xv4=', json), '12345'))).to.deep.equal({ property: 'value' });
      const changedBody = { ...json, rawBody: Buffer.from('{"property": "other", "boolean": true}') };
      expect(thrown(() => verifiedTwilioParams(callback('a9nBmqA0ju/hNViExpshrM61xv4=', changedBody), '12345'))).to.include({ code: 'INVALID_SIGNATURE' });
    });

    it('rejects a wrong token, a changed value and a changed URL', () => {
      expect(thrown(() => verifiedTwilioParams(callback('RSOYDt4T1cUTdK1PDd93/VVr8B8='), '54321'))).to.include({ code: 'INVALID_SIGNATURE' });
      expect(thrown(() => verifiedTwilioParams(callback('RSOYDt4T1cUTdK1PDd93/VVr8B8=', { rawBody: Buffer.from(form.replace('1234', '9999')) }), '12345'))).to.include({ code: 'INVALID_SIGNATURE' });
      expect(thrown(() => verifiedTwilioParams(callback('RSOYDt4T1cUTdK1PDd93/VVr8B8=', { url: url.replace('bar=2', 'bar=3') }), '12345'))).to.include({ code: 'INVALID_SIGNATURE' });
      expect(thrown(() => verifiedTwilioParams(callback('RSOYDt4T1cUTdK1PDd93/VVr8B8=', { url: url.replace('.com', '.com:8443') }), '12345'))).to.include({ code: 'INVALID_SIGNATURE' });
    });
  });

  describe('voice', () => {
    it('places the call with inline TwiML that says the XML-escaped text', async () => {
      const result = await voice({ voice: 'Polly.Joanna', language: 'en-GB', loop: 2 }).send(message({ channel: 'VOICE', body: 'Code 4 8 2 <9> & "1" \'3\'\u0007' }));

      const [request] = fake.received;
      expect(request).to.include({ method: 'POST', path: `/2010-04-01/Accounts/${ACCOUNT_SID}/Calls.json` });
      expect(request!.headers.authorization).to.equal(basic(ACCOUNT_SID, AUTH_TOKEN));
      const params = new URLSearchParams(request!.body);
      expect(params.get('To')).to.equal('+233241234567');
      expect(params.get('From')).to.equal('+15005550006');
      expect(params.get('Twiml')).to.equal(
        '<Response><Say voice="Polly.Joanna" language="en-GB" loop="2">Code 4 8 2 &lt;9&gt; &amp; &quot;1&quot; &apos;3&apos;</Say></Response>',
      );
      expect(params.get('StatusCallback')).to.equal(receiver.url);
      expect(params.getAll('StatusCallbackEvent')).to.deep.equal(['answered', 'completed']);
      expect(result).to.deep.equal({ accepted: true, providerMessageId: fake.created[0]!.sid, delivered: false });
      expect(fake.created[0]!.sid).to.match(/^CA[0-9a-f]{32}$/);
    });

    it('calls from our number, never the tenant sender id, and without voice options says plain <Say>', async () => {
      await voice().send(message({ channel: 'VOICE', senderId: 'NKRA', body: 'Hello' }));
      const params = new URLSearchParams(fake.received[0]!.body);
      expect(params.get('From')).to.equal('+15005550006');
      expect(params.get('Twiml')).to.equal('<Response><Say>Hello</Say></Response>');
      // Twilio reads loop="0" as "until the callee hangs up".
      expect(voice({ loop: 0 }).twiml('Hello')).to.equal('<Response><Say loop="1">Hello</Say></Response>');
    });

    it('maps call errors like message errors: 21211 INVALID_NUMBER, 21215 REGION_NOT_ENABLED, 5xx retryable, timeout', async () => {
      fake.rejectedNumbers.set('+233241234567', { status: 400, code: 21211, message: "The 'To' number is not a valid phone number." });
      expect(await voice().send(message())).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_NUMBER' });
      fake.rejectedNumbers.set('+233241234567', { status: 400, code: 21215, message: 'Geo Permission configuration is not permitting call' });
      expect(await voice().send(message())).to.include({ accepted: false, retryable: false, errorCode: 'REGION_NOT_ENABLED' });
      fake.rejectedNumbers.clear();
      fake.script({ kind: 'error', status: 502 });
      expect(await voice().send(message())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
      fake.script({ kind: 'slow', delayMs: 2_000 });
      expect(await voice({ timeoutMs: 100 }).send(message())).to.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
    });

    it('fails with AUTH_FAILED on a wrong token, without the token, and reports health from the balance', async () => {
      const result = await voice({ credentials: { accountSid: ACCOUNT_SID, authToken: WRONG_TOKEN } }).send(message());
      expect(result).to.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
      expect(JSON.stringify(result)).to.not.include(WRONG_TOKEN);
      expect(await voice().checkHealth()).to.include({ ok: true, balance: 23.84 });
    });

    it('reads signed call status callbacks: completed DELIVERED, no-answer and busy FAILED, ringing nothing', async () => {
      const report = async (status: string, extra: Record<string, string> = {}) => {
        const result = await voice().send(message());
        if (!result.accepted) throw new Error(result.errorMessage);
        expect((await fake.sendStatusCallback(result.providerMessageId, status, { extra })).status).to.equal(200);
        return { sid: result.providerMessageId, reports: voice().parseCallback(receiver.callbacks.at(-1)!) };
      };
      const completed = await report('completed', { CallDuration: '14' });
      expect(completed.reports).to.have.length(1);
      expect(completed.reports[0]).to.include({ providerMessageId: completed.sid, status: 'DELIVERED', errorCode: null, vendorStatus: 'completed' });
      expect(completed.reports[0]!.occurredAt).to.be.instanceOf(Date);
      expect((await report('in-progress')).reports[0]).to.include({ status: 'SENT' });
      expect((await report('no-answer')).reports[0]).to.include({ status: 'FAILED', errorCode: 'NO_ANSWER' });
      expect((await report('busy')).reports[0]).to.include({ status: 'FAILED', errorCode: 'BUSY' });
      expect((await report('ringing')).reports).to.deep.equal([]);
    });

    it('rejects a tampered call status callback with INVALID_SIGNATURE', async () => {
      const result = await voice().send(message());
      if (!result.accepted) throw new Error(result.errorMessage);
      await fake.sendStatusCallback(result.providerMessageId, 'no-answer', { tamper: { CallStatus: 'completed' } });
      expect(thrown(() => voice().parseCallback(receiver.callbacks.at(-1)!))).to.include({ code: 'INVALID_SIGNATURE' });
    });
  });
});
