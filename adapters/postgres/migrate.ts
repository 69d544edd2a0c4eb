import type { EntityManager } from '@mikro-orm/sql';
import type { Database } from './database.ts';
import { MIGRATIONS } from './migrations/index.ts';
import type { Migration } from './migrations/migration.ts';

const LOCK_ID = 7_346_211; // arbitrary, constant: serialises migrations across processes

/** Applies pending migrations in one transaction under an advisory lock (DDL is transactional in PostgreSQL). Returns the ids applied. */
export async function migrate(database: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<string[]> {
  const applied: string[] = [];
  await database.em().transactional(async (em: EntityManager) => {
    await em.execute('select pg_advisory_xact_lock(?)', [LOCK_ID]);
    await em.execute(`create table if not exists schema_migrations (id text primary key, applied_at timestamptz not null default now())`);
    const rows = await em.execute<{ id: string }[]>('select id from schema_migrations');
    const done = new Set(rows.map((r) => r.id));
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      for (const statement of migration.statements) await em.execute(statement);
      await em.execute('insert into schema_migrations (id) values (?)', [migration.id]);
      applied.push(migration.id);
    }
  });
  return applied;
}
