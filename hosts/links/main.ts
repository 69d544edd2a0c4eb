import { SystemClock } from '../../adapters/memory/system-clock.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { listen } from '../api/server.ts';
import { loadConfig } from '../config.ts';
import { openInfrastructure } from '../infrastructure.ts';
import { failStartup, onShutdownSignal } from '../lifecycle.ts';
import { createLogger } from '../logger.ts';
import { createLinksApp, linkRedirects } from './link-redirects.ts';

/**
 * `npm run links`: the tracked-link redirect on its own (docs/operations.md, "The link redirect"): a
 * minimal Koa app with only GET/HEAD /l/{code} and the open pixel, on LINKS_PORT, sharing the database
 * (and the webhook outbox) with the API and workers.
 */
try {
  const config = await loadConfig();
  const logger = createLogger(config.logLevel);
  const infra = await openInfrastructure(config, logger, { superviseQueue: false });
  const ids = new UuidV7IdGenerator();
  const redirects = linkRedirects({ storage: new MikroOrmStorage(infra.database, ids, infra.boss), clock: new SystemClock(), ids, logger, linkBaseUrl: config.linkBaseUrl });
  redirects.start();
  const app = createLinksApp(redirects.follow);
  app.on('error', (error: unknown) => logger.error({ err: error }, 'link redirect failed'));
  const server = await listen(app, config.linksPort, config.host, logger);
  onShutdownSignal(logger, async () => {
    await server.close(config.shutdownTimeoutMs);
    await redirects.stop(); // every counted click is written before the database closes
    await infra.close();
  });
} catch (error) {
  failStartup(error);
}
