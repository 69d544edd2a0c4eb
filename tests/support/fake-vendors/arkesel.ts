import { randomUUID } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export type { Outcome, ReceivedRequest } from './ghana-sms-fake-server.ts';

export interface FakeArkesel extends FakeServer {
  apiKey: string;
  /** Numbers the fake lists under "invalid numbers" (besides anything that is not 10-15 digits). */
  invalidNumbers: Set<string>;
  balance: { sms: string; main: string };
  /** Messages the fake accepted, with the ids it answered. */
  accepted: Array<{ id: string; recipient: string; callbackUrl: string | null }>;
  /**
   * Reports a status the way Arkesel does: calls the message's `callback_url` with `sms_id` and
   * `status` added to the query (GET), or the same URL with a form body (POST).
   */
  sendCallback(smsId: string, status: string, method?: 'GET' | 'POST'): Promise<Response>;
}

/** A local Arkesel SMS API v2: `POST /api/v2/sms/send`, `GET /api/v2/clients/balance-details`, `api-key` header. */
export async function startFakeArkesel(options: { apiKey?: string } = {}): Promise<FakeArkesel> {
  const apiKey = options.apiKey ?? 'arkesel-test-key';
  const invalidNumbers = new Set<string>();
  const balance = { sms: '1204', main: '52.30' };
  const accepted: FakeArkesel['accepted'] = [];

  const handle = (request: ReceivedRequest): FakeReply => {
    const given = request.headers['api-key'];
    if (request.method === 'POST' && request.path === '/api/v2/sms/send') {
      if (given !== apiKey) return { status: 403, body: { status: 'error', message: `Invalid api-key: ${String(given)}` } };
      return send(request);
    }
    if (request.method === 'GET' && request.path === '/api/v2/clients/balance-details') {
      if (given !== apiKey) return { status: 403, body: { status: 'error', message: `Invalid api-key: ${String(given)}` } };
      return { status: 200, body: { status: 'success', data: { sms_balance: balance.sms, main_balance: balance.main } } };
    }
    return { status: 404, body: { status: 'error', message: 'Not found' } };
  };

  const send = (request: ReceivedRequest): FakeReply => {
    const body = (request.json ?? {}) as Record<string, unknown>;
    const recipients = body['recipients'];
    const errors: Record<string, string[]> = {};
    if (typeof body['sender'] !== 'string' || body['sender'].length > 11) errors['sender'] = ['The sender field is required (max 11 characters).'];
    if (typeof body['message'] !== 'string' || body['message'] === '') errors['message'] = ['The message field is required.'];
    if (!Array.isArray(recipients) || recipients.length === 0) errors['recipients'] = ['The recipients field is required.'];
    if (Object.keys(errors).length > 0) return { status: 422, body: { message: 'The given data was invalid.', errors } };
    const numbers = (recipients as unknown[]).map(String);
    const invalid = numbers.filter((n) => !/^\d{10,15}$/.test(n) || invalidNumbers.has(n));
    const data: unknown[] = numbers.filter((n) => !invalid.includes(n)).map((recipient) => {
      const id = randomUUID();
      accepted.push({ id, recipient, callbackUrl: typeof body['callback_url'] === 'string' ? body['callback_url'] : null });
      return { recipient, id };
    });
    if (invalid.length > 0) data.push({ 'invalid numbers': invalid });
    return { status: 200, body: { status: 'success', data } };
  };

  const server = await startFakeServer({ handle, errorBody: errorBody });
  return {
    ...server, apiKey, invalidNumbers, balance, accepted,
    sendCallback: async (smsId, status, method = 'GET') => {
      const callbackUrl = accepted.find((m) => m.id === smsId)?.callbackUrl;
      if (!callbackUrl) throw new Error(`fake Arkesel: no callback_url for ${smsId}`);
      if (method === 'POST') {
        return fetch(callbackUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ sms_id: smsId, status }).toString() });
      }
      const url = new URL(callbackUrl);
      url.searchParams.set('sms_id', smsId);
      url.searchParams.set('status', status);
      return fetch(url);
    },
  };
}

function errorBody(status: number): unknown {
  const messages: Record<number, string> = {
    402: 'Insufficient balance', 403: 'Invalid API key', 422: 'The given data was invalid.', 429: 'Too many requests', 500: 'Server error', 503: 'Service unavailable',
  };
  return { status: 'error', message: messages[status] ?? `Error ${status}` };
}
