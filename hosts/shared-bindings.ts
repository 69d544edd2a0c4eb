import path from 'node:path';
import type { Container } from 'inversify';
import { CachedApiKeyLookup } from '../adapters/cache/cached-api-key-lookup.ts';
import { OutboxEmailSender } from '../adapters/email/outbox-email-sender.ts';
import { SystemClock } from '../adapters/memory/system-clock.ts';
import { MikroOrmStorage } from '../adapters/postgres/mikro-orm-storage.ts';
import { PostgresRateLimiter } from '../adapters/postgres/postgres-rate-limiter.ts';
import { SqlRateBuckets } from '../adapters/postgres/sql-rate-buckets.ts';
import { SqlTenantDeliveryLimitRepository } from '../adapters/postgres/sql-tenant-delivery-limit-repository.ts';
import { PgBossJobQueue } from '../adapters/queue/pg-boss-job-queue.ts';
import { Argon2PasswordHasher } from '../adapters/security/argon2-password-hasher.ts';
import { JoseSessionTokens } from '../adapters/security/jose-session-tokens.ts';
import { NodeSecrets } from '../adapters/security/node-secrets.ts';
import { UuidV7IdGenerator } from '../adapters/security/uuid-v7-id-generator.ts';
import type { EmailSender } from '../core/ports/email-sender.ts';
import type { Config } from './config.ts';
import type { Infrastructure } from './infrastructure.ts';
import type { Logger } from './logger.ts';
import { INFRA } from './tokens.ts';

/** Binds the adapters both hosts use. Decorator-free: factories with explicit dependency tokens. */
export function bindInfrastructure(container: Container, config: Config, logger: Logger, infra: Infrastructure, overrides: { email?: EmailSender } = {}): void {
  container.bind(INFRA.config).toConstantValue(config);
  container.bind(INFRA.logger).toConstantValue(logger);
  container.bind(INFRA.database).toConstantValue(infra.database);
  container.bind(INFRA.boss).toConstantValue(infra.boss);
  container.bind(INFRA.clock).toConstantValue(new SystemClock());
  container.bind(INFRA.ids).toConstantValue(new UuidV7IdGenerator());
  container.bind(INFRA.secrets).toConstantValue(new NodeSecrets());
  container.bind(INFRA.passwords).toConstantValue(new Argon2PasswordHasher());
  container.bind(INFRA.sessions).toResolvedValue((clock) => new JoseSessionTokens(config.jwtSecret, clock), [INFRA.clock]).inSingletonScope();
  container.bind(INFRA.storage).toResolvedValue((database, ids, boss) => new MikroOrmStorage(database, ids, boss), [INFRA.database, INFRA.ids, INFRA.boss]).inSingletonScope();
  container.bind(INFRA.rateLimiter).toResolvedValue((database, clock) => new PostgresRateLimiter(database, clock), [INFRA.database, INFRA.clock]).inSingletonScope();
  container.bind(INFRA.rateBuckets).toResolvedValue((database) => new SqlRateBuckets(database), [INFRA.database]).inSingletonScope();
  container.bind(INFRA.deliveryLimits).toResolvedValue((database) => new SqlTenantDeliveryLimitRepository(database), [INFRA.database]).inSingletonScope();
  container.bind(INFRA.email).toConstantValue(overrides.email ?? new OutboxEmailSender(path.join(config.dataDir, 'outbox')));
  container.bind(INFRA.apiKeyLookup).toResolvedValue(
    (storage) => new CachedApiKeyLookup(storage, { onError: (error) => logger.warn({ err: error }, 'api key touch failed') }), [INFRA.storage]).inSingletonScope();
  container.bind(INFRA.queueMonitor).toResolvedValue((boss) => new PgBossJobQueue(boss), [INFRA.boss]).inSingletonScope();
}
