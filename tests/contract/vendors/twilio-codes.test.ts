import { expect } from 'chai';
import RestExceptionModule from 'twilio/lib/base/RestException.js';
import { TwilioSmsProvider } from '../../../adapters/providers/twilio-sms.ts';
import { TWILIO_CODES } from '../../../adapters/providers/twilio-codes.ts';
import type { OutboundMessage, ProviderResult } from '../../../core/ports/channel-provider.ts';
import { startCallbackReceiver, type CallbackReceiver } from '../../support/fake-vendors/ghana-sms-fake-server.ts';
import { startFakeTwilio, type FakeTwilio } from '../../support/fake-vendors/twilio.ts';

/** The twilio npm SDK's own reader of REST error answers (twilio/lib/base/RestException). */
const RestException = ((RestExceptionModule as unknown as { default?: unknown }).default ?? RestExceptionModule) as new (response: { statusCode: number; body: string }) => { code: number; status: number; moreInfo: string };

const ACCOUNT_SID = 'AC5ef8732a3c49700934481addd5ce1659';
const AUTH_TOKEN = 'tw-auth-3b9e71c4d2a8f605';

/**
 * Twilio's documented REST error body (twilio.com/docs/usage/twilios-response#response-formats-exceptions):
 * `{ "code": 20003, "message": "Authenticate", "more_info": "https://www.twilio.com/docs/errors/20003", "status": 401 }`.
 */
function documentedError(status: number, code: number, message: string): { code: number; message: string; more_info: string; status: number } {
  return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status };
}

function message(): OutboundMessage {
  return { messageId: 'msg_1', internalMessageId: 'nkr_1', organizationId: 'org_1', channel: 'SMS', to: '+233241234567', subject: null, body: 'Your code is 482913', senderId: null };
}

function failure(result: ProviderResult): Extract<ProviderResult, { accepted: false }> {
  if (result.accepted) throw new Error('expected a failure');
  return result;
}

describe('Twilio error codes: one table, vendor code first (twilio-codes.ts)', () => {
  let fake: FakeTwilio;
  let receiver: CallbackReceiver;
  const sms = () => new TwilioSmsProvider({ baseUrl: fake.url, credentials: { accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN }, from: '+15005550006', statusCallbackUrl: receiver.url, timeoutMs: 500 });

  beforeEach(async () => {
    fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
    receiver = await startCallbackReceiver('/providers/callbacks/twilio-sms');
  });
  afterEach(async () => { await fake.close(); await receiver.close(); });

  it('reads the documented error body as the twilio SDK does (its RestException sees the same code and status)', () => {
    const body = documentedError(401, 20003, 'Authenticate');
    const sdk = new RestException({ statusCode: 401, body: JSON.stringify(body) });
    expect({ code: sdk.code, status: sdk.status, moreInfo: sdk.moreInfo }).to.deep.equal({ code: 20003, status: 401, moreInfo: 'https://www.twilio.com/docs/errors/20003' });
    expect(TWILIO_CODES[sdk.code]).to.deep.equal({ code: 'AUTH_FAILED', scope: 'ACCOUNT' });
  });

  it('marks HTTP 401 code 20003 (credentials revoked) AUTH_FAILED and account-level: the message fails over', async () => {
    fake.script({ kind: 'error', status: 401, body: documentedError(401, 20003, 'Authenticate') });
    expect(failure(await sms().send(message()))).to.include({ retryable: false, errorCode: 'AUTH_FAILED', accountLevel: true });
  });

  it('marks HTTP 400 code 21606 (From not valid for this account) INVALID_SENDER and account-level', async () => {
    fake.script({ kind: 'error', status: 400, body: documentedError(400, 21606, "The From phone number +15005550006 is not a valid, SMS-capable inbound phone number or short code for your account.") });
    const result = failure(await sms().send(message()));
    expect(result).to.include({ retryable: false, errorCode: 'INVALID_SENDER', accountLevel: true });
    expect(result.errorMessage).to.include('Twilio error 21606');
  });

  it('marks 21408 (region not enabled) and 30002 (account suspended) account-level; 21211, 21610 and 21614 are the recipient\'s', async () => {
    const cases: Array<[number, number, string, boolean]> = [
      [400, 21408, 'REGION_NOT_ENABLED', true], [400, 30002, 'ACCOUNT_SUSPENDED', true],
      [400, 21211, 'INVALID_NUMBER', false], [400, 21610, 'UNSUBSCRIBED', false], [400, 21614, 'INVALID_NUMBER', false],
    ];
    for (const [status, code, errorCode, accountLevel] of cases) {
      fake.script({ kind: 'error', status, body: documentedError(status, code, 'documented') });
      const result = failure(await sms().send(message()));
      expect(result, String(code)).to.include({ retryable: false, errorCode });
      expect(result.accountLevel === true, String(code)).to.equal(accountLevel);
    }
  });

  it('retries code 20429 and queue overflow 30001 whatever HTTP status carries them', async () => {
    fake.script({ kind: 'error', status: 400, body: documentedError(400, 30001, 'Queue overflow') });
    expect(failure(await sms().send(message()))).to.include({ retryable: true, errorCode: 'RATE_LIMITED' });
    fake.script({ kind: 'error', status: 429, body: documentedError(429, 20429, 'Too Many Requests') });
    expect(failure(await sms().send(message()))).to.include({ retryable: true, errorCode: 'RATE_LIMITED' });
  });

  // A message resource created already failed (twilio.com/docs/messaging/api/message-resource: `status`
  // failed, `error_code` 30007 "Message filtered") must read as the same code in a status callback.
  it('maps a create-time `status: failed, error_code: 30007` exactly as ErrorCode 30007 in a status callback', async () => {
    fake.script({ kind: 'error', status: 201, body: {
      sid: 'SM1f0e8ae6ade43cb3c0ce4525424e404f', account_sid: ACCOUNT_SID, to: '+233241234567', from: '+15005550006', body: 'Your code is 482913',
      status: 'failed', error_code: 30007, error_message: 'Message filtered', num_segments: '1', direction: 'outbound-api', price: null, price_unit: 'USD', api_version: '2010-04-01',
    } });
    const created = failure(await sms().send(message()));

    const sent = await sms().send(message());
    if (!sent.accepted) throw new Error(sent.errorMessage);
    expect((await fake.sendStatusCallback(sent.providerMessageId, 'undelivered', { extra: { ErrorCode: '30007' } })).status).to.equal(200);
    const [report] = sms().parseCallback(receiver.callbacks.at(-1)!);

    expect(created).to.include({ retryable: false, errorCode: 'CARRIER_FILTERED' });
    expect(created.accountLevel).to.not.equal(true);
    expect(report).to.include({ status: 'FAILED', errorCode: created.errorCode });
  });

  it('reads an account-level code of a create-time failure (21408) as account-level too', async () => {
    fake.script({ kind: 'error', status: 201, body: { sid: 'SM2f0e8ae6ade43cb3c0ce4525424e404f', status: 'failed', error_code: 21408, error_message: 'Permission to send an SMS has not been enabled for the region' } });
    expect(failure(await sms().send(message()))).to.include({ retryable: false, errorCode: 'REGION_NOT_ENABLED', accountLevel: true });
  });
});
