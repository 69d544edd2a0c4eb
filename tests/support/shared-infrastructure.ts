import type { PgBoss } from 'pg-boss';
import type { Database } from '../../adapters/postgres/database.ts';
import { startBoss } from '../../adapters/queue/pg-boss-factory.ts';
import type { Infrastructure } from '../../hosts/infrastructure.ts';
import { openTestDatabase, testDatabaseUrl } from './test-database.ts';

const opened = new Map<string, Promise<Infrastructure>>();

/**
 * One database plus pg-boss per kind, shared by every test in the run (tests isolate themselves by
 * creating their own users and organizations). Closed by the root hook in global-hooks.ts.
 */
export function sharedInfrastructure(kind?: 'pglite' | 'postgres'): Promise<Infrastructure> {
  const key = kind ?? 'default';
  let infra = opened.get(key);
  if (!infra) {
    infra = (async () => {
      const resolved = kind ?? ((await testDatabaseUrl()) ? 'postgres' : 'pglite');
      const database: Database = await openTestDatabase(resolved);
      const boss: PgBoss = await startBoss(database, { supervise: false, schedule: false });
      return {
        database, boss,
        async close() {
          await boss.stop({ graceful: false, close: database.kind === 'postgres' } as never).catch(() => undefined);
          await database.close();
        },
      };
    })();
    opened.set(key, infra);
  }
  return infra;
}

export async function closeSharedInfrastructure(): Promise<void> {
  const all = [...opened.values()];
  opened.clear();
  for (const infra of all) await (await infra).close();
}
