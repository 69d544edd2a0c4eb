import path from 'node:path';
import type { PgBoss } from 'pg-boss';
import { openDatabase, type Database } from '../adapters/postgres/database.ts';
import { migrate } from '../adapters/postgres/migrate.ts';
import { seedPricingRules } from '../adapters/postgres/seed-pricing.ts';
import { UuidV7IdGenerator } from '../adapters/security/uuid-v7-id-generator.ts';
import { SqlProviderRepository } from '../adapters/postgres/sql-provider-repository.ts';
import { AesGcmCredentialCipher } from '../adapters/security/aes-gcm-credential-cipher.ts';
import { SystemClock } from '../adapters/memory/system-clock.ts';
import { syncProviderConfiguration } from './provider-runtime.ts';
import { startBoss } from '../adapters/queue/pg-boss-factory.ts';
import type { Config } from './config.ts';
import type { Logger } from './logger.ts';

/** The process-wide resources both hosts share: one database (ORM) and pg-boss on it. */
export interface Infrastructure {
  database: Database;
  boss: PgBoss;
  close(): Promise<void>;
}

export interface InfrastructureOptions {
  /** Run pg-boss maintenance and schedules in this process (workers do; API-only processes do not). */
  superviseQueue: boolean;
  /** Override the PGlite data directory; null keeps the embedded database in memory (tests). */
  pgliteDir?: string | null;
}

export async function openInfrastructure(config: Config, logger: Logger, options: InfrastructureOptions): Promise<Infrastructure> {
  const pgliteDir = options.pgliteDir === undefined ? path.join(config.dataDir, 'pglite') : options.pgliteDir;
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: pgliteDir ?? undefined, poolSize: config.databasePoolSize, preparedStatements: config.databasePreparedStatements });
  const applied = await migrate(database);
  await seedPricingRules(database, new UuidV7IdGenerator());
  const providers = new SqlProviderRepository(database, new AesGcmCredentialCipher(config.encryptionKey), new UuidV7IdGenerator());
  await syncProviderConfiguration(providers, new SystemClock(), config);
  logger.info({ database: database.kind, migrationsApplied: applied }, 'database ready');
  const boss = await startBoss(database, { supervise: options.superviseQueue, schedule: options.superviseQueue });
  boss.on('error', (error: unknown) => logger.error({ err: error }, 'queue error'));
  return {
    database, boss,
    async close() {
      await boss.stop({ graceful: true, close: database.kind === 'postgres', timeout: config.shutdownTimeoutMs } as never).catch((error: unknown) => logger.error({ err: error }, 'queue stop failed'));
      await database.close();
    },
  };
}
