import { randomUUID, verify, type KeyObject } from 'node:crypto';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { Outcome } from './ghana-sms-fake-server.ts';

/**
 * A local APNs provider API (cleartext HTTP/2, h2c) built from Apple's documented wire format:
 * POST /3/device/{token}; `authorization: bearer <ES256 JWT>` with kid = key id, iss = team id and an
 * iat under an hour old; apns-topic, apns-push-type, apns-priority, apns-expiration headers; 200 with an
 * apns-id header, errors as JSON `{ reason }` (and `timestamp` for 410 Unregistered).
 */

export interface ApnsAccount { teamId: string; keyId: string; publicKey: KeyObject; topic: string }

export interface ApnsRequest {
  method: string;
  path: string;
  headers: http2.IncomingHttpHeaders;
  body: string;
  json: unknown;
  /** The provider token (the bearer) as sent. */
  jwt: string;
}

/** What the next request gets instead of APNs' normal answer; `hang` never answers. */
export type ApnsOutcome = Outcome | { kind: 'hang' };

export interface FakeApns {
  /** `http://127.0.0.1:PORT` (h2c). */
  url: string;
  received: ApnsRequest[];
  /** Device tokens that answer 410 Unregistered. */
  deadTokens: Set<string>;
  /** Provider tokens refused with 403 ExpiredProviderToken (as if an hour had passed). */
  expiredJwts: Set<string>;
  /** Distinct provider tokens accepted so far. */
  acceptedJwts: Set<string>;
  /** HTTP/2 connections opened to the fake. */
  connections(): number;
  script(next: ApnsOutcome): void;
  /** Ends every open connection with a GOAWAY, as APNs does when it rotates servers. */
  dropConnections(): void;
  close(): Promise<void>;
}

export async function startFakeApns(account: ApnsAccount): Promise<FakeApns> {
  const received: ApnsRequest[] = [];
  const queue: ApnsOutcome[] = [];
  const deadTokens = new Set<string>();
  const expiredJwts = new Set<string>();
  const acceptedJwts = new Set<string>();
  const sessions = new Set<http2.ServerHttp2Session>();
  const timers = new Set<NodeJS.Timeout>();
  let connections = 0;

  const server = http2.createServer();
  server.on('session', (session) => {
    connections += 1;
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', () => {});
    stream.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const jwt = String(headers.authorization ?? '').replace(/^bearer /, '');
      const request: ApnsRequest = { method: String(headers[':method']), path: String(headers[':path']), headers, body, json: parseJson(body), jwt };
      received.push(request);
      const reply = (status: number, reason?: string, extra: Record<string, string> = {}) => {
        if (stream.destroyed) return;
        const json = reason ? JSON.stringify({ reason, ...(status === 410 ? { timestamp: Date.now() } : {}) }) : '';
        stream.respond({ ':status': status, 'apns-id': randomUUID(), ...(json ? { 'content-type': 'application/json' } : {}), ...extra });
        stream.end(json);
      };
      const outcome = queue.shift() ?? { kind: 'success' };
      if (outcome.kind === 'hang') return;
      if (outcome.kind === 'error') return reply(outcome.status, String((outcome.body as { reason?: string } | undefined)?.reason ?? (outcome.status >= 500 ? 'InternalServerError' : 'BadRequest')));
      if (outcome.kind === 'rate-limited') return reply(429, 'TooManyRequests', { 'retry-after': String(outcome.retryAfterSeconds) });
      const answer = () => { const [status, reason] = handle(request); reply(status, reason); };
      if (outcome.kind === 'slow') {
        const timer = setTimeout(() => { timers.delete(timer); answer(); }, outcome.delayMs);
        timers.add(timer);
        return;
      }
      answer();
    });
  });

  /** APNs' answer as [status, reason] (no reason: success). */
  const handle = (request: ApnsRequest): [number, string?] => {
    if (request.method !== 'POST') return [405, 'MethodNotAllowed'];
    const match = /^\/3\/device\/([^/?]+)$/.exec(request.path);
    if (!match) return [404, 'BadPath'];
    if (!request.jwt) return [403, 'MissingProviderToken'];
    const problem = checkProviderToken(request.jwt, account);
    if (problem) return [403, problem];
    if (expiredJwts.has(request.jwt)) return [403, 'ExpiredProviderToken'];
    acceptedJwts.add(request.jwt);
    const { headers } = request;
    if (!headers['apns-topic']) return [400, 'MissingTopic'];
    if (headers['apns-topic'] !== account.topic) return [400, 'TopicDisallowed'];
    if (!['alert', 'background', 'voip', 'complication', 'fileprovider', 'mdm', 'liveactivity', 'location', 'pushtotalk'].includes(String(headers['apns-push-type']))) return [400, 'InvalidPushType'];
    if (headers['apns-priority'] !== undefined && !['5', '10', '1'].includes(String(headers['apns-priority']))) return [400, 'BadPriority'];
    if (headers['apns-expiration'] !== undefined && !/^\d+$/.test(String(headers['apns-expiration']))) return [400, 'BadExpirationDate'];
    const token = decodeURIComponent(match[1]!);
    if (!/^(?:[0-9a-f]{2}){32,100}$/.test(token) || /^0+$/.test(token)) return [400, 'BadDeviceToken'];
    if (request.body === '') return [400, 'PayloadEmpty'];
    if (Buffer.byteLength(request.body) > 4096) return [413, 'PayloadTooLarge'];
    if (!request.json || typeof (request.json as { aps?: unknown }).aps !== 'object') return [400, 'BadRequest'];
    if (deadTokens.has(token)) return [410, 'Unregistered'];
    return [200];
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received, deadTokens, expiredJwts, acceptedJwts,
    connections: () => connections,
    script: (next) => { queue.push(next); },
    dropConnections: () => { for (const session of sessions) session.close(); },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const session of sessions) session.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Why APNs would refuse the provider token (403 reason), or null when it is good. */
function checkProviderToken(jwt: string, account: ApnsAccount): string | null {
  const [header, claims, signature] = jwt.split('.');
  if (!header || !claims || !signature) return 'InvalidProviderToken';
  let head: Record<string, unknown>;
  let body: Record<string, unknown>;
  try {
    head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>;
    body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return 'InvalidProviderToken';
  }
  if (head['alg'] !== 'ES256' || head['kid'] !== account.keyId || body['iss'] !== account.teamId) return 'InvalidProviderToken';
  const signedOk = verify('sha256', Buffer.from(`${header}.${claims}`), { key: account.publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!signedOk) return 'InvalidProviderToken';
  const iat = Number(body['iat']);
  if (!Number.isFinite(iat)) return 'InvalidProviderToken';
  if (Date.now() / 1000 - iat > 3600) return 'ExpiredProviderToken';
  return null;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try { return JSON.parse(text) as unknown; } catch { return null; }
}
