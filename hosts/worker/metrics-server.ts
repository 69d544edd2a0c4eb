import http from 'node:http';
import { collectDefaultMetrics, type Registry } from 'prom-client';
import type { Logger } from '../logger.ts';

/**
 * `npm run worker` has no API: with WORKER_METRICS_PORT set it serves `GET /metrics` (Prometheus text)
 * on its own port, protected by METRICS_TOKEN when one is set. Provider telemetry plus the process's
 * default metrics. `npm start` and `npm run api` serve theirs on the API's /metrics.
 */
export async function startWorkerMetricsServer(registry: Registry, port: number, host: string, token: string | undefined, logger: Logger): Promise<{ close(): Promise<void> }> {
  collectDefaultMetrics({ register: registry, prefix: 'nkra_worker_' });
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') { res.writeHead(404).end(); return; }
    if (token && req.headers.authorization !== `Bearer ${token}`) { res.writeHead(401).end(); return; }
    registry.metrics().then((body) => { res.writeHead(200, { 'content-type': registry.contentType }).end(body); }, () => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  logger.info({ port }, 'worker metrics served on /metrics');
  return { close: () => new Promise((resolve) => server.close(() => resolve())) };
}
