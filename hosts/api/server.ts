import http from 'node:http';
import net from 'node:net';
import type Koa from 'koa';
import type { Logger } from '../logger.ts';

export interface RunningServer {
  server: http.Server;
  port: number;
  /** Stops accepting connections and waits for in-flight requests (bounded by `timeoutMs`). */
  close(timeoutMs: number): Promise<void>;
}

/** How often idle keep-alive connections are closed while draining at shutdown. */
const SWEEP_MS = 100;
/** How long the listener still accepts at shutdown (connections already queued in the kernel are not reset). */
const ACCEPT_GRACE_MS = 500;

export async function listen(app: Koa, port: number, host: string, logger: Logger): Promise<RunningServer> {
  const server = http.createServer(app.callback());
  server.requestTimeout = 30_000;
  server.headersTimeout = 15_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => { server.off('error', reject); resolve(); });
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  logger.info({ port: actualPort, host }, 'api listening');
  return {
    server, port: actualPort,
    close: (timeoutMs) => new Promise<void>((resolve) => {
      const done = () => { clearTimeout(timer); clearInterval(sweep); resolve(); };
      const timer = setTimeout(() => { server.closeAllConnections(); done(); }, timeoutMs);
      timer.unref();
      let sweep: NodeJS.Timeout | undefined;
      // 1. A short grace: connections the kernel already completed but this (busy) process has not accepted yet
      //    would be reset when the listening socket closes. Keep accepting, and ask every client to reconnect elsewhere.
      server.on('request', (_req, res) => res.setHeader('connection', 'close'));
      setTimeout(() => {
        // 2. Stop accepting without http.Server#close, which also closes idle connections at once: a request
        //    already on the wire but not yet read looks idle. Idle keep-alive connections are swept instead, from
        //    the check phase (setImmediate), after the poll phase has read whatever arrived.
        net.Server.prototype.close.call(server, done);
        sweep = setInterval(() => setImmediate(() => server.closeIdleConnections()), SWEEP_MS);
      }, Math.min(ACCEPT_GRACE_MS, timeoutMs / 2));
    }),
  };
}
