import { randomUUID } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export type { Outcome, ReceivedRequest } from './ghana-sms-fake-server.ts';

export interface FakeHubtelMessage {
  messageId: string;
  from: string;
  to: string;
  content: string;
  /** How it was submitted: POST with Basic auth, or the GET quick send with credentials in the query. */
  via: 'POST' | 'GET';
  /** What `GET /v1/messages/{id}` reports; flip it with setStatus. */
  status: string;
  updateTime: string;
}

export interface FakeHubtel extends FakeServer {
  /**
   * 'flat' (businessdocs), 'wrapped' (`{ message, responseCode, data }`, the Redocly portal's shape) or
   * 'legacy' (the older API's `201 { Status: 0, MessageId, Rate, NetworkId, ClientReference }`, hubtel/hubtel-sms-php).
   */
  shape: 'flat' | 'wrapped' | 'legacy';
  accepted: FakeHubtelMessage[];
  setStatus(messageId: string, status: string, updateTime?: string): void;
}

/**
 * A local Hubtel SMS API: `POST /v1/messages/send` (Basic auth, JSON, field names case-insensitive),
 * `GET /v1/messages/send?clientid=..&clientsecret=..&from=..&to=..&content=..`, and the status check
 * `GET /v1/messages/{messageId}`. Numbers must be Ghanaian (`233XXXXXXXXX` or `+233...`).
 */
export async function startFakeHubtel(options: { clientId?: string; clientSecret?: string } = {}): Promise<FakeHubtel> {
  const clientId = options.clientId ?? 'hubtel-client';
  const clientSecret = options.clientSecret ?? 'hubtel-secret';
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  const accepted: FakeHubtelMessage[] = [];
  const state = { shape: 'flat' as FakeHubtel['shape'] };

  const handle = (request: ReceivedRequest): FakeReply => {
    if (request.path === '/v1/messages/send' && request.method === 'GET') {
      if (request.query['clientid'] !== clientId || request.query['clientsecret'] !== clientSecret) return unauthorized();
      return send(request.query, 'GET');
    }
    if (request.headers.authorization !== basic) return unauthorized();
    if (request.path === '/v1/messages/send' && request.method === 'POST') {
      const body = Object.fromEntries(Object.entries((request.json ?? {}) as Record<string, unknown>).map(([k, v]) => [k.toLowerCase(), v]));
      return send(body, 'POST');
    }
    const found = /^\/v1\/messages\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && found) {
      const message = accepted.find((m) => m.messageId === decodeURIComponent(found[1]!));
      if (!message) return { status: 404, body: { message: 'Message not found' } };
      return { status: 200, body: {
        rate: 0.0309, batchId: null, messageId: message.messageId, content: message.content, status: message.status,
        updateTime: message.updateTime, time: '2025-08-15T09:30:01.5512345Z', to: message.to, from: message.from,
      } };
    }
    return { status: 404, body: { message: 'Not found' } };
  };

  const send = (fields: Record<string, unknown>, via: 'POST' | 'GET'): FakeReply => {
    const [from, to, content] = [fields['from'], fields['to'], fields['content']];
    if (typeof from !== 'string' || typeof to !== 'string' || typeof content !== 'string') return { status: 400, body: { status: 7, message: 'Parameter missing' } };
    if (!/^\+?233\d{9}$/.test(to)) return { status: 400, body: { status: 1, message: 'Invalid destination number' } };
    if (from.length > 11) return { status: 400, body: { status: 2, message: 'Invalid source address' } };
    const messageId = randomUUID();
    accepted.push({ messageId, from, to, content, via, status: 'Pending', updateTime: '2025-08-15T09:30:01' });
    const data = { rate: 0.0309, messageId, status: 0, networkId: '62001' };
    if (state.shape === 'legacy') return { status: 201, body: { Status: 0, MessageId: messageId, Rate: 0.0309, NetworkId: '62001', ClientReference: null } };
    return state.shape === 'flat'
      ? { status: 200, body: { ...data, clientReference: null, statusDescription: 'request submitted successfully' } }
      : { status: 200, body: { message: 'Success', responseCode: '0000', data } };
  };

  const server = await startFakeServer({ handle, errorBody });
  return {
    ...server,
    accepted,
    get shape() { return state.shape; },
    set shape(value: FakeHubtel['shape']) { state.shape = value; },
    setStatus(messageId: string, status: string, updateTime = '2025-08-15T09:31:12') {
      const message = accepted.find((m) => m.messageId === messageId);
      if (!message) throw new Error(`fake Hubtel: no message ${messageId}`);
      message.status = status;
      message.updateTime = updateTime;
    },
  };
}

function unauthorized(): FakeReply {
  return { status: 401, body: { message: 'Authorization failed' } };
}

function errorBody(status: number): unknown {
  const bodies: Record<number, unknown> = {
    400: { status: 7, message: 'Parameter not allowed' },
    402: { message: 'Insufficient messaging credit' },
    403: { message: 'Recipient has not approved receiving messages' },
    429: { message: 'Too many requests' },
  };
  return bodies[status] ?? (status >= 500 ? { message: 'Server error' } : { message: `Error ${status}` });
}
