import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { AfricasTalkingSmsProvider, type AfricasTalkingSmsOptions } from '../../../adapters/providers/africas-talking-sms.ts';
import { AfricasTalkingVoiceProvider, type AfricasTalkingVoiceOptions } from '../../../adapters/providers/africas-talking-voice.ts';
import { AppError } from '../../../core/errors.ts';
import type { OutboundMessage } from '../../../core/ports/channel-provider.ts';
import type { DeliveryReport, InboundCallback } from '../../../core/ports/vendor-adapter.ts';
import { startFakeAfricasTalking, type FakeAfricasTalking } from '../../support/fake-vendors/africas-talking.ts';
import { startCallbackReceiver, type CallbackReceiver } from '../../support/fake-vendors/ghana-sms-fake-server.ts';

const USERNAME = 'nkra-gh';
const API_KEY = 'atsk_5c1d7e9f03b2a4668e';
const WRONG_KEY = 'atsk_wrong_0f9e8d7c';
const CALLBACK_TOKEN = 'dlr-secret-71c2';

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return { messageId: 'msg_1', internalMessageId: 'nkr_1', organizationId: 'org_1', channel: 'SMS', to: '+233241234567', subject: null, body: 'Your code is 482913', senderId: null, ...overrides };
}

function thrown(run: () => unknown): unknown {
  try { run(); } catch (error) { return error; }
  throw new Error('expected an error');
}

describe("Africa's Talking adapters against a fake Africa's Talking", () => {
  let fake: FakeAfricasTalking;
  let receiver: CallbackReceiver;
  const credentials = (apiKey = API_KEY) => ({ username: USERNAME, apiKey });
  const sms = (options: Partial<AfricasTalkingSmsOptions> = {}) =>
    new AfricasTalkingSmsProvider({ baseUrl: fake.url, credentials: credentials(), senderId: 'NKRA', timeoutMs: 300, ...options });
  const voice = (options: Partial<AfricasTalkingVoiceOptions> = {}) =>
    new AfricasTalkingVoiceProvider({ baseUrl: fake.url, apiBaseUrl: fake.url, credentials: credentials(), from: '+233302000100', timeoutMs: 300, ...options });

  beforeEach(async () => {
    fake = await startFakeAfricasTalking({ username: USERNAME, apiKey: API_KEY });
    receiver = await startCallbackReceiver(`/providers/callbacks/africas-talking-sms?token=${CALLBACK_TOKEN}`);
  });
  afterEach(async () => { await fake.close(); await receiver.close(); });

  describe('SMS', () => {
    it('submits the message as AT expects (form, apiKey header, username in the body, E.164 with +) and returns its id', async () => {
      const result = await sms().send(message());

      expect(fake.received).to.have.length(1);
      const [request] = fake.received;
      expect(request).to.include({ method: 'POST', path: '/version1/messaging' });
      expect(request!.headers).to.include({ apikey: API_KEY, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' });
      expect(Object.fromEntries(new URLSearchParams(request!.body))).to.deep.equal({
        username: USERNAME, to: '+233241234567', message: 'Your code is 482913', bulkSMSMode: '1', from: 'NKRA',
      });
      expect(result).to.deep.equal({ accepted: true, providerMessageId: fake.messages[0]!.messageId, delivered: false });
      expect(fake.messages[0]!.messageId).to.match(/^ATXid_/);
    });

    it("uses the message's own sender id, adds the + AT needs, and leaves from out without any sender", async () => {
      await sms().send(message({ senderId: 'ShopGH', to: '233241234567' }));
      expect(new URLSearchParams(fake.received[0]!.body).get('from')).to.equal('ShopGH');
      expect(new URLSearchParams(fake.received[0]!.body).get('to')).to.equal('+233241234567');
      await new AfricasTalkingSmsProvider({ baseUrl: fake.url, credentials: credentials() }).send(message());
      expect(new URLSearchParams(fake.received[1]!.body).has('from')).to.equal(false);
    });

    it('fails with INVALID_NUMBER, not retryable, on recipient status 403 InvalidPhoneNumber', async () => {
      fake.smsRecipients.set('+233241234567', { statusCode: 403, status: 'InvalidPhoneNumber' });
      const result = await sms().send(message());
      expect(result).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_NUMBER' });
      expect(result).to.have.property('errorMessage').that.includes('403 InvalidPhoneNumber');
    });

    it('maps the other recipient codes: 405 VENDOR_BALANCE, 406 UNSUBSCRIBED, 407 NOT_ROUTABLE, 500-502 retryable', async () => {
      const cases: Array<[number, string, boolean, string]> = [
        [405, 'InsufficientBalance', false, 'VENDOR_BALANCE'], [406, 'UserInBlacklist', false, 'UNSUBSCRIBED'], [407, 'CouldNotRoute', false, 'NOT_ROUTABLE'],
        [401, 'RiskHold', false, 'ACCOUNT_RESTRICTED'], [500, 'InternalServerError', true, 'VENDOR_UNAVAILABLE'], [502, 'RejectedByGateway', true, 'VENDOR_UNAVAILABLE'],
      ];
      for (const [statusCode, status, retryable, errorCode] of cases) {
        fake.smsRecipients.set('+233241234567', { statusCode, status });
        expect(await sms().send(message()), status).to.include({ accepted: false, retryable, errorCode });
      }
    });

    // AT "Sending messages" status codes (developers.africastalking.com/docs/sms/sending/bulk): our account's
    // (401 RiskHold, 402 InvalidSenderId, 405 InsufficientBalance) fail over; the recipient's end the message.
    it('classifies recipient statusCodes by whose they are: 401, 402, 405 account-level (fail over), 403, 404, 406, 409 the recipient\'s', async () => {
      const cases: Array<[number, string, boolean]> = [
        [401, 'RiskHold', true], [402, 'InvalidSenderId', true], [405, 'InsufficientBalance', true],
        [403, 'InvalidPhoneNumber', false], [404, 'UnsupportedNumberType', false], [406, 'UserInBlacklist', false], [409, 'DoNotDisturbRejection', false],
      ];
      for (const [statusCode, status, accountLevel] of cases) {
        fake.smsRecipients.set('+233241234567', { statusCode, status });
        const result = await sms().send(message());
        expect(result, status).to.include({ accepted: false, retryable: false });
        expect(result.accepted === false && result.accountLevel === true, status).to.equal(accountLevel);
      }
    });

    it('fails with INVALID_SENDER when AT refuses the whole request with 201 and no recipients', async () => {
      const result = await sms({ senderId: 'ThisIsTooLongASender' }).send(message());
      expect(result).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_SENDER' });
      expect(result).to.have.property('errorMessage').that.includes('InvalidSenderId');
    });

    it('fails with AUTH_FAILED on a wrong key (401 text/plain) and keeps the key out of the result', async () => {
      const result = await sms({ credentials: credentials(WRONG_KEY) }).send(message());
      expect(result).to.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
      expect(JSON.stringify(result)).to.not.include(WRONG_KEY);
    });

    it('fails retryable with RATE_LIMITED on 429 with Retry-After, and VENDOR_UNAVAILABLE on 5xx', async () => {
      fake.script({ kind: 'rate-limited', retryAfterSeconds: 20 });
      const limited = await sms().send(message());
      expect(limited).to.include({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED' });
      expect(limited).to.have.property('errorMessage').that.includes('retry after 20 s');
      fake.script({ kind: 'error', status: 503 });
      expect(await sms().send(message())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
    });

    it('fails not retryable with VENDOR_REJECTED on another 4xx', async () => {
      fake.script({ kind: 'error', status: 400 });
      expect(await sms().send(message())).to.include({ accepted: false, retryable: false, errorCode: 'VENDOR_REJECTED' });
    });

    it('gives up after the timeout with a retryable TIMEOUT, and is retryable when nothing listens', async () => {
      fake.script({ kind: 'slow', delayMs: 2_000 });
      const started = Date.now();
      expect(await sms({ timeoutMs: 150 }).send(message())).to.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
      expect(Date.now() - started).to.be.below(1_500);
      const url = fake.url;
      await fake.close();
      expect(await new AfricasTalkingSmsProvider({ baseUrl: url, credentials: credentials() }).send(message())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
      fake = await startFakeAfricasTalking({ username: USERNAME, apiKey: API_KEY });
    });

    it('reports healthy with the balance of the application data call', async () => {
      const health = await sms().checkHealth();
      expect(health).to.include({ ok: true, balance: 1204.5 });
      expect(health.detail).to.equal("Africa's Talking: balance GHS 1,204.5000");
      expect(fake.received[0]).to.include({ method: 'GET', path: '/version1/user' });
      expect(fake.received[0]!.query).to.deep.equal({ username: USERNAME });
      expect(fake.received[0]!.headers['apikey']).to.equal(API_KEY);
    });

    it('reports unhealthy, without the key, on a wrong key, and never throws when too slow', async () => {
      const refused = await sms({ credentials: credentials(WRONG_KEY) }).checkHealth();
      expect(refused).to.include({ ok: false, balance: null });
      expect(refused.detail).to.include('auth failed');
      expect(JSON.stringify(refused)).to.not.include(WRONG_KEY);
      fake.script({ kind: 'slow', delayMs: 2_000 });
      expect(await sms({ timeoutMs: 100 }).checkHealth()).to.include({ ok: false });
    });

    describe('delivery reports', () => {
      async function sendAndReport(status: string, failureReason?: string): Promise<{ id: string; callback: InboundCallback }> {
        const result = await sms().send(message());
        if (!result.accepted) throw new Error(result.errorMessage);
        expect((await fake.sendDeliveryReport(receiver.url, result.providerMessageId, status, failureReason)).status).to.equal(200);
        return { id: result.providerMessageId, callback: receiver.callbacks.at(-1)! };
      }
      const withToken = () => sms({ callbackToken: CALLBACK_TOKEN });

      it('reads a Success report into DELIVERED', async () => {
        const { id, callback } = await sendAndReport('Success');
        expect(withToken().parseCallback(callback)).to.deep.equal([{ providerMessageId: id, status: 'DELIVERED', errorCode: null, vendorStatus: 'Success', occurredAt: null, networkCode: '62001' }]);
      });

      it('maps Sent, Buffered, Rejected and Failed with their failure reasons', async () => {
        const expectations: Array<[string, string | undefined, Partial<DeliveryReport>]> = [
          ['Sent', undefined, { status: 'SENT', errorCode: null }],
          ['Buffered', undefined, { status: 'SENT', errorCode: null }],
          ['Rejected', 'UserInBlackList', { status: 'FAILED', errorCode: 'UNSUBSCRIBED' }],
          ['Failed', 'AbsentSubscriber', { status: 'FAILED', errorCode: 'UNREACHABLE' }],
          ['Failed', 'DeliveryFailure', { status: 'FAILED', errorCode: 'UNDELIVERED' }],
          ['Rejected', undefined, { status: 'FAILED', errorCode: 'REJECTED' }],
        ];
        for (const [status, reason, expected] of expectations) {
          const { callback } = await sendAndReport(status, reason);
          expect(withToken().parseCallback(callback)[0], `${status} ${reason}`).to.include({ ...expected, vendorStatus: status });
        }
      });

      // AT's delivery-report docs (developers.africastalking.com/docs/sms/notifications) list the failureReason
      // values with AT's own spelling: "NotNetworkSubcriber" (sic). Documented payload:
      // id=ATXid_...&status=Failed&phoneNumber=+233241234567&networkCode=62001&failureReason=NotNetworkSubcriber&retryCount=0
      it('reads AT\'s own spelling NotNetworkSubcriber (and the corrected one) as INVALID_NUMBER, not a bare UNDELIVERED', async () => {
        for (const reason of ['NotNetworkSubcriber', 'NotNetworkSubscriber', 'UserDoesNotExist']) {
          const { callback } = await sendAndReport('Failed', reason);
          expect(withToken().parseCallback(callback)[0], reason).to.include({ status: 'FAILED', errorCode: 'INVALID_NUMBER', vendorStatus: 'Failed' });
        }
        const documented: InboundCallback = {
          url: receiver.url, headers: {}, contentType: 'application/x-www-form-urlencoded',
          rawBody: Buffer.from('id=ATXid_dd6ecf4c13b6e4a8ccbfdc1c7af9c1b5&status=Failed&phoneNumber=%2B233241234567&networkCode=62001&failureReason=NotNetworkSubcriber&retryCount=0'),
        };
        expect(withToken().parseCallback(documented)).to.deep.equal([{ providerMessageId: 'ATXid_dd6ecf4c13b6e4a8ccbfdc1c7af9c1b5', status: 'FAILED', errorCode: 'INVALID_NUMBER', vendorStatus: 'Failed', occurredAt: null, networkCode: '62001' }]);
      });

      it('ignores a status word it does not know', async () => {
        const { callback } = await sendAndReport('SomethingNew');
        expect(withToken().parseCallback(callback)).to.deep.equal([]);
      });

      it('rejects a report without our callback token with INVALID_SIGNATURE when a token is configured', async () => {
        const { callback } = await sendAndReport('Success');
        const url = new URL(callback.url);
        url.searchParams.set('token', 'guessed');
        expect(thrown(() => withToken().parseCallback({ ...callback, url: url.toString() }))).to.be.instanceOf(AppError).and.include({ code: 'INVALID_SIGNATURE' });
        url.searchParams.delete('token');
        expect(thrown(() => withToken().parseCallback({ ...callback, url: url.toString() }))).to.include({ code: 'INVALID_SIGNATURE' });
        expect(sms().parseCallback({ ...callback, url: url.toString() })[0]).to.include({ status: 'DELIVERED' });
      });

      it('rejects a report without id or status with VALIDATION_ERROR', () => {
        const callback: InboundCallback = { url: receiver.url, headers: {}, rawBody: Buffer.from('status=Success'), contentType: 'application/x-www-form-urlencoded' };
        expect(thrown(() => withToken().parseCallback(callback))).to.include({ code: 'VALIDATION_ERROR' });
      });
    });
  });

  describe('voice', () => {
    it('places the call as AT expects and returns its session id', async () => {
      const result = await voice().send(message({ channel: 'VOICE', to: '233241234567' }));

      const [request] = fake.received;
      expect(request).to.include({ method: 'POST', path: '/call' });
      expect(request!.headers).to.include({ apikey: API_KEY, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' });
      expect(Object.fromEntries(new URLSearchParams(request!.body))).to.deep.equal({ username: USERNAME, from: '+233302000100', to: '+233241234567' });
      expect(result).to.deep.equal({ accepted: true, providerMessageId: fake.calls[0]!.sessionId, delivered: false });
    });

    it('maps refused destinations, a bad caller id, auth, 5xx and timeouts', async () => {
      fake.callDestinations.set('+233241234567', 'InvalidPhoneNumber');
      expect(await voice().send(message())).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_NUMBER' });
      fake.callDestinations.set('+233241234567', 'InsufficientCredit');
      expect(await voice().send(message())).to.include({ accepted: false, retryable: false, errorCode: 'VENDOR_BALANCE' });
      fake.callDestinations.clear();
      const badCaller = await voice({ from: '0302000100x' }).send(message());
      expect(badCaller).to.include({ accepted: false, retryable: false, errorCode: 'INVALID_SENDER' });
      expect(badCaller).to.have.property('errorMessage').that.includes('Invalid callerId');
      const refused = await voice({ credentials: credentials(WRONG_KEY) }).send(message());
      expect(refused).to.include({ accepted: false, retryable: false, errorCode: 'AUTH_FAILED' });
      expect(JSON.stringify(refused)).to.not.include(WRONG_KEY);
      fake.script({ kind: 'error', status: 500 });
      expect(await voice().send(message())).to.include({ accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE' });
      fake.script({ kind: 'slow', delayMs: 2_000 });
      expect(await voice({ timeoutMs: 100 }).send(message())).to.include({ accepted: false, retryable: true, errorCode: 'TIMEOUT' });
    });

    it('checks health with the application data call on the account host', async () => {
      expect(await voice().checkHealth()).to.include({ ok: true, balance: 1204.5 });
      expect(await voice({ credentials: credentials(WRONG_KEY) }).checkHealth()).to.include({ ok: false });
    });

    it('speaks the XML-escaped text when AT asks what to play, then reports the answered call DELIVERED', async () => {
      const adapter = voice({ callbackToken: CALLBACK_TOKEN, voice: 'man' });
      const result = await adapter.send(message({ body: 'Code <1 2 3> & "go"' }));
      if (!result.accepted) throw new Error(result.errorMessage);
      const reports: DeliveryReport[] = [];
      // Our voice callback endpoint, as the host will implement it with the adapter.
      const endpoint = await startVoiceEndpoint((callback) => {
        reports.push(...adapter.parseCallback(callback));
        const sessionId = adapter.activeSessionId(callback);
        return sessionId === result.providerMessageId ? adapter.sayXml('Code <1 2 3> & "go"') : '';
      });
      try {
        const answered = await fake.sendVoiceCallback(endpoint.url, result.providerMessageId, { isActive: '1' });
        expect(await answered.text()).to.equal(
          '<?xml version="1.0" encoding="UTF-8"?><Response><Say voice="man" playBeep="false">Code &lt;1 2 3&gt; &amp; &quot;go&quot;</Say></Response>',
        );
        await fake.sendVoiceCallback(endpoint.url, result.providerMessageId, { isActive: '0', durationInSeconds: '9', currencyCode: 'GHS', amount: '0.12', hangupCause: 'NORMAL_CLEARING' });
      } finally {
        await endpoint.close();
      }
      expect(reports.map((r) => [r.providerMessageId, r.status, r.errorCode])).to.deep.equal([
        [result.providerMessageId, 'SENT', null], [result.providerMessageId, 'DELIVERED', null],
      ]);
    });

    it('reports an unanswered call FAILED with its hang-up cause, and refuses a callback without the token', async () => {
      const adapter = voice({ callbackToken: CALLBACK_TOKEN });
      const result = await adapter.send(message());
      if (!result.accepted) throw new Error(result.errorMessage);
      await fake.sendVoiceCallback(receiver.url, result.providerMessageId, { isActive: '0', durationInSeconds: '0', hangupCause: 'NO_ANSWER' });
      await fake.sendVoiceCallback(receiver.url, result.providerMessageId, { isActive: '0', durationInSeconds: '0', hangupCause: 'USER_BUSY' });
      const [noAnswer, busy] = receiver.callbacks;
      expect(adapter.parseCallback(noAnswer!)).to.deep.equal([{ providerMessageId: result.providerMessageId, status: 'FAILED', errorCode: 'NO_ANSWER', vendorStatus: 'NO_ANSWER', occurredAt: null }]);
      expect(adapter.parseCallback(busy!)[0]).to.include({ status: 'FAILED', errorCode: 'BUSY' });
      const untokened = { ...noAnswer!, url: noAnswer!.url.replace(`token=${CALLBACK_TOKEN}`, 'token=nope') };
      expect(thrown(() => adapter.parseCallback(untokened))).to.include({ code: 'INVALID_SIGNATURE' });
      expect(thrown(() => adapter.activeSessionId(untokened))).to.include({ code: 'INVALID_SIGNATURE' });
    });
  });
});

/** A stand-in for the host's AT voice callback endpoint: answers each callback with `respond`'s XML. */
async function startVoiceEndpoint(respond: (callback: InboundCallback) => string): Promise<{ url: string; close(): Promise<void> }> {
  let base = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
      const xml = respond({ url: `${base}${req.url ?? '/'}`, headers, rawBody: Buffer.concat(chunks), contentType: req.headers['content-type'] ?? '' });
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(xml);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/providers/callbacks/africas-talking-voice?token=${CALLBACK_TOKEN}`,
    close: async () => { server.closeAllConnections(); await new Promise<void>((resolve) => server.close(() => resolve())); },
  };
}
