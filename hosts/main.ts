import { loadConfig } from './config.ts';
import { failStartup, onShutdownSignal } from './lifecycle.ts';
import { createLogger } from './logger.ts';
import { startService } from './service.ts';

/**
 * `npm start`: API and worker in one process on one database (the embedded PGlite by default,
 * PostgreSQL when DATABASE_URL is set).
 */
try {
  const config = await loadConfig();
  const logger = createLogger(config.logLevel);
  const service = await startService(config, logger);
  logger.info({ url: config.publicUrl, port: service.port, database: service.infra.database.kind, dataDir: config.dataDir }, 'nkra ready');
  onShutdownSignal(logger, () => service.stop(config.shutdownTimeoutMs));
} catch (error) {
  failStartup(error);
}
