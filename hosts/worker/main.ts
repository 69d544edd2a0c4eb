import { loadConfig } from '../config.ts';
import { openInfrastructure } from '../infrastructure.ts';
import { failStartup, onShutdownSignal } from '../lifecycle.ts';
import { createLogger } from '../logger.ts';
import { buildWorkerContainer, SCHEDULES, WORKER } from './container.ts';
import { startWorker } from './worker.ts';
import { startTracing } from '../tracing.ts';
import { startWorkerMetricsServer } from './metrics-server.ts';
import { registerLaneBacklogGauges } from '../lane-backlog-gauges.ts';
import { INFRA } from '../tokens.ts';
import { loadProviders, MESSAGING, PROVIDER_CONFIG_WATCH_MS } from '../messaging-bindings.ts';
import { ROUTING, ROUTING_SYNC_MS } from '../routing-bindings.ts';

/** `npm run worker`: job processing only (scale separately from the API). */
try {
  const config = await loadConfig();
  const logger = createLogger(config.logLevel);
  const tracing = await startTracing(); // OTEL_* variables; off by default (docs/observability.md)
  const infra = await openInfrastructure(config, logger, { superviseQueue: true });
  const container = buildWorkerContainer(config, logger, infra);
  await loadProviders(container);
  for (const s of SCHEDULES) await infra.boss.schedule(s.queue, s.cron);
  const stopWatch = container.get(MESSAGING.runtime).startConfigWatch(PROVIDER_CONFIG_WATCH_MS);
  const stopRouting = container.get(ROUTING.sync).start(ROUTING_SYNC_MS);
  const registry = container.get(MESSAGING.telemetry).registry;
  if (config.workerMetricsPort) registerLaneBacklogGauges(registry, container.get(INFRA.queueMonitor), 'nkra_worker_');
  const metrics = config.workerMetricsPort ? await startWorkerMetricsServer(registry, config.workerMetricsPort, config.host, config.metricsToken, logger) : null;
  const worker = await startWorker(infra.boss, container.getAll(WORKER.handlers), logger, container.getAll(WORKER.tasks));
  onShutdownSignal(logger, async () => {
    stopWatch();
    await stopRouting();
    await metrics?.close();
    await worker.stop();
    await infra.close();
    await tracing?.shutdown();
  });
} catch (error) {
  failStartup(error);
}
