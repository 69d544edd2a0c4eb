import { loadConfig } from '../config.ts';
import { openInfrastructure } from '../infrastructure.ts';
import { failStartup, onShutdownSignal } from '../lifecycle.ts';
import { createLogger } from '../logger.ts';
import { buildApiContainer, buildApp } from './container.ts';
import { listen } from './server.ts';

/** `npm run api`: the HTTP API only (run `npm run worker` beside it). */
try {
  const config = await loadConfig();
  const logger = createLogger(config.logLevel);
  const infra = await openInfrastructure(config, logger, { superviseQueue: false });
  const server = await listen(buildApp(buildApiContainer(config, logger, infra)), config.port, config.host, logger);
  onShutdownSignal(logger, async () => {
    await server.close(config.shutdownTimeoutMs);
    await infra.close();
  });
} catch (error) {
  failStartup(error);
}
