import { loadConfig } from './config.ts';
import { failStartup, onShutdownSignal } from './lifecycle.ts';
import { createLogger } from './logger.ts';
import { startService } from './service.ts';
import { startTracing } from './tracing.ts';

/**
 * `npm start`: API and worker in one process on one database (the embedded PGlite by default,
 * PostgreSQL when DATABASE_URL is set).
 */
try {
  const config = await loadConfig();
  const logger = createLogger(config.logLevel);
  const tracing = await startTracing(); // OTEL_* variables; off by default (docs/observability.md)
  const service = await startService(config, logger);
  logger.info({ url: config.publicUrl, port: service.port, database: service.infra.database.kind, dataDir: config.dataDir }, 'nkra ready');
  if (tracing) logger.info({ exporter: process.env['OTEL_TRACES_EXPORTER'] ?? 'otlp' }, 'tracing on');
  onShutdownSignal(logger, async () => {
    await service.stop(config.shutdownTimeoutMs);
    await tracing?.shutdown();
  });
} catch (error) {
  failStartup(error);
}
