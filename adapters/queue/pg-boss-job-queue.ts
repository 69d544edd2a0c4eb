import type { EntityManager } from '@mikro-orm/sql';
import type { PgBoss } from 'pg-boss';
import { DELIVERY_LANES } from '../../core/domain/delivery-lane.ts';
import type { EnqueueOptions, JobQueue, LaneBacklog, TenantBacklog, QueueCounts, QueueMonitor, QueueName } from '../../core/ports/job-queue.ts';
import { sqlRows } from '../postgres/sql-rows.ts';
import { tracedJobData, tracingOn } from '../telemetry/tracing.ts';
import { laneBand } from './lane-priority.ts';
import { lanePriorities, type SqlExecutor } from './pg-lane-clock.ts';

/**
 * Enqueues through pg-boss. Given a transactional EntityManager, the job row is written through that
 * transaction, so it commits or rolls back with the ORM writes; as a prepared statement, since
 * planning pg-boss's job insert costs PostgreSQL more than running it (docs/performance.md).
 * A job with a lane gets the priority of its lane and its tenant's fair share (pg-lane-clock.ts), and
 * its tenant as pg-boss group (per-tenant backlog); pg-boss fetches `priority desc, created_on`.
 * With tracing on, each job's data carries its trace (adapters/telemetry/tracing.ts).
 */
export class PgBossJobQueue implements JobQueue, QueueMonitor {
  readonly #boss: PgBoss;
  readonly #em: EntityManager | null;
  constructor(boss: PgBoss, transactionEm: EntityManager | null = null) { this.#boss = boss; this.#em = transactionEm; }

  async enqueue(queue: QueueName, data: Record<string, unknown>, options: EnqueueOptions = {}): Promise<void> {
    if (options.lane) return this.enqueueMany(queue, [{ data, options }]);
    const sendOptions: Record<string, unknown> = {};
    if (options.startAfterSeconds) sendOptions['startAfter'] = options.startAfterSeconds;
    if (this.#em) sendOptions['db'] = transactionDb(this.#em);
    await this.#boss.send(queue, tracingOn() ? tracedJobData(queue, data) : data, sendOptions);
  }

  async enqueueMany(queue: QueueName, jobs: ReadonlyArray<{ data: Record<string, unknown>; options?: EnqueueOptions }>): Promise<void> {
    if (jobs.length === 0) return;
    const db = this.#db();
    const priorities = jobs.some((j) => j.options?.lane) ? await lanePriorities(db, queue, jobs.map((j) => j.options ?? {})) : [];
    const traced = tracingOn();
    const rows = jobs.map(({ data, options = {} }, i) => {
      const row: { data: Record<string, unknown>; startAfter?: Date; priority?: number; group?: { id: string } } = { data: traced ? tracedJobData(queue, data) : data };
      if (options.startAfterSeconds) row.startAfter = new Date(Date.now() + options.startAfterSeconds * 1000);
      const priority = priorities[i];
      if (priority !== undefined) row.priority = priority;
      if (options.lane && options.tenant) row.group = { id: options.tenant };
      return row;
    });
    await this.#boss.insert(queue, rows, this.#em ? { db: db as never } : {});
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

  async laneBacklog(queue: QueueName, tenant?: string): Promise<LaneBacklog[]> {
    const result: LaneBacklog[] = [];
    for (const lane of DELIVERY_LANES) {
      const { low, high } = laneBand(lane);
      const [row] = (await this.#boss.getDb().executeSql(BACKLOG_SQL, [queue, low, high, tenant ?? null])).rows as Array<{ waiting: string | number; oldest: string | number | null; drained: string | number; span: string | number | null }>;
      result.push({
        lane, waiting: Number(row?.waiting ?? 0), oldestWaitingSeconds: Math.max(0, Number(row?.oldest ?? 0)),
        drainedLastMinute: Number(row?.drained ?? 0), drainSpanSeconds: drainSpan(row?.span ?? null),
      });
    }
    return result;
  }

  async tenantBacklog(queue: QueueName, limit: number): Promise<TenantBacklog[]> {
    const rows = (await this.#boss.getDb().executeSql(TENANT_BACKLOG_SQL, [queue, Math.min(...DELIVERY_LANES.map((lane) => laneBand(lane).low)), Math.max(1, Math.min(100, Math.floor(limit)))])).rows as Array<{ tenant: string; waiting: string | number; oldest: string | number | null }>;
    return rows.map((r) => ({ organizationId: r.tenant, waiting: Number(r.waiting), oldestWaitingSeconds: Math.max(0, Number(r.oldest ?? 0)) }));
  }

  #db(): SqlExecutor {
    return this.#em ? transactionDb(this.#em) : this.#boss.getDb() as SqlExecutor;
  }
}

/**
 * Waiting jobs of one band (job_i11): runnable now, or postponed with a tag (paced by a rate or a ceiling,
 * a retry backing off; a delayed job without one sits at the band's floor: a sync send's safety net); how
 * long the oldest has waited since it was queued; and the band's jobs completed in the last minute
 * (job_i16, an index range over one minute of completions; completed jobs keep their priority and group),
 * less those postponed to a new job for a rate slot (output `postponed`, deliver-message-handler.ts).
 */
const WAITING = `name = $1 and state < 'active' and not blocked and (start_after <= pgboss.job_now() or priority > $2)`;
const BACKLOG_SQL = `select w.waiting, w.oldest, d.drained, d.span
  from (select count(*) as waiting, extract(epoch from pgboss.job_now() - min(created_on)) as oldest from pgboss.job
      where ${WAITING} and priority between $2 and $3 and ($4::text is null or group_id = $4::text)) w,
    (select count(*) as drained, extract(epoch from pgboss.job_now() - min(completed_on)) as span from pgboss.job
      where name = $1 and completed_on > pgboss.job_now() - interval '60 seconds' and priority between $2 and $3
        and ($4::text is null or group_id = $4::text) and (output is null or output->>'postponed' is null)) d`;

/** The tenants (pg-boss group = organization) with the most jobs waiting, in any lane ($2: the lowest band's floor). */
const TENANT_BACKLOG_SQL = `select group_id as tenant, count(*) as waiting, extract(epoch from pgboss.job_now() - min(created_on)) as oldest
  from pgboss.job where name = $1 and state < 'active' and not blocked and group_id is not null
    and (start_after <= pgboss.job_now() or (priority > $2 and priority not in (${DELIVERY_LANES.map((lane) => laneBand(lane).low).join(', ')})))
  group by group_id order by count(*) desc, group_id limit $3`;

/** Seconds from the first completion counted to now, at least 1, at most the minute; the minute when none. */
const drainSpan = (seconds: string | number | null): number => (seconds === null ? 60 : Math.min(60, Math.max(1, Number(seconds))));

/** pg-boss's database adapter on the ORM transaction of `em` (what pg-boss's fromKysely does), its statements prepared. */
function transactionDb(em: EntityManager) {
  return { executeSql: async (text: string, values?: unknown[]) => ({ rows: await sqlRows<unknown>(em, text, values ?? [], { prepare: true }) }) };
}
