import { loadConfig } from './config.ts';
import { openInfrastructure } from './infrastructure.ts';
import { failStartup, onShutdownSignal } from './lifecycle.ts';
import { createLogger } from './logger.ts';
import { buildApiContainer, buildApp } from './api/container.ts';
import { listen } from './api/server.ts';
import { buildWorkerContainer, SCHEDULES, WORKER } from './worker/container.ts';
import { startWorker } from './worker/worker.ts';
import { bootstrapPlatformAdmin } from './cli/bootstrap-admin.ts';
import { loadProviders, MESSAGING } from './messaging-bindings.ts';

/**
 * `npm start`: API and worker in one process on one database (the embedded PGlite by default,
 * PostgreSQL when DATABASE_URL is set).
 */
try {
  const config = await loadConfig();
  const logger = createLogger(config.logLevel);
  const infra = await openInfrastructure(config, logger, { superviseQueue: true });
  await bootstrapPlatformAdmin(config, infra, logger);
  const apiContainer = buildApiContainer(config, logger, infra);
  await loadProviders(apiContainer);
  const workerContainer = buildWorkerContainer(config, logger, infra, { runtime: apiContainer.get(MESSAGING.runtime) });
  for (const s of SCHEDULES) await infra.boss.schedule(s.queue, s.cron);
  const worker = await startWorker(infra.boss, workerContainer.getAll(WORKER.handlers), logger);
  const server = await listen(buildApp(apiContainer), config.port, config.host, logger);
  logger.info({ url: config.publicUrl, database: infra.database.kind, dataDir: config.dataDir }, 'nkra ready');
  onShutdownSignal(logger, async () => {
    await server.close(config.shutdownTimeoutMs);
    await worker.stop();
    await infra.close();
  });
} catch (error) {
  failStartup(error);
}
