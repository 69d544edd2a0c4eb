import { randomUUID } from 'node:crypto';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from './ghana-sms-fake-server.ts';

export type { Outcome, ReceivedRequest } from './ghana-sms-fake-server.ts';

/**
 * A local Expo push service built from Expo's documented API: `POST /--/api/v2/push/send` with a JSON
 * array of messages (at most 100) answered `{ data: [ticket] }`, each ticket `{ status: 'ok', id }` or
 * `{ status: 'error', message, details: { error } }`; `POST /--/api/v2/push/getReceipts` with `{ ids }`
 * answered `{ data: { [id]: receipt } }` (unknown ids left out); request-level errors as
 * `{ errors: [{ code, message }] }`. With `accessToken` set (enhanced push security), requests without
 * that bearer are refused with 401.
 */
export interface FakeExpo extends FakeServer {
  /** Tokens whose tickets say DeviceNotRegistered. */
  deadTokens: Set<string>;
  /** Tokens whose tickets say MessageRateExceeded. */
  throttledTokens: Set<string>;
  /** When true, every ticket says InvalidCredentials (the app's FCM/APNs credentials held by Expo are bad). */
  badAppCredentials: { value: boolean };
  /** Receipts by ticket id, as getReceipts answers them (the test writes them with the SDK's ExpoPushReceipt type); others are "not ready". */
  receipts: Map<string, unknown>;
  /** The ids of each getReceipts request, in order. */
  receiptRequests: string[][];
  /** Tickets issued, by token, newest last. */
  tickets: Array<{ to: string; id: string }>;
}

const EXPO_TOKEN = /^Expo(?:nent)?PushToken\[[A-Za-z0-9_-]+\]$/;

export async function startFakeExpo(options: { accessToken?: string } = {}): Promise<FakeExpo> {
  const deadTokens = new Set<string>();
  const throttledTokens = new Set<string>();
  const badAppCredentials = { value: false };
  const receipts = new Map<string, unknown>();
  const receiptRequests: string[][] = [];
  const issued: Array<{ to: string; id: string }> = [];

  const handle = (request: ReceivedRequest): FakeReply => {
    if (request.method !== 'POST') return requestError(405, 'METHOD_NOT_ALLOWED', 'Use POST');
    if (options.accessToken && request.headers.authorization !== `Bearer ${options.accessToken}`) {
      return requestError(401, 'UNAUTHORIZED', 'The bearer token is invalid; it may have been revoked or the project requires one.');
    }
    if (!String(request.headers['content-type']).startsWith('application/json')) return requestError(400, 'VALIDATION_ERROR', 'JSON body expected');
    if (request.path === '/--/api/v2/push/send') return send(request.json);
    if (request.path === '/--/api/v2/push/getReceipts') {
      const ids = (request.json as { ids?: unknown } | null)?.ids;
      if (!Array.isArray(ids)) return requestError(400, 'VALIDATION_ERROR', '"ids" must be an array');
      // Expo's documented limit per getReceipts request.
      if (ids.length > 1_000) return requestError(400, 'PUSH_TOO_MANY_RECEIPTS', 'At most 1000 receipt ids per request');
      receiptRequests.push(ids.map(String));
      return { status: 200, body: { data: Object.fromEntries(ids.flatMap((id) => (receipts.has(String(id)) ? [[String(id), receipts.get(String(id))]] : []))) } };
    }
    return requestError(404, 'NOT_FOUND', 'Not found');
  };

  const send = (json: unknown): FakeReply => {
    const messages = Array.isArray(json) ? json : json && typeof json === 'object' ? [json] : null;
    if (!messages) return requestError(400, 'VALIDATION_ERROR', 'Body must be a message or an array of messages');
    if (messages.length > 100) return requestError(400, 'PUSH_TOO_MANY_NOTIFICATIONS', 'At most 100 notifications per request');
    const tickets = messages.map((raw) => {
      const message = raw as { to?: unknown; body?: unknown; data?: unknown };
      const to = String(message.to);
      if (typeof message.to !== 'string' || !EXPO_TOKEN.test(to)) return ticketError(`"${to}" is not a valid Expo push token`, 'DeviceNotRegistered');
      if (message.data !== undefined && (typeof message.data !== 'object' || Array.isArray(message.data))) return ticketError('"data" must be an object', 'DeveloperError');
      if (badAppCredentials.value) return ticketError('Could not find APNs credentials for this experience', 'InvalidCredentials');
      if (deadTokens.has(to)) return ticketError(`"${to}" is not a registered push notification recipient`, 'DeviceNotRegistered');
      if (throttledTokens.has(to)) return ticketError('Too many messages sent to this device; slow down', 'MessageRateExceeded');
      const id = randomUUID();
      issued.push({ to, id });
      return { status: 'ok', id };
    });
    return { status: 200, body: { data: tickets } };
  };

  const server = await startFakeServer({
    handle,
    errorBody: (status) => ({ errors: [{ code: status === 429 ? 'RATE_LIMIT_EXCEEDED' : status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'VALIDATION_ERROR', message: `HTTP ${status}` }] }),
  });
  return { ...server, deadTokens, throttledTokens, badAppCredentials, receipts, receiptRequests, tickets: issued };
}

function requestError(status: number, code: string, message: string): FakeReply {
  return { status, body: { errors: [{ code, message }] } };
}

function ticketError(message: string, error: string): unknown {
  return { status: 'error', message, details: { error } };
}
