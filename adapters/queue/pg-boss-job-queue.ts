import type { EntityManager } from '@mikro-orm/sql';
import type { PgBoss } from 'pg-boss';
import type { EnqueueOptions, JobQueue, QueueCounts, QueueMonitor, QueueName } from '../../core/ports/job-queue.ts';
import { sqlRows } from '../postgres/sql-rows.ts';

/**
 * Enqueues through pg-boss. Given a transactional EntityManager, the job row is written through that
 * transaction, so it commits or rolls back with the ORM writes; as a prepared statement, since
 * planning pg-boss's job insert costs PostgreSQL more than running it (docs/performance.md).
 */
export class PgBossJobQueue implements JobQueue, QueueMonitor {
  readonly #boss: PgBoss;
  readonly #em: EntityManager | null;
  constructor(boss: PgBoss, transactionEm: EntityManager | null = null) { this.#boss = boss; this.#em = transactionEm; }

  async enqueue(queue: QueueName, data: Record<string, unknown>, options: EnqueueOptions = {}): Promise<void> {
    const sendOptions: Record<string, unknown> = {};
    if (options.startAfterSeconds) sendOptions['startAfter'] = options.startAfterSeconds;
    if (this.#em) sendOptions['db'] = transactionDb(this.#em);
    await this.#boss.send(queue, data, sendOptions);
  }

  async enqueueMany(queue: QueueName, jobs: ReadonlyArray<{ data: Record<string, unknown>; options?: EnqueueOptions }>): Promise<void> {
    if (jobs.length === 0) return;
    const rows = jobs.map(({ data, options = {} }) => {
      const row: { data: Record<string, unknown>; startAfter?: Date } = { data };
      if (options.startAfterSeconds) row.startAfter = new Date(Date.now() + options.startAfterSeconds * 1000);
      return row;
    });
    await this.#boss.insert(queue, rows, this.#em ? { db: transactionDb(this.#em) as never } : {});
  }

  async counts(queue: QueueName): Promise<QueueCounts> {
    const [stats] = await this.#boss.getQueueStats(queue);
    const workers = this.#boss.getWipData().filter((w) => w.name === queue && w.state !== 'stopped').length;
    return {
      waiting: stats?.queuedCount ?? 0,
      active: stats?.activeCount ?? 0,
      completed: stats?.completedDelta ?? 0,
      failed: stats?.failedCount ?? 0,
      workers,
    };
  }
}

/** pg-boss's database adapter on the ORM transaction of `em` (what pg-boss's fromKysely does), its statements prepared. */
function transactionDb(em: EntityManager) {
  return { executeSql: async (text: string, values?: unknown[]) => ({ rows: await sqlRows<unknown>(em, text, values ?? [], { prepare: true }) }) };
}
