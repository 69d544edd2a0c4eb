import { expect } from 'chai';
import { TermiiNumberLookup } from '../../../adapters/lookups/termii-number-lookup.ts';
import { TwilioNumberLookup } from '../../../adapters/lookups/twilio-number-lookup.ts';
import { isAppError } from '../../../core/errors.ts';
import { startFakeTermiiLookup, startFakeTwilioLookup } from '../../support/fake-vendors/number-lookups.ts';

async function failure(work: Promise<unknown>): Promise<{ code: string; message: string; retryable: boolean }> {
  try { await work; } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message, retryable: error.retryable };
    throw error;
  }
  throw new Error('expected a failure');
}

describe('number lookups against fake vendors', () => {
  let twilio: Awaited<ReturnType<typeof startFakeTwilioLookup>>;
  let termii: Awaited<ReturnType<typeof startFakeTermiiLookup>>;
  before(async () => { [twilio, termii] = await Promise.all([startFakeTwilioLookup(), startFakeTermiiLookup()]); });
  after(async () => { await Promise.all([twilio.close(), termii.close()]); });

  it('Twilio Lookup v2: asks line_type_intelligence and reads MCC+MNC into the serving network (a ported MTN-prefix number on Telecel)', async () => {
    twilio.networks.set('+233241112233', '62002');
    const lookup = new TwilioNumberLookup({ accountSid: twilio.accountSid, authToken: twilio.authToken }, { baseUrl: twilio.url });
    expect(await lookup.lookup('+233241112233')).to.deep.equal({ network: { country: 'GH', network: 'TELECEL' }, mccMnc: '62002', ported: null });
    const request = twilio.received.at(-1)!;
    expect(decodeURIComponent(request.path)).to.equal('/v2/PhoneNumbers/+233241112233');
    expect(request.query['Fields']).to.equal('line_type_intelligence');
  });

  it('Twilio Lookup: an unknown number is LOOKUP_FAILED, a 503 or a timeout PROVIDER_UNAVAILABLE, and the secret never shows', async () => {
    const lookup = new TwilioNumberLookup({ accountSid: twilio.accountSid, authToken: twilio.authToken }, { baseUrl: twilio.url, timeoutMs: 200 });
    expect(await failure(lookup.lookup('+233200000001'))).to.include({ code: 'LOOKUP_FAILED', retryable: false });
    twilio.script({ kind: 'error', status: 503 });
    expect(await failure(lookup.lookup('+233241112233'))).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
    twilio.script({ kind: 'slow', delayMs: 1_000 });
    const slow = await failure(lookup.lookup('+233241112233'));
    expect(slow).to.include({ code: 'PROVIDER_UNAVAILABLE', retryable: true });
    const wrong = new TwilioNumberLookup({ accountSid: twilio.accountSid, authToken: 'not-the-secret' }, { baseUrl: twilio.url });
    const refused = await failure(wrong.lookup('+233241112233'));
    expect(refused.code).to.equal('LOOKUP_FAILED');
    expect(refused.message).not.to.include('not-the-secret');
  });

  it('Termii Status: sends the number as digits with its country and reads operatorDetail.mobileNumberCode and the ported flag', async () => {
    termii.networks.set('233241112233', '62002');
    const lookup = new TermiiNumberLookup({ apiKey: termii.apiKey }, { baseUrl: termii.url });
    expect(await lookup.lookup('+233241112233', 'GH')).to.deep.equal({ network: { country: 'GH', network: 'TELECEL' }, mccMnc: '62002', ported: true });
    expect(termii.received.at(-1)!.query).to.include({ phone_number: '233241112233', country_code: 'GH' });
    const wrong = new TermiiNumberLookup({ apiKey: 'wrong-key' }, { baseUrl: termii.url });
    const refused = await failure(wrong.lookup('+233241112233', 'GH'));
    expect(refused.code).to.equal('LOOKUP_FAILED');
    expect(refused.message).not.to.include('wrong-key');
  });
});
