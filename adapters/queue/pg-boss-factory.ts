import { PgBoss, fromPglite } from 'pg-boss';
import type { Database } from '../postgres/database.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';

/**
 * Queues whose jobs wake workers by LISTEN/NOTIFY (across processes on PostgreSQL; in-process on PGlite,
 * where the API and the worker share the instance), polling staying as the safety net: a webhook's first
 * attempt is made by its dispatch job, and a polling interval (0.5 s) would eat half of the
 * event-to-first-attempt budget; replays are wanted at once too (docs/webhooks.md); a passcode's delivery
 * job is picked up the moment its acceptance commits (docs/adr/0036-delivery-lanes-and-fair-queueing.md).
 */
const NOTIFY_QUEUES: readonly string[] = [QUEUES.webhookDispatch, QUEUES.webhookDeliver, QUEUES.notificationSend];

/**
 * Liveness of active jobs (docs/operations.md, "Crash recovery"): the process working a job refreshes
 * its heartbeat every JOB_HEARTBEAT_SECONDS / 2 while the handler runs, however long it runs; a job whose
 * heartbeat is older than JOB_HEARTBEAT_SECONDS (its process was killed or lost) is failed by the next
 * supervision pass and retried by a live worker. Without it, a job fetched by a process killed before
 * it claimed its message waited for `expireInSeconds` (5 minutes). The delivery claim (lease) keeps a
 * retried job from sending twice.
 */
export const JOB_HEARTBEAT_SECONDS = 15;
/** How often supervising processes look for such jobs (and expired ones): pg-boss's default is 60 s. */
export const SUPERVISE_INTERVAL_SECONDS = 10;

/** Supervision passes (expiry, heartbeats, counts) every SUPERVISE_INTERVAL_SECONDS in processes that supervise. */
const SUPERVISION = { superviseIntervalSeconds: SUPERVISE_INTERVAL_SECONDS, monitorIntervalSeconds: SUPERVISE_INTERVAL_SECONDS } as const;

export interface BossOptions {
  /** Run pg-boss maintenance (archiving, scheduling) in this process. Off for API-only processes. */
  supervise: boolean;
  schedule: boolean;
}

/**
 * pg-boss on the same database as the ORM: the shared PGlite instance on the embedded default, the
 * same PostgreSQL otherwise. Creates every queue the service uses, with its retry policy and job heartbeats.
 */
export async function startBoss(database: Database, options: BossOptions): Promise<PgBoss> {
  const boss = database.pglite
    ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', supervise: options.supervise, schedule: options.schedule, useListenNotify: true, ...SUPERVISION } as never)
    : new PgBoss({ connectionString: database.databaseUrl ?? '', max: 4, supervise: options.supervise, schedule: options.schedule, connectionTimeoutMillis: 5_000,
      useListenNotify: true, ...SUPERVISION } as never); // wakes workers of NOTIFY_QUEUES at once instead of at their next poll
  boss.on('error', () => undefined); // surfaced through health checks and job failures; see hosts for logging
  await boss.start();
  for (const name of Object.values(QUEUES)) {
    await boss.createQueue(name, { retryLimit: 8, retryDelay: 5, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 300, heartbeatSeconds: JOB_HEARTBEAT_SECONDS, notify: NOTIFY_QUEUES.includes(name) });
    await boss.updateQueue(name, { heartbeatSeconds: JOB_HEARTBEAT_SECONDS } as never); // queues created before heartbeats existed
    if (NOTIFY_QUEUES.includes(name)) await boss.updateQueue(name, { notify: true } as never); // queues created before notify existed
  }
  return boss;
}
