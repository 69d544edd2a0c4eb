import { PgBoss, fromPglite } from 'pg-boss';
import type { Database } from '../postgres/database.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';

export interface BossOptions {
  /** Run pg-boss maintenance (archiving, scheduling) in this process. Off for API-only processes. */
  supervise: boolean;
  schedule: boolean;
}

/**
 * pg-boss on the same database as the ORM: the shared PGlite instance on the embedded default, the
 * same PostgreSQL otherwise. Creates every queue the service uses, with its retry policy.
 */
export async function startBoss(database: Database, options: BossOptions): Promise<PgBoss> {
  const boss = database.pglite
    ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', supervise: options.supervise, schedule: options.schedule } as never)
    : new PgBoss({ connectionString: database.databaseUrl ?? '', max: 4, supervise: options.supervise, schedule: options.schedule, connectionTimeoutMillis: 5_000 } as never);
  boss.on('error', () => undefined); // surfaced through health checks and job failures; see hosts for logging
  await boss.start();
  for (const name of Object.values(QUEUES)) {
    await boss.createQueue(name, { retryLimit: 8, retryDelay: 5, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 300 });
  }
  return boss;
}
