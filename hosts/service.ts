import { LINKS } from './api/modules/links-module.ts';
import type { Container } from 'inversify';
import type { Config } from './config.ts';
import { openInfrastructure, type Infrastructure } from './infrastructure.ts';
import type { Logger } from './logger.ts';
import { buildApiContainer, buildApp } from './api/container.ts';
import { listen } from './api/server.ts';
import { API } from './api/tokens.ts';
import { buildWorkerContainer, SCHEDULES, WORKER } from './worker/container.ts';
import { startWorker } from './worker/worker.ts';
import { bootstrapPlatformAdmin } from './cli/bootstrap-admin.ts';
import { loadProviders, MESSAGING, PROVIDER_CONFIG_WATCH_MS } from './messaging-bindings.ts';
import { ROUTING, ROUTING_SYNC_MS } from './routing-bindings.ts';

export interface RunningService {
  port: number;
  infra: Infrastructure;
  apiContainer: Container;
  /** Stops accepting, drains requests (bounded by `timeoutMs`) and jobs, closes the database. */
  stop(timeoutMs: number): Promise<void>;
}

/**
 * API and worker in one process on one database (`npm start`; the e2e tests start exactly this):
 * infrastructure and migrations, the administrator bootstrap, providers, the worker with its schedules,
 * then the HTTP server.
 */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const infra = await openInfrastructure(config, logger, { superviseQueue: true });
  await bootstrapPlatformAdmin(config, infra, logger);
  const apiContainer = buildApiContainer(config, logger, infra);
  await loadProviders(apiContainer);
  const workerContainer = buildWorkerContainer(config, logger, infra, { runtime: apiContainer.get(MESSAGING.runtime), telemetry: apiContainer.get(MESSAGING.telemetry) });
  for (const s of SCHEDULES) await infra.boss.schedule(s.queue, s.cron);
  const worker = await startWorker(infra.boss, workerContainer.getAll(WORKER.handlers), logger, workerContainer.getAll(WORKER.tasks));
  const stopWatch = apiContainer.get(MESSAGING.runtime).startConfigWatch(PROVIDER_CONFIG_WATCH_MS); // one runtime for API and worker
  const stopRouting = apiContainer.get(ROUTING.sync).start(ROUTING_SYNC_MS);
  const stopWorkerRouting = workerContainer.get(ROUTING.sync).start(ROUTING_SYNC_MS); // the worker's deliveries count in its own router
  const redirects = apiContainer.get(LINKS.redirects);
  redirects.start(); // buffered click counts of the link redirect (docs/links.md)
  const server = await listen(buildApp(apiContainer), config.port, config.host, logger);
  return {
    port: server.port, infra, apiContainer,
    async stop(timeoutMs) {
      stopWatch();
      await stopRouting();
      await stopWorkerRouting();
      await apiContainer.get(API.inboxStreams).close(); // open SSE streams would hold the drain to its timeout
      await server.close(timeoutMs);
      await redirects.stop(); // every counted click written before the database closes
      await worker.stop();
      await infra.close();
    },
  };
}
