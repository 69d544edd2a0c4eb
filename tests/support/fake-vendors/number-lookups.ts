import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export interface FakeLookup extends FakeServer {
  /** E.164 (Twilio) or international digits (Termii) -> the serving network's MCC+MNC. */
  networks: Map<string, string>;
  lookups: number;
}

/**
 * A local Twilio Lookup v2: `GET /v2/PhoneNumbers/{E.164}?Fields=line_type_intelligence` with HTTP
 * Basic. Answers the documented shape (twilio.com/docs/lookup/v2-api/line-type-intelligence):
 * `{ calling_country_code, country_code, phone_number, valid, line_type_intelligence: { carrier_name,
 * mobile_country_code, mobile_network_code, type, error_code } }`; a wrong credential 401 with Twilio's
 * error body `{ code: 20003, message, more_info, status }`; an unknown number 404.
 */
export async function startFakeTwilioLookup(options: { accountSid?: string; authToken?: string } = {}): Promise<FakeLookup & { accountSid: string; authToken: string }> {
  const accountSid = options.accountSid ?? 'ACfake0000000000000000000000000001';
  const authToken = options.authToken ?? 'twilio-lookup-secret';
  const networks = new Map<string, string>();
  const state = { lookups: 0 };
  const handle = (request: ReceivedRequest): FakeReply => {
    const match = /^\/v2\/PhoneNumbers\/([^/]+)$/.exec(request.path);
    if (request.method !== 'GET' || !match) return { status: 404, body: { code: 20404, message: 'Not found', status: 404 } };
    if (request.headers.authorization !== `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`) {
      return { status: 401, body: { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 } };
    }
    const number = decodeURIComponent(match[1]!);
    const code = networks.get(number);
    if (!code) return { status: 404, body: { code: 20404, message: `The requested resource /PhoneNumbers/${number} was not found`, status: 404 } };
    state.lookups++;
    return { status: 200, body: {
      calling_country_code: '233', country_code: 'GH', phone_number: number, national_format: `0${number.slice(4)}`, valid: true, validation_errors: [],
      caller_name: null, sim_swap: null, call_forwarding: null, line_status: null, identity_match: null, reassigned_number: null, sms_pumping_risk: null, phone_number_quality_score: null, pre_fill: null,
      line_type_intelligence: request.query['Fields'] === 'line_type_intelligence'
        ? { carrier_name: code === '62002' ? 'Telecel Ghana' : 'MTN Ghana', error_code: null, mobile_country_code: code.slice(0, 3), mobile_network_code: code.slice(3), type: 'mobile' } : null,
      url: `https://lookups.twilio.com/v2/PhoneNumbers/${number}`,
    } };
  };
  const server = await startFakeServer({ handle, errorBody: (status) => ({ code: 20500, message: `HTTP ${status}`, status }) });
  return Object.defineProperty(Object.assign(server, { networks, accountSid, authToken }), 'lookups', { get: () => state.lookups }) as FakeLookup & { accountSid: string; authToken: string };
}

/**
 * A local Termii Status API: `GET /api/insight/number/query?api_key&phone_number&country_code`, answering
 * the shape of the termii-node SDK's recorded fixture: `{ result: [{ routeDetail: { number, ported },
 * countryDetail, operatorDetail: { operatorName, mobileNumberCode, ... }, status }] }`.
 */
export async function startFakeTermiiLookup(options: { apiKey?: string } = {}): Promise<FakeLookup & { apiKey: string }> {
  const apiKey = options.apiKey ?? 'termii-lookup-key';
  const networks = new Map<string, string>();
  const state = { lookups: 0 };
  const handle = (request: ReceivedRequest): FakeReply => {
    if (request.method !== 'GET' || request.path !== '/api/insight/number/query') return { status: 404, body: { message: 'Not found' } };
    if (request.query['api_key'] !== apiKey) return { status: 401, body: { message: 'Invalid API key' } };
    const digits = request.query['phone_number'] ?? '';
    const code = networks.get(digits);
    if (!code) return { status: 400, body: { message: 'Number not found' } };
    state.lookups++;
    return { status: 200, body: { result: [{
      routeDetail: { number: digits, ported: code === '62002' && digits.startsWith('23324') ? 1 : 0 },
      countryDetail: { countryCode: digits.slice(0, 3), mobileCountryCode: code.slice(0, 3), iso: request.query['country_code'] ?? 'GH' },
      operatorDetail: { operatorCode: 'X', operatorName: code === '62002' ? 'Telecel Ghana' : 'MTN Ghana', mobileNumberCode: code, mobileRoutingCode: '0001', carrierIdentificationCode: '001', lineType: 'Mobile' },
      status: 1,
    }] } };
  };
  const server = await startFakeServer({ handle, errorBody: (status) => ({ message: `HTTP ${status}` }) });
  return Object.defineProperty(Object.assign(server, { networks, apiKey }), 'lookups', { get: () => state.lookups }) as FakeLookup & { apiKey: string };
}
