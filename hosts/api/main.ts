import { loadConfig } from '../config.ts';
import { openInfrastructure } from '../infrastructure.ts';
import { failStartup, onShutdownSignal } from '../lifecycle.ts';
import { createLogger } from '../logger.ts';
import { buildApiContainer, buildApp } from './container.ts';
import { listen } from './server.ts';
import { API } from './tokens.ts';
import { startTracing } from '../tracing.ts';
import { LINKS } from './modules/links-module.ts';
import { loadProviders, MESSAGING, PROVIDER_CONFIG_WATCH_MS } from '../messaging-bindings.ts';
import { ROUTING, ROUTING_SYNC_MS } from '../routing-bindings.ts';

/** `npm run api`: the HTTP API only (run `npm run worker` beside it). */
try {
  const config = await loadConfig();
  const logger = createLogger(config.logLevel);
  const tracing = await startTracing(); // OTEL_* variables; off by default (docs/observability.md)
  const infra = await openInfrastructure(config, logger, { superviseQueue: false });
  const container = buildApiContainer(config, logger, infra);
  await loadProviders(container);
  const stopRefresh = container.get(MESSAGING.runtime).startHealthRefresh(60_000);
  const stopWatch = container.get(MESSAGING.runtime).startConfigWatch(PROVIDER_CONFIG_WATCH_MS);
  const stopRouting = container.get(ROUTING.sync).start(ROUTING_SYNC_MS);
  const redirects = container.get(LINKS.redirects);
  redirects.start(); // buffered clicks of the redirect (docs/links.md)
  const server = await listen(buildApp(container), config.port, config.host, logger);
  onShutdownSignal(logger, async () => {
    stopRefresh();
    stopWatch();
    await stopRouting();
    await container.get(API.inboxStreams).close(); // open SSE streams would hold the drain to its timeout
    await server.close(config.shutdownTimeoutMs);
    await redirects.stop(); // after the last request: every counted click is written
    await infra.close();
    await tracing?.shutdown();
  });
} catch (error) {
  failStartup(error);
}
