import type { Container } from 'inversify';
import { buildApiContainer, buildApp } from '../../hosts/api/container.ts';
import { listen, type RunningServer } from '../../hosts/api/server.ts';
import type { Config } from '../../hosts/config.ts';
import { createLogger } from '../../hosts/logger.ts';
import { sharedInfrastructure } from './shared-infrastructure.ts';
import { testConfig } from './test-config.ts';
import { ApiClient } from './api-client.ts';

export interface TestApp {
  url: string;
  api: ApiClient;
  container: Container;
  close(): Promise<void>;
}

/** The real Koa app with real adapters on the shared test database, on an ephemeral port. */
export async function startTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const config = testConfig(overrides);
  const logger = createLogger(config.logLevel);
  const infra = await sharedInfrastructure();
  const container = buildApiContainer(config, logger, infra);
  const server: RunningServer = await listen(buildApp(container), 0, '127.0.0.1', logger);
  const url = `http://127.0.0.1:${server.port}`;
  return { url, api: new ApiClient(url), container, close: () => server.close(1_000) };
}
