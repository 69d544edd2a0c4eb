import net from 'node:net';
import { openDatabase } from '../../adapters/postgres/database.ts';
import { migrate } from '../../adapters/postgres/migrate.ts';
import { seedPricingRules } from '../../adapters/postgres/seed-pricing.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { SqlProviderRepository } from '../../adapters/postgres/sql-provider-repository.ts';
import { AesGcmCredentialCipher } from '../../adapters/security/aes-gcm-credential-cipher.ts';
import { SystemClock } from '../../adapters/memory/system-clock.ts';
import { syncProviderConfiguration } from '../../hosts/provider-runtime.ts';
import type { Database } from '../../adapters/postgres/database.ts';
import { testConfig } from './test-config.ts';

/** Migrations, seeded pricing and the default outbox providers, as `openInfrastructure` does at start. */
async function prepare(database: Database): Promise<void> {
  await migrate(database);
  await seedPricingRules(database, new UuidV7IdGenerator());
  const config = testConfig();
  await syncProviderConfiguration(new SqlProviderRepository(database, new AesGcmCredentialCipher(config.encryptionKey), new UuidV7IdGenerator()), new SystemClock(), config);
}

/**
 * Which database the tests use:
 * - TEST_DATABASE_URL=postgres://... : that PostgreSQL (CI sets it; failing to connect fails the run);
 * - TEST_DATABASE=pglite             : the embedded PGlite, in memory;
 * - neither                          : PostgreSQL at 127.0.0.1:5432/test when it answers, else PGlite.
 * The chosen PostgreSQL database is wiped (public and pgboss schemas) once per run.
 */
export const DEFAULT_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

let chosen: Promise<string | null> | null = null;

/** The PostgreSQL URL the tests use, or null when they run on PGlite. */
export function testDatabaseUrl(): Promise<string | null> {
  chosen ??= (async () => {
    if (process.env['TEST_DATABASE_URL']) return process.env['TEST_DATABASE_URL'];
    if (process.env['TEST_DATABASE'] === 'pglite') return null;
    return (await portOpen('127.0.0.1', 5432)) ? DEFAULT_TEST_DATABASE_URL : null;
  })();
  return chosen;
}

function portOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1_000, () => { socket.destroy(); resolve(false); });
    socket.on('connect', () => { socket.end(); resolve(true); });
    socket.on('error', () => resolve(false));
  });
}

let wiped = false;

/** Opens a migrated database: a fresh in-memory PGlite, or the shared test PostgreSQL (wiped once per run). */
export async function openTestDatabase(kind: 'pglite' | 'postgres'): Promise<Database> {
  if (kind === 'pglite') {
    const database = await openDatabase({});
    await prepare(database);
    return database;
  }
  const url = await testDatabaseUrl();
  if (!url) throw new Error('PostgreSQL is not available for tests');
  const database = await openDatabase({ databaseUrl: url, poolSize: 20 });
  if (!wiped) {
    wiped = true;
    const em = database.em();
    await em.execute('drop schema if exists public cascade');
    await em.execute('drop schema if exists pgboss cascade');
    await em.execute('create schema public');
  }
  await prepare(database);
  return database;
}

/** The kinds of real database available in this run, for contract suites. */
export async function availableDatabaseKinds(): Promise<Array<'pglite' | 'postgres'>> {
  return (await testDatabaseUrl()) ? ['pglite', 'postgres'] : ['pglite'];
}
