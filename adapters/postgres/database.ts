import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { MikroORM as PgliteMikroORM } from '@mikro-orm/pglite';
import { MikroORM as PostgresMikroORM } from '@mikro-orm/postgresql';
import type { EntityManager, MikroORM } from '@mikro-orm/sql';
import { ALL_ENTITIES } from './entities/index.ts';
import { preparedName } from './sql-rows.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseOptions {
  /** postgres://... selects PostgreSQL; absent selects the embedded PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data directory (created if missing); absent keeps the embedded database in memory. */
  dataDir?: string | undefined;
  /** PostgreSQL pool size per process. */
  poolSize?: number;
  /** Milliseconds before a statement is cancelled (PostgreSQL). */
  statementTimeoutMs?: number;
  /**
   * Named prepared statements for `sqlRows(..., { prepare: true })` (default true). False behind a
   * transaction-mode pooler that cannot route them (PgBouncer before 1.21): every statement is then
   * sent unnamed, parsed and planned on each call.
   */
  preparedStatements?: boolean;
}

/** An open database: the ORM, and on the embedded default the PGlite instance pg-boss shares. */
export interface Database {
  kind: DatabaseKind;
  orm: MikroORM;
  /** A fresh EntityManager with its own identity map. */
  em(): EntityManager;
  pglite: PGlite | null;
  databaseUrl: string | null;
  close(): Promise<void>;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const orm = await PostgresMikroORM.init({
      entities: ALL_ENTITIES,
      clientUrl: options.databaseUrl,
      pool: { max: options.poolSize ?? 10 },
      driverOptions: {
        connectionTimeoutMillis: 5_000,
        statement_timeout: options.statementTimeoutMs ?? 15_000,
        idle_in_transaction_session_timeout: 60_000,
        onPoolCreated: options.preparedStatements === false ? undefined : preparePooledStatements,
      },
      allowGlobalContext: false,
    });
    return wrap('postgres', orm as unknown as MikroORM, null, options.databaseUrl);
  }
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  const pglite = options.dataDir ? await PGlite.create({ dataDir: options.dataDir }) : await PGlite.create({});
  const orm = await PgliteMikroORM.init({ entities: ALL_ENTITIES, driverOptions: { pglite } as never, allowGlobalContext: false });
  return wrap('pglite', orm as unknown as MikroORM, pglite, null);
}

function wrap(kind: DatabaseKind, orm: MikroORM, pglite: PGlite | null, databaseUrl: string | null): Database {
  return {
    kind, orm, pglite, databaseUrl,
    em: () => orm.em.fork() as EntityManager,
    async close() {
      await orm.close(true);
      if (pglite && !pglite.closed) await pglite.close();
    },
  };
}

/** The slice of a `pg` pool and client this module touches (`pg` ships no types). */
interface PgQueryable { query(config: unknown, values?: unknown, callback?: unknown): unknown }
interface PgPool { on(event: 'connect', listener: (client: PgQueryable) => void): void }

/**
 * Runs the statements marked by `sqlRows(..., { prepare: true })` as named prepared statements on
 * each pooled connection (parsed and planned once per connection instead of on every call).
 */
function preparePooledStatements(pool: unknown): void {
  (pool as PgPool).on('connect', (client) => {
    const query = client.query.bind(client);
    client.query = (config, values, callback) => {
      const name = typeof config === 'string' && callback === undefined ? preparedName(config) : undefined;
      return name ? query({ name, text: config, values }) : query(config, values, callback);
    };
  });
}
