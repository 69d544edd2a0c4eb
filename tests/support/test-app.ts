import type { Container } from 'inversify';
import { InMemoryEmailSender } from '../../adapters/memory/in-memory-email-sender.ts';
import { buildApiContainer, buildApp } from '../../hosts/api/container.ts';
import type { ProviderDirectory } from '../../core/ports/channel-provider.ts';
import type { RouteDefinition } from '../../hosts/api/route.ts';
import { listen, type RunningServer } from '../../hosts/api/server.ts';
import type { Config } from '../../hosts/config.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders } from '../../hosts/messaging-bindings.ts';
import { sharedInfrastructure } from './shared-infrastructure.ts';
import { testConfig } from './test-config.ts';
import { ApiClient } from './api-client.ts';
import { API } from '../../hosts/api/tokens.ts';

export interface TestApp {
  url: string;
  api: ApiClient;
  container: Container;
  /** Every email the app sent (password resets, invitations ...). */
  email: InMemoryEmailSender;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<Config>;
  /** Routes added to the app for the test only (e.g. a trivial API-key route). */
  extraRoutes?: readonly RouteDefinition[];
  /** Providers to deliver through instead of the configured ones (e.g. RecordingProviders). */
  providers?: ProviderDirectory;
  /** The dashboard build to serve (default: hosts/web/dist when built); null serves none. */
  webRoot?: string | null;
  /** The database kind (default: the run's test database, PostgreSQL when it answers). */
  database?: 'pglite' | 'postgres';
}

/** The real Koa app with real adapters on the shared test database, on an ephemeral port. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(options.config);
  const logger = createLogger(config.logLevel);
  const infra = await sharedInfrastructure(options.database);
  const email = new InMemoryEmailSender();
  const container = buildApiContainer(config, logger, infra, options.providers ? { email, providers: options.providers } : { email });
  await loadProviders(container);
  const server: RunningServer = await listen(buildApp(container, options.extraRoutes, options.webRoot === undefined ? {} : { webRoot: options.webRoot }), 0, '127.0.0.1', logger);
  const url = `http://127.0.0.1:${server.port}`;
  return { url, api: new ApiClient(url), container, email, close: async () => { await container.get(API.inboxStreams).close(); await server.close(1_000); } };
}
