import type { EntityManager } from '@mikro-orm/sql';
import type { Clock } from '../../core/ports/clock.ts';
import type { ArchiveTarget } from '../archive/archive-target.ts';
import type { Database } from './database.ts';
import { PostgresDetachedPartitionArchiver } from './detached-partition-archiver.ts';
import { MessageMonthCounts } from './month-counts.ts';
import { purgeOrgAuditLogs } from './org-audit-retention.ts';

/** How long each kind of record is kept (docs/operations.md, "Retention"); 0 keeps it forever. */
export interface RetentionSettings {
  /** Delivery logs: messages with their attempts and status events, in monthly partitions. */
  messagesMonths: number;
  /** The webhook event outbox (`outbound_events`), in monthly partitions. */
  outboundEventsMonths: number;
  /** Webhook deliveries (batched deletes: their unique (endpoint, event) key cannot be partitioned by month). */
  webhookDeliveriesDays: number;
  /** Monthly partitions created ahead of the current month. */
  monthsAhead: number;
  /** The organizations' audit logs (docs/audit-log.md): days kept unless an organization's override says otherwise; 0 keeps them forever. */
  auditLogDays: number;
}

export const DEFAULT_RETENTION: RetentionSettings = { messagesMonths: 13, outboundEventsMonths: 3, webhookDeliveriesDays: 30, monthsAhead: 3, auditLogDays: 0 };

/** Tables partitioned together by month (migration 0040), children first: the order they are dropped in. */
export const PARTITION_FAMILIES = [
  { root: 'messages', tables: ['message_status_events', 'message_attempts', 'messages'], retention: 'messagesMonths' },
  { root: 'outbound_events', tables: ['outbound_events'], retention: 'outboundEventsMonths' },
] as const;

export interface MaintenanceReport {
  /** Partitions created (`messages_p202612` ...). */
  created: string[];
  /** Partitions dropped without an archive. */
  dropped: string[];
  /** Partitions detached, written to the archive and dropped: where each went (a file path, an `s3://` URL). */
  archived: string[];
  /** An archive write that failed: that partition stays detached (not dropped) and a later run retries it. */
  archiveFailure: { table: string; error: string } | null;
  /**
   * Partitions detached for an archive while no archive target is configured any more (ARCHIVE_DIR or
   * ARCHIVE_S3_* removed since): they stay detached, with their rows, until a target is set again or
   * an operator marks them to be dropped (docs/operations.md).
   */
  awaitingArchive: string[];
  /** Rows deleted for organizations whose retention is shorter than the platform's (messages, webhook deliveries). */
  deletedMessages: number;
  deletedWebhookDeliveries: number;
  /** Organization audit log entries removed by retention (docs/audit-log.md). */
  deletedAuditEntries: number;
  /** Rows parked in the DEFAULT partitions (ids that are no UUIDv7 of a covered month): should stay 0. */
  parkedInDefault: number;
  /** Past months' `messages` partitions counted for the delivery-log list (migration 0042). */
  counted: string[];
  /** False when another process held the maintenance lock (it is doing the work). */
  ran: boolean;
  /** Milliseconds spent in the transactions that detach expired months (under the parent's lock), lock waits included. */
  dropMs: number;
  /** Milliseconds spent dropping detached tables without an archive: their files removed, under no lock a send waits on. */
  unlinkMs: number;
}

const LOCK_ID = 7_346_212; // constant, arbitrary: one process maintains partitions at a time
const DELETE_BATCH = 5_000;
const MAX_BATCHES = 200; // per run and kind: a long backlog is worked off over several runs
/** A drop or detach waits at most this long for the parent's lock (sends queue behind a waiting ACCESS EXCLUSIVE request). */
const LOCK_TIMEOUT = '1s';

/** The first day (UTC) of the month `k` months after the month of `at`. */
export function monthStart(at: Date, k = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + k, 1));
}

const monthKey = (m: Date) => `${m.getUTCFullYear()}${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
const isoDay = (m: Date) => m.toISOString().slice(0, 10);

/** The smallest UUIDv7 text prefix of the first millisecond of `at` (the SQL function nkra_month_bound, in TypeScript). */
export function uuidV7Floor(at: Date): string {
  const hex = at.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}`;
}

/**
 * Partition upkeep and retention (docs/adr/0027-partitioned-logs-and-retention.md): creates monthly
 * partitions ahead, drops (or archives, then drops) the expired ones, deletes the rows of
 * organizations whose retention is shorter than the platform's, and purges old webhook deliveries.
 * Safe in several worker processes at once: every step runs under one advisory lock, taken with
 * try-lock (a process that does not get it leaves the work to the one that did).
 */
export class PostgresPartitionMaintenance {
  readonly #database: Database;
  readonly #clock: Clock;
  readonly #settings: RetentionSettings;
  readonly #archiver: PostgresDetachedPartitionArchiver | null;
  /** `archive`: where expired partitions are written before they are dropped (ARCHIVE_DIR, ARCHIVE_S3_*); null drops them outright. */
  constructor(database: Database, clock: Clock, settings: RetentionSettings, archive: ArchiveTarget | null = null) {
    this.#database = database; this.#clock = clock; this.#settings = settings;
    this.#archiver = archive ? new PostgresDetachedPartitionArchiver(database, archive) : null;
  }

  async run(): Promise<MaintenanceReport> {
    const report: MaintenanceReport = { created: [], dropped: [], archived: [], archiveFailure: null, awaitingArchive: [], counted: [], deletedMessages: 0, deletedWebhookDeliveries: 0, deletedAuditEntries: 0, parkedInDefault: 0, ran: false, dropMs: 0, unlinkMs: 0 };
    const locked = await this.#locked(async (em) => {
      report.created = await this.#createAhead(em);
      return true;
    });
    if (!locked) return report;
    report.ran = true;
    const now = this.#clock.now();
    for (const family of PARTITION_FAMILIES) {
      const months = family.root === 'messages' ? this.#settings.messagesMonths : this.#settings.outboundEventsMonths;
      if (months <= 0) continue;
      const firstKept = monthStart(now, -months);
      for (const month of (await this.#partitionMonths(family.root)).filter((m) => m < firstKept)) {
        const names = family.tables.map((t) => `${t}_p${monthKey(month)}`);
        const started = performance.now();
        // Detached first, in one short transaction under the parent's lock (a catalog change); without an
        // archive the detached tables are dropped next, so removing their files holds no lock a send waits on.
        const dropOnly = !this.#archiver;
        const detached = await this.#locked(async (em) => {
          await em.execute(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
          await MessageMonthCounts.forget(em, names);
          for (const [i, table] of family.tables.entries()) {
            if (!(await this.#exists(em, names[i]!))) continue;
            await em.execute(`alter table ${table} detach partition ${names[i]}`);
            await em.execute('insert into detached_partitions (table_name, parent_table, month, drop_only) values (?, ?, ?, ?) on conflict do nothing',
              [names[i], table, isoDay(month), dropOnly]);
          }
          return true;
        });
        report.dropMs += performance.now() - started;
        if (detached && dropOnly) report.dropped.push(...names);
      }
    }
    report.unlinkMs = await this.#dropDetached();
    if (this.#archiver) {
      const outcome = await this.#archiver.archiveAll();
      report.archived = outcome.archived;
      report.archiveFailure = outcome.failure;
    } else {
      report.awaitingArchive = (await this.#database.em().execute<{ table_name: string }[]>(
        'select table_name from detached_partitions where not drop_only order by month, table_name limit 100')).map((r) => r.table_name);
    }
    report.deletedMessages = await this.#deleteShorterRetention(now);
    report.deletedWebhookDeliveries = await this.#purgeWebhookDeliveries(now);
    report.deletedAuditEntries = await purgeOrgAuditLogs(this.#database, now, this.#settings.auditLogDays);
    // After the deletes (which would undo the counts of the months they touch); the current month is never counted.
    report.counted = await new MessageMonthCounts(this.#database).countMonths((await this.#partitionMonths('messages')).filter((m) => m < monthStart(now)));
    report.parkedInDefault = await this.#parked();
    return report;
  }

  /** Drops the tables detached for dropping (`drop_only`), this run's and any a stopped process left. */
  async #dropDetached(): Promise<number> {
    const started = performance.now();
    const rows = await this.#database.em().execute<{ table_name: string }[]>('select table_name from detached_partitions where drop_only order by month, table_name');
    for (const { table_name: table } of rows) {
      await this.#locked(async (em) => {
        await em.execute(`drop table if exists ${table}`);
        await em.execute('delete from detached_partitions where table_name = ?', [table]);
      });
    }
    return performance.now() - started;
  }

  /** Runs `work` in a transaction holding the maintenance lock; undefined when another process holds it. */
  async #locked<T>(work: (em: EntityManager) => Promise<T>): Promise<T | undefined> {
    return this.#database.em().transactional(async (em) => {
      const [row] = await em.execute<{ ok: boolean }[]>('select pg_try_advisory_xact_lock(?) as ok', [LOCK_ID]);
      return row?.ok ? work(em) : undefined;
    });
  }

  async #exists(em: EntityManager, table: string): Promise<boolean> {
    const [row] = await em.execute<{ found: string | null }[]>('select to_regclass(?)::text as found', [table]);
    return Boolean(row?.found);
  }

  async #createAhead(em: EntityManager): Promise<string[]> {
    const created: string[] = [];
    await em.execute(`set local lock_timeout = '5s'`);
    const now = this.#clock.now();
    for (const family of PARTITION_FAMILIES) {
      for (let k = 0; k <= this.#settings.monthsAhead; k++) {
        const month = monthStart(now, k);
        for (const table of family.tables) {
          const [row] = await em.execute<{ created: boolean }[]>('select nkra_create_month_partition(?, ?::date) as created', [table, isoDay(month)]);
          if (row?.created) created.push(`${table}_p${monthKey(month)}`);
        }
      }
    }
    return created;
  }

  /** The months of the partitions of `root`, oldest first. */
  async #partitionMonths(root: string): Promise<Date[]> {
    const rows = await this.#database.em().execute<{ name: string }[]>(
      `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ?::regclass order by 1`, [root]);
    return rows.map((r) => /_p(\d{4})(\d{2})$/.exec(r.name)).filter((m): m is RegExpExecArray => m !== null)
      .map((m) => new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)));
  }

  /**
   * Organizations whose retention (retention_overrides) is shorter than the platform's: their older rows
   * are deleted in batches. The analytics roll-ups are kept: each batch adds back what the roll-up
   * trigger takes out for the deleted rows (the same key as migration 0011).
   */
  async #deleteShorterRetention(now: Date): Promise<number> {
    const platform = this.#settings.messagesMonths;
    const overrides = await this.#database.em().execute<{ organization_id: string; months: number }[]>(
      `select organization_id, messages_months as months from retention_overrides where messages_months is not null ${platform > 0 ? 'and messages_months < ?' : ''}`,
      platform > 0 ? [platform] : []);
    let deleted = 0;
    for (const o of overrides) {
      const firstKept = monthStart(now, -o.months);
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        const n = await this.#locked(async (em) => {
          await em.execute(`set local lock_timeout = '${LOCK_TIMEOUT}'`);
          const rows = await em.execute<{ n: string }[]>(`with gone as (
              delete from messages where id in (select id from messages where organization_id = ? and id < ? and created_at < ? limit ${DELETE_BATCH})
              returning organization_id, created_at, channel, status, provider, segments, cost),
            kept as (insert into message_daily_stats as s (organization_id, day, channel, status, provider, bucket, messages, segments, cost)
              select organization_id, (created_at at time zone 'UTC')::date, channel, case when status = 'PENDING' then 'QUEUED' else status end,
                coalesce(provider, ''), pg_backend_pid() & 15, count(*), sum(segments), sum(cost)
              from gone group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
              on conflict (organization_id, day, channel, status, provider, bucket) do update
              set messages = s.messages + excluded.messages, segments = s.segments + excluded.segments, cost = s.cost + excluded.cost)
            select count(*) as n from gone`, [o.organization_id, uuidV7Floor(firstKept), firstKept]);
          return Number(rows[0]?.n ?? 0);
        });
        if (!n) break;
        deleted += n;
        if (n < DELETE_BATCH) break;
      }
    }
    return deleted;
  }

  /** Webhook deliveries older than the platform's (or the organization's shorter) retention, in batches. */
  async #purgeWebhookDeliveries(now: Date): Promise<number> {
    const day = 24 * 3600 * 1000;
    const targets: Array<{ where: string; params: unknown[] }> = [];
    if (this.#settings.webhookDeliveriesDays > 0) {
      targets.push({ where: 'created_at < ?', params: [new Date(now.getTime() - this.#settings.webhookDeliveriesDays * day)] });
    }
    const overrides = await this.#database.em().execute<{ organization_id: string; days: number }[]>(
      'select organization_id, webhook_deliveries_days as days from retention_overrides where webhook_deliveries_days is not null');
    for (const o of overrides) {
      if (this.#settings.webhookDeliveriesDays > 0 && o.days >= this.#settings.webhookDeliveriesDays) continue;
      targets.push({ where: 'organization_id = ? and created_at < ?', params: [o.organization_id, new Date(now.getTime() - o.days * day)] });
    }
    let deleted = 0;
    for (const t of targets) {
      for (let batch = 0; batch < MAX_BATCHES; batch++) {
        const result = await this.#database.em().execute<{ affectedRows?: number }>(
          `delete from webhook_deliveries where id in (select id from webhook_deliveries where ${t.where} limit ${DELETE_BATCH})`, t.params, 'run');
        const n = result.affectedRows ?? 0;
        deleted += n;
        if (n < DELETE_BATCH) break;
      }
    }
    return deleted;
  }

  async #parked(): Promise<number> {
    let parked = 0;
    for (const family of PARTITION_FAMILIES) {
      const [row] = await this.#database.em().execute<{ n: string }[]>(`select count(*) as n from (select 1 from ${family.root}_default limit 10000) x`);
      parked += Number(row?.n ?? 0);
    }
    return parked;
  }
}
