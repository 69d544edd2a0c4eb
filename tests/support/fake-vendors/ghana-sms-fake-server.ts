import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The HTTP core of the fake Ghanaian SMS vendors (Arkesel, Hubtel, mNotify): a node:http server on
 * 127.0.0.1 and an ephemeral port that records every request and answers through the vendor's
 * handler, unless a scripted outcome takes the next request.
 */

export interface ReceivedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  /** Raw body text. */
  body: string;
  /** The body parsed as JSON, or null. */
  json: unknown;
  /** When it arrived (epoch ms): rate tests count requests per second. */
  receivedAt: number;
}

/** What the next request gets instead of the vendor's normal answer. */
export type Outcome =
  | { kind: 'success' }
  /** An error status; `body` defaults to the vendor's error body for that status. */
  | { kind: 'error'; status: number; body?: unknown }
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  /** Waits (longer than the adapter's timeout, typically) before the normal answer. */
  | { kind: 'slow'; delayMs: number };

export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface FakeVendorDefinition {
  handle(request: ReceivedRequest): FakeReply;
  /** The vendor's error body for a status (scripted errors without a body). */
  errorBody(status: number): unknown;
}

export interface FakeServer {
  url: string;
  received: ReceivedRequest[];
  /** Queues an outcome for the next request (first in, first out). */
  script(next: Outcome): void;
  close(): Promise<void>;
}

export async function startFakeServer(vendor: FakeVendorDefinition): Promise<FakeServer> {
  const received: ReceivedRequest[] = [];
  const queue: Outcome[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const request: ReceivedRequest = {
        method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body, json: parseJson(body), receivedAt: Date.now(),
      };
      received.push(request);
      const outcome = queue.shift() ?? { kind: 'success' };
      if (outcome.kind === 'slow') {
        const timer = setTimeout(() => { timers.delete(timer); reply(res, vendor.handle(request)); }, outcome.delayMs);
        timers.add(timer);
        return;
      }
      if (outcome.kind === 'error') return reply(res, { status: outcome.status, body: outcome.body ?? vendor.errorBody(outcome.status) });
      if (outcome.kind === 'rate-limited') {
        return reply(res, { status: 429, body: vendor.errorBody(429), headers: { 'retry-after': String(outcome.retryAfterSeconds) } });
      }
      reply(res, vendor.handle(request));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    script: (next) => { queue.push(next); },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(res: http.ServerResponse, answer: FakeReply): void {
  if (res.destroyed) return;
  const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
  res.writeHead(answer.status, { ...(text ? { 'content-type': 'application/json' } : {}), ...answer.headers });
  res.end(text);
}

function parseJson(text: string): unknown {
  try { return text ? (JSON.parse(text) as unknown) : null; } catch { return null; }
}

/** A stand-in for our callback endpoint: records what vendors call, as the API host would hand it to parseCallback. */
export interface CallbackReceiver {
  url: string;
  callbacks: Array<{ method: string; url: string; headers: Record<string, string | undefined>; rawBody: Buffer; contentType: string }>;
  close(): Promise<void>;
}

export async function startCallbackReceiver(path = '/providers/callbacks/vendor'): Promise<CallbackReceiver> {
  const callbacks: CallbackReceiver['callbacks'] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
      callbacks.push({ method: req.method ?? 'GET', url: `${base}${req.url ?? '/'}`, headers, rawBody: Buffer.concat(chunks), contentType: req.headers['content-type'] ?? '' });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}${path}`,
    callbacks,
    close: async () => { server.closeAllConnections(); await new Promise<void>((resolve) => server.close(() => resolve())); },
  };
}
