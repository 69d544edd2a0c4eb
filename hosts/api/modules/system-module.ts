import type { Container } from 'inversify';
import { Registry } from 'prom-client';
import { MESSAGING } from '../../messaging-bindings.ts';
import { RedisProbe } from '../../../adapters/cache/redis-probe.ts';
import { DatabaseProbe } from '../../../adapters/postgres/database-probe.ts';
import { PgBossProbe } from '../../../adapters/queue/pg-boss-probe.ts';
import { CheckHealth } from '../../../core/use-cases/system/check-health.ts';
import { INFRA } from '../../tokens.ts';
import { HttpMetrics } from '../metrics.ts';
import { systemRoutes } from '../routes/system-routes.ts';
import { API } from '../tokens.ts';

export function bindSystemModule(container: Container): void {
  container.bind(API.metrics).toResolvedValue((queues) => new HttpMetrics(queues), [INFRA.queueMonitor]).inSingletonScope();
  container.bind(API.routes).toResolvedValue(
    (config, database, boss, queues, clock, metrics, secrets, telemetry) => systemRoutes({
      checkHealth: new CheckHealth({
        database: new DatabaseProbe(database), cache: new RedisProbe(config.redisUrl), queue: new PgBossProbe(boss), queues, clock,
      }),
      metrics: { registry: Registry.merge([metrics.registry, telemetry.registry]) }, metricsToken: config.metricsToken, production: config.nodeEnv === 'production', safeEqual: (a, b) => secrets.safeEqual(a, b),
    }),
    [INFRA.config, INFRA.database, INFRA.boss, INFRA.queueMonitor, INFRA.clock, API.metrics, INFRA.secrets, MESSAGING.telemetry]).inSingletonScope();
}
