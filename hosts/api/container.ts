import { Container } from 'inversify';
import type Koa from 'koa';
import type { Config } from '../config.ts';
import type { Infrastructure } from '../infrastructure.ts';
import type { Logger } from '../logger.ts';
import { bindInfrastructure } from '../shared-bindings.ts';
import { INFRA } from '../tokens.ts';
import { createApp } from './app.ts';
import { bindAuthModule } from './modules/auth-module.ts';
import { bindSystemModule } from './modules/system-module.ts';
import { API } from './tokens.ts';

/** Every API module, in the order its routes are registered. */
const MODULES: ReadonlyArray<(container: Container) => void> = [
  bindSystemModule,
  bindAuthModule,
];

/** The API host's composition root: the only place adapters, use cases and routes meet. */
export function buildApiContainer(config: Config, logger: Logger, infra: Infrastructure): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  bindInfrastructure(container, config, logger, infra);
  for (const bindModule of MODULES) bindModule(container);
  return container;
}

export function buildApp(container: Container): Koa {
  const config = container.get(INFRA.config);
  return createApp({
    routes: container.getAll(API.routes).flat(),
    auth: { session: container.get(API.authenticateSession), apiKey: container.get(API.authenticateApiKey) },
    logger: container.get(INFRA.logger),
    metrics: container.get(API.metrics),
    bodyLimitBytes: config.bodyLimitBytes,
  });
}
