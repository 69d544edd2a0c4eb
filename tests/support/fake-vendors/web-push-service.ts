import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';

/** http_ece (web-push's own dependency, CommonJS without types): RFC 8188/8291 decryption as a browser does it. */
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
};

/** A browser's side of a subscription: the subscription JSON it hands to the server, and the private key it decrypts with. */
export interface BrowserSubscription {
  id: string;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** `JSON.stringify(subscription)`: what a send's `to` carries. */
  json: string;
  ecdh: ECDH;
}

/** One accepted push: what the browser's service worker would get (`event.data.json()`), and the request's headers. */
export interface DeliveredPush {
  subscriptionId: string;
  payload: unknown;
  headers: http.IncomingHttpHeaders;
  /** The verified VAPID JWT claims. */
  claims: { aud: string; exp: number; sub: string };
}

/**
 * A local push service as RFC 8030/8291/8292 describe it: `POST /push/<id>` with an aes128gcm body
 * and `Authorization: vapid t=<JWT>, k=<public key>`. The JWT is verified with jose (ES256 against the
 * `k` key, which must be the subscription's application server key; `aud` the endpoint's origin; `exp`
 * within 24 hours) and the body decrypted with http_ece with the subscription's private key, as a
 * browser would: 201 with a Location. A bad or missing JWT: 403 (401 without one); an unknown
 * or removed subscription: 410; more than 4,096 body bytes: 413; `throttle` queued: 429 with Retry-After.
 */
export interface FakePushService {
  url: string;
  delivered: DeliveredPush[];
  /** Requests refused, with the status given. */
  refused: Array<{ status: number; reason: string }>;
  /** A new browser subscription bound to `applicationServerKey` (the VAPID public key the page subscribed with). */
  subscribe(applicationServerKey: string): BrowserSubscription;
  /** The browser unsubscribed: its endpoint answers 410 from now on. */
  unsubscribe(id: string): void;
  /** The next request gets 429 with this Retry-After. */
  throttleNext(retryAfterSeconds: number): void;
  close(): Promise<void>;
}

export async function startFakePushService(host = '127.0.0.1'): Promise<FakePushService> {
  const subscriptions = new Map<string, { ecdh: ECDH; auth: string; serverKey: string }>();
  const delivered: DeliveredPush[] = [];
  const refused: Array<{ status: number; reason: string }> = [];
  const throttles: number[] = [];
  let origin = '';

  const refuse = (res: http.ServerResponse, status: number, reason: string, headers: Record<string, string> = {}) => {
    refused.push({ status, reason });
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ reason }));
  };

  const handle = async (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => {
    const id = /^\/push\/([\w-]+)$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'POST' || !id) return refuse(res, 404, 'not found');
    const throttle = throttles.shift();
    if (throttle !== undefined) return refuse(res, 429, 'too many requests', { 'retry-after': String(throttle) });
    const subscription = subscriptions.get(id);
    if (!subscription) return refuse(res, 410, 'subscription expired or unsubscribed');
    if (body.length > 4_096) return refuse(res, 413, 'payload too large');
    const auth = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(req.headers.authorization ?? ''));
    if (!auth) return refuse(res, 401, 'missing VAPID authorization');
    const [, jwt = '', key = ''] = auth;
    if (key !== subscription.serverKey) return refuse(res, 403, 'VAPID key does not match the subscription\'s applicationServerKey');
    let claims: DeliveredPush['claims'];
    try {
      if (decodeProtectedHeader(jwt).alg !== 'ES256') throw new Error('alg');
      const raw = Buffer.from(key, 'base64url');
      const publicKey = await importJWK({ kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') }, 'ES256');
      const verified = await jwtVerify(jwt, publicKey, { audience: origin, algorithms: ['ES256'] });
      const { exp, sub, aud } = verified.payload;
      if (typeof exp !== 'number' || exp > Date.now() / 1000 + 24 * 3600) throw new Error('exp beyond 24 h');
      if (typeof sub !== 'string' || !/^(mailto:|https:)/.test(sub)) throw new Error('sub');
      claims = { aud: String(aud), exp, sub };
    } catch {
      return refuse(res, 403, 'invalid VAPID JWT');
    }
    if (req.headers['content-encoding'] !== 'aes128gcm') return refuse(res, 400, 'content-encoding must be aes128gcm');
    if (!/^\d+$/.test(String(req.headers['ttl'] ?? ''))) return refuse(res, 400, 'TTL header required');
    let payload: unknown;
    try {
      payload = JSON.parse(ece.decrypt(body, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.auth }).toString('utf8'));
    } catch {
      return refuse(res, 400, 'payload could not be decrypted');
    }
    delivered.push({ subscriptionId: id, payload, headers: req.headers, claims });
    res.writeHead(201, { location: `${origin}/message/${randomBytes(8).toString('hex')}` }).end();
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => { handle(req, Buffer.concat(chunks), res).catch(() => refuse(res, 500, 'internal error')); });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;

  return {
    url: origin, delivered, refused,
    subscribe(applicationServerKey) {
      const id = randomBytes(12).toString('base64url');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      subscriptions.set(id, { ecdh, auth, serverKey: applicationServerKey });
      const subscription = { endpoint: `${origin}/push/${id}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } };
      return { id, subscription, json: JSON.stringify(subscription), ecdh };
    },
    unsubscribe(id) { subscriptions.delete(id); },
    throttleNext(seconds) { throttles.push(seconds); },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
