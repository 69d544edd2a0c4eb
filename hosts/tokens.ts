import type { ServiceIdentifier } from 'inversify';
import type { PgBoss } from 'pg-boss';
import type { Database } from '../adapters/postgres/database.ts';
import type { ApiKeyLookup } from '../core/ports/api-key-lookup.ts';
import type { Clock } from '../core/ports/clock.ts';
import type { EmailSender } from '../core/ports/email-sender.ts';
import type { IdGenerator } from '../core/ports/id-generator.ts';
import type { QueueMonitor } from '../core/ports/job-queue.ts';
import type { PasswordHasher } from '../core/ports/password-hasher.ts';
import type { RateLimiter } from '../core/ports/rate-limiter.ts';
import type { RateBuckets } from '../core/ports/rate-buckets.ts';
import type { TenantDeliveryLimitRepository } from '../core/ports/tenant-delivery-limits.ts';
import type { Secrets } from '../core/ports/secrets.ts';
import type { SessionTokens } from '../core/ports/session-tokens.ts';
import type { Storage } from '../core/ports/storage.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';

const token = <T>(name: string): ServiceIdentifier<T> => Symbol.for(`nkra.${name}`);

/** Tokens of the infrastructure both hosts bind (hosts/shared-bindings.ts). */
export const INFRA = {
  config: token<Config>('Config'),
  logger: token<Logger>('Logger'),
  database: token<Database>('Database'),
  boss: token<PgBoss>('PgBoss'),
  clock: token<Clock>('Clock'),
  ids: token<IdGenerator>('IdGenerator'),
  secrets: token<Secrets>('Secrets'),
  passwords: token<PasswordHasher>('PasswordHasher'),
  sessions: token<SessionTokens>('SessionTokens'),
  storage: token<Storage>('Storage'),
  rateLimiter: token<RateLimiter>('RateLimiter'),
  rateBuckets: token<RateBuckets>('RateBuckets'),
  deliveryLimits: token<TenantDeliveryLimitRepository>('TenantDeliveryLimitRepository'),
  email: token<EmailSender>('EmailSender'),
  apiKeyLookup: token<ApiKeyLookup>('ApiKeyLookup'),
  queueMonitor: token<QueueMonitor>('QueueMonitor'),
} as const;

export { token };
