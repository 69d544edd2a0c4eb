import { randomUUID } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export interface FakeTermii extends FakeServer {
  apiKey: string;
  /** Registered sender ids; another `from` is refused as Termii does. */
  senders: Set<string>;
  accepted: Array<{ id: string; to: string; from: string; channel: string }>;
}

/**
 * A local Termii: `POST /api/sms/send` (JSON with `api_key`, `to`, `from`, `sms`, `type`, `channel`;
 * answers `{ message_id, message: "Successfully Sent", balance, user }`) and `GET /api/get-balance`.
 * A wrong key answers 401, an unregistered sender or a malformed number 400, with `{ message }`.
 */
export async function startFakeTermii(options: { apiKey?: string; senders?: string[] } = {}): Promise<FakeTermii> {
  const apiKey = options.apiKey ?? 'termii-test-key';
  const senders = new Set(options.senders ?? ['NKRA']);
  const accepted: FakeTermii['accepted'] = [];
  const handle = (request: ReceivedRequest): FakeReply => {
    if (request.method === 'GET' && request.path === '/api/get-balance') {
      if (request.query['api_key'] !== apiKey) return { status: 401, body: { message: 'Invalid API key' } };
      return { status: 200, body: { user: 'Nkra Test', balance: 250.5, currency: 'NGN' } };
    }
    if (request.method === 'POST' && request.path === '/api/sms/send') {
      const body = (request.json ?? {}) as Record<string, unknown>;
      if (body['api_key'] !== apiKey) return { status: 401, body: { message: 'Invalid API key' } };
      if (!senders.has(String(body['from']))) return { status: 400, body: { message: 'ApplicationSenderId not found' } };
      if (!/^\d{10,15}$/.test(String(body['to']))) return { status: 400, body: { message: 'Invalid phone number' } };
      const id = `${Date.now()}${randomUUID().replace(/\D/g, '').slice(0, 6)}`;
      accepted.push({ id, to: String(body['to']), from: String(body['from']), channel: String(body['channel']) });
      return { status: 200, body: { message_id: id, message: 'Successfully Sent', balance: 249.5, user: 'Nkra Test' } };
    }
    return { status: 404, body: { message: 'Not found' } };
  };
  const server = await startFakeServer({ handle, errorBody: (status) => ({ message: `HTTP ${status}` }) });
  return Object.assign(server, { apiKey, senders, accepted });
}
