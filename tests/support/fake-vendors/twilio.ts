import { createHmac, randomBytes } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export type { Outcome, ReceivedRequest } from './ghana-sms-fake-server.ts';

/** A message or call the fake created, with the parameters it was created with. */
export interface TwilioResource {
  sid: string;
  kind: 'message' | 'call';
  to: string;
  from: string;
  statusCallback: string | null;
  params: URLSearchParams;
}

export interface StatusCallbackOptions {
  /** Extra or replacement parameters (ErrorCode, CallDuration ...), signed with the rest. */
  extra?: Record<string, string>;
  /** Where to post; defaults to the StatusCallback the resource was created with. */
  url?: string;
  /** Signs with this key instead of the account's auth token. */
  signWith?: string;
  /** Parameters changed after signing (a tampered request). */
  tamper?: Record<string, string>;
  /** Signs this URL instead of the one posted to. */
  signedUrl?: string;
}

export interface FakeTwilio extends FakeServer {
  accountSid: string;
  authToken: string;
  /** `balance` of `GET /Balance.json`. */
  balance: string;
  /** To numbers answered with a Twilio error (e.g. 21211) instead of being created. */
  rejectedNumbers: Map<string, { status: number; code: number; message: string }>;
  created: TwilioResource[];
  /** POSTs a status callback for a message or call it created, signed with X-Twilio-Signature as Twilio does. */
  sendStatusCallback(sid: string, status: string, options?: StatusCallbackOptions): Promise<Response>;
}

/** Twilio's error body, e.g. `twilioError(400, 21211, "The 'To' number +233 is not a valid phone number.")`. */
export function twilioError(status: number, code: number, message: string): unknown {
  return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status };
}

/** Twilio's request signature, written independently of the adapter: URL + sorted name/value pairs, HMAC-SHA1, base64. */
export function signTwilioRequest(authToken: string, url: string, params: URLSearchParams): string {
  const pairs = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHmac('sha1', authToken).update(url + pairs.map(([name, value]) => name + value).join('')).digest('base64');
}

/**
 * A local Twilio REST API (2010-04-01): `POST Messages.json`, `POST Calls.json`, `GET Balance.json` under
 * `/2010-04-01/Accounts/{AccountSid}`, HTTP Basic, form-encoded requests, JSON resources and errors.
 */
export async function startFakeTwilio(options: { accountSid?: string; authToken?: string } = {}): Promise<FakeTwilio> {
  const accountSid = options.accountSid ?? `AC${'0123456789abcdef'.repeat(2)}`;
  const authToken = options.authToken ?? 'twilio-auth-token-5f2e';
  const base = `/2010-04-01/Accounts/${accountSid}`;
  const state = { balance: '23.84', rejectedNumbers: new Map<string, { status: number; code: number; message: string }>(), created: [] as TwilioResource[] };

  const handle = (request: ReceivedRequest): FakeReply => {
    const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return { status: 401, body: twilioError(401, 20003, 'Authenticate') };
    const route = `${request.method} ${request.path}`;
    if (route === `GET ${base}/Balance.json`) return { status: 200, body: { currency: 'USD', balance: state.balance, account_sid: accountSid } };
    if (route !== `POST ${base}/Messages.json` && route !== `POST ${base}/Calls.json`) {
      return { status: 404, body: twilioError(404, 20404, `The requested resource ${request.path} was not found`) };
    }
    if (request.headers['content-type'] !== 'application/x-www-form-urlencoded') return { status: 400, body: twilioError(400, 21201, 'Unsupported content type') };
    return create(request.path.endsWith('/Calls.json') ? 'call' : 'message', new URLSearchParams(request.body));
  };

  const create = (kind: TwilioResource['kind'], params: URLSearchParams): FakeReply => {
    const to = params.get('To') ?? '';
    const from = params.get('From') ?? '';
    if (!/^\+\d{8,15}$/.test(to)) return { status: 400, body: twilioError(400, 21211, `The 'To' number ${to} is not a valid phone number.`) };
    const rejected = state.rejectedNumbers.get(to);
    if (rejected) return { status: rejected.status, body: twilioError(rejected.status, rejected.code, rejected.message) };
    if (kind === 'message') {
      if (!from && !params.get('MessagingServiceSid')) return { status: 400, body: twilioError(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message.") };
      if (!params.get('Body')) return { status: 400, body: twilioError(400, 21602, 'Message body is required.') };
    } else {
      if (!/^\+\d{8,15}$/.test(from)) return { status: 400, body: twilioError(400, 21212, `The 'From' number ${from} is not a valid phone number.`) };
      if (!params.get('Twiml') && !params.get('Url')) return { status: 400, body: twilioError(400, 21205, 'Url or Twiml parameter is required.') };
    }
    const sid = `${kind === 'call' ? 'CA' : 'SM'}${randomBytes(16).toString('hex')}`;
    state.created.push({ sid, kind, to, from, statusCallback: params.get('StatusCallback'), params });
    const status = kind === 'message' && params.get('MessagingServiceSid') ? 'accepted' : 'queued';
    const common = { sid, account_sid: accountSid, to, from, status, direction: 'outbound-api', api_version: '2010-04-01', date_created: new Date().toUTCString() };
    return kind === 'call'
      ? { status: 201, body: { ...common, uri: `${base}/Calls/${sid}.json` } }
      : { status: 201, body: { ...common, body: params.get('Body'), num_segments: '1', error_code: null, error_message: null, price: null, price_unit: 'USD', uri: `${base}/Messages/${sid}.json` } };
  };

  const errorBody = (status: number): unknown => status === 429 ? twilioError(429, 20429, 'Too Many Requests')
    : status >= 500 ? twilioError(status, 20500, 'Internal Server Error')
      : status === 401 ? twilioError(401, 20003, 'Authenticate') : twilioError(status, 21211, "The 'To' number is not a valid phone number.");

  const server = await startFakeServer({ handle, errorBody });

  const callbackParams = (resource: TwilioResource, status: string): Record<string, string> => resource.kind === 'message'
    ? { MessageSid: resource.sid, SmsSid: resource.sid, AccountSid: accountSid, From: resource.from, To: resource.to, MessageStatus: status, SmsStatus: status, ApiVersion: '2010-04-01' }
    : {
      CallSid: resource.sid, AccountSid: accountSid, From: resource.from, To: resource.to, CallStatus: status, Direction: 'outbound-api', ApiVersion: '2010-04-01',
      Timestamp: new Date().toUTCString(), CallbackSource: 'call-progress-events', SequenceNumber: '0',
    };

  return {
    ...server,
    accountSid,
    authToken,
    get balance() { return state.balance; },
    set balance(value: string) { state.balance = value; },
    rejectedNumbers: state.rejectedNumbers,
    created: state.created,
    sendStatusCallback: async (sid, status, callbackOptions = {}) => {
      const resource = state.created.find((r) => r.sid === sid);
      if (!resource) throw new Error(`fake Twilio has no resource ${sid}`);
      const url = callbackOptions.url ?? resource.statusCallback;
      if (!url) throw new Error(`resource ${sid} was created without a StatusCallback`);
      const params = new URLSearchParams({ ...callbackParams(resource, status), ...callbackOptions.extra });
      const signature = signTwilioRequest(callbackOptions.signWith ?? authToken, callbackOptions.signedUrl ?? url, params);
      for (const [name, value] of Object.entries(callbackOptions.tamper ?? {})) params.set(name, value);
      return fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', 'x-twilio-signature': signature, 'i-twilio-idempotency-token': randomBytes(8).toString('hex') },
        body: params.toString(),
      });
    },
  };
}
