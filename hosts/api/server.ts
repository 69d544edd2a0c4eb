import http from 'node:http';
import type Koa from 'koa';
import type { Logger } from '../logger.ts';

export interface RunningServer {
  server: http.Server;
  port: number;
  /** Stops accepting connections and waits for in-flight requests (bounded by `timeoutMs`). */
  close(timeoutMs: number): Promise<void>;
}

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
      const timer = setTimeout(() => { server.closeAllConnections(); resolve(); }, timeoutMs);
      timer.unref();
      server.close(() => { clearTimeout(timer); resolve(); });
      server.closeIdleConnections();
    }),
  };
}
