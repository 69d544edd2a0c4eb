import { randomBytes } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export type { Outcome, ReceivedRequest } from './ghana-sms-fake-server.ts';

/** What a number gets from the fake instead of "accepted": an SMS `statusCode` + word, or a call `status`. */
export interface RecipientAnswer { statusCode: number; status: string }

export interface FakeAfricasTalking extends FakeServer {
  username: string;
  apiKey: string;
  /** `UserData.balance` of `GET /version1/user`. */
  balance: string;
  /** SMS recipients answered with a failure statusCode (e.g. 403 InvalidPhoneNumber) instead of 101 Success. */
  smsRecipients: Map<string, RecipientAnswer>;
  /** Call destinations answered with a status word (e.g. InvalidPhoneNumber) instead of Queued. */
  callDestinations: Map<string, string>;
  /** Messages and calls the fake accepted, with the ids it answered. */
  messages: Array<{ messageId: string; number: string; from: string | null; text: string }>;
  calls: Array<{ sessionId: string; to: string; from: string }>;
  /** POSTs a delivery report (form) for a message it accepted, as AT does. */
  sendDeliveryReport(url: string, messageId: string, status: string, failureReason?: string): Promise<Response>;
  /** POSTs a voice callback for a call (`isActive` ...), as AT does when a call is answered or ends. */
  sendVoiceCallback(url: string, sessionId: string, fields: Record<string, string>): Promise<Response>;
}

const PLAIN = { 'content-type': 'text/plain' };

/**
 * A local Africa's Talking: `POST /version1/messaging` (SMS), `POST /call` (voice) and
 * `GET /version1/user` (application data), `apiKey` header, `username` in the form or the query,
 * JSON only with `Accept: application/json` (XML otherwise, like AT). The shared fake-server helper
 * JSON-encodes every body, so AT's plain-text answers (401 ...) arrive as a quoted string.
 */
export async function startFakeAfricasTalking(options: { username?: string; apiKey?: string } = {}): Promise<FakeAfricasTalking> {
  const username = options.username ?? 'nkra-app';
  const apiKey = options.apiKey ?? 'atsk_test_key';
  const state = {
    balance: 'GHS 1,204.5000',
    smsRecipients: new Map<string, RecipientAnswer>(),
    callDestinations: new Map<string, string>(),
    messages: [] as FakeAfricasTalking['messages'],
    calls: [] as FakeAfricasTalking['calls'],
  };

  const handle = (request: ReceivedRequest): FakeReply => {
    const form = new URLSearchParams(request.body);
    const route = `${request.method} ${request.path}`;
    if (!['POST /version1/messaging', 'POST /call', 'GET /version1/user'].includes(route)) return { status: 404, body: 'Not Found', headers: PLAIN };
    const user = request.method === 'GET' ? request.query['username'] : form.get('username');
    if (request.headers['apikey'] !== apiKey || user !== username) return { status: 401, body: 'The supplied authentication is invalid', headers: PLAIN };
    if (!String(request.headers['accept']).includes('application/json')) {
      return { status: 200, body: '<?xml version="1.0" encoding="UTF-8"?><AfricasTalkingResponse/>', headers: { 'content-type': 'application/xml' } };
    }
    if (route === 'GET /version1/user') return { status: 200, body: { UserData: { balance: state.balance } } };
    if (request.headers['content-type'] !== 'application/x-www-form-urlencoded') return { status: 415, body: 'Unsupported content type', headers: PLAIN };
    return route === 'POST /call' ? call(form) : sendSms(form);
  };

  const sendSms = (form: URLSearchParams): FakeReply => {
    const to = form.get('to');
    const text = form.get('message');
    if (!to) return { status: 400, body: "Request is missing required form field 'to'", headers: PLAIN };
    if (!text) return { status: 400, body: "Request is missing required form field 'message'", headers: PLAIN };
    const from = form.get('from');
    if (from !== null && (from === '' || from.length > 11)) return { status: 201, body: { SMSMessageData: { Message: 'InvalidSenderId', Recipients: [] } } };
    const recipients = to.split(',').map((number) => {
      const scripted = state.smsRecipients.get(number) ?? (/^\+\d{10,14}$/.test(number) ? null : { statusCode: 403, status: 'InvalidPhoneNumber' });
      if (scripted) return { statusCode: scripted.statusCode, number, cost: '0', status: scripted.status, messageId: 'None' };
      const messageId = `ATXid_${randomBytes(16).toString('hex')}`;
      state.messages.push({ messageId, number, from, text });
      return { statusCode: 101, number, cost: 'GHS 0.0300', status: 'Success', messageId };
    });
    const sent = recipients.filter((r) => r.statusCode === 101).length;
    return { status: 201, body: { SMSMessageData: { Message: `Sent to ${sent}/${recipients.length} Total Cost: GHS ${(0.03 * sent).toFixed(4)}`, Recipients: recipients } } };
  };

  const call = (form: URLSearchParams): FakeReply => {
    const from = form.get('from') ?? '';
    const to = form.get('to');
    if (!/^\+\d{10,14}$/.test(from)) return { status: 200, body: { entries: [], errorMessage: `Invalid callerId: ${from}` } };
    if (!to) return { status: 200, body: { entries: [], errorMessage: 'Missing destination phone number(s)' } };
    const entries = to.split(',').map((phoneNumber) => {
      const scripted = state.callDestinations.get(phoneNumber) ?? (/^\+\d{10,14}$/.test(phoneNumber) ? null : 'InvalidPhoneNumber');
      if (scripted) return { phoneNumber, status: scripted, sessionId: 'None' };
      const sessionId = `ATVId_${randomBytes(16).toString('hex')}`;
      state.calls.push({ sessionId, to: phoneNumber, from });
      return { phoneNumber, status: 'Queued', sessionId };
    });
    return { status: 200, body: { entries, errorMessage: 'None' } };
  };

  const errorBody = (status: number): unknown => status === 401 ? 'The supplied authentication is invalid' : status >= 500 ? 'Internal Server Error' : 'Bad Request';
  const server = await startFakeServer({ handle, errorBody });

  const postForm = (url: string, fields: Record<string, string>) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

  return {
    ...server,
    username,
    apiKey,
    get balance() { return state.balance; },
    set balance(value: string) { state.balance = value; },
    smsRecipients: state.smsRecipients,
    callDestinations: state.callDestinations,
    messages: state.messages,
    calls: state.calls,
    sendDeliveryReport: (url, messageId, status, failureReason) => {
      const message = state.messages.find((m) => m.messageId === messageId);
      const fields: Record<string, string> = { id: messageId, status, phoneNumber: message?.number ?? '+233241234567', networkCode: '62001', retryCount: '0' };
      if (failureReason) fields['failureReason'] = failureReason;
      return postForm(url, fields);
    },
    sendVoiceCallback: (url, sessionId, fields) => {
      const placed = state.calls.find((c) => c.sessionId === sessionId);
      return postForm(url, {
        sessionId, direction: 'Outbound', callerNumber: placed?.from ?? '', destinationNumber: placed?.to ?? '', isActive: '1', ...fields,
      });
    },
  };
}
