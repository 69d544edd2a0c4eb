import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  receivedAt: number;
}

/** A local receiver on 127.0.0.1: records every request and answers `respond()` (default 200). */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Status (and optional headers) of the next answers; a function of the request count. */
  respond: (n: number) => { status: number; headers?: Record<string, string>; delayMs?: number };
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: Partial<WebhookReceiver> & { received: ReceivedWebhook[] } = { received: [], respond: () => ({ status: 200 }) };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, rawBody: Buffer.concat(chunks), receivedAt: performance.now() });
      const answer = receiver.respond!(receiver.received.length);
      setTimeout(() => { if (!res.destroyed) { res.writeHead(answer.status, answer.headers ?? {}); res.end('ok'); } }, answer.delayMs ?? 0);
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}/hooks`;
  receiver.waitFor = async (count, timeoutMs = 10_000) => {
    const until = Date.now() + timeoutMs;
    while (receiver.received.length < count) {
      if (Date.now() > until) throw new Error(`receiver got ${receiver.received.length} of ${count} requests`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  receiver.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return receiver as WebhookReceiver;
}
