import type { Channel } from '../../core/domain/channel.ts';
import type { ChannelQueueFigures, ProviderAttemptFigures, ProviderAttemptMinute, ProviderMetricsRepository } from '../../core/ports/provider-metrics-repository.ts';
import type { Database } from './database.ts';

type Num = string | number;
interface ProviderRow { provider: string; attempts: Num; accepted: Num; failed: Num; p50: Num | null; p95: Num | null; max: Num | null; errors: string | Array<{ code: string; count: Num }> }
interface MinuteRow { provider: string; minute: Date | string; attempts: Num; failed: Num; p95: Num | null }
interface QueueRow { channel: Channel; queued: Num; pending: Num; oldest: Date | string | null }

const nullableNumber = (v: Num | null): number | null => (v === null ? null : Number(v));

/**
 * Provider metrics in SQL over message_attempts (index on created_at, migration 0018): one statement
 * for the per-provider figures (percentile_cont, top error codes by row_number), one for the
 * per-minute series (date_trunc), one for the waiting messages (a small partial index).
 */
export class SqlProviderMetricsRepository implements ProviderMetricsRepository {
  readonly #database: Database;
  constructor(database: Database) { this.#database = database; }

  async attempts(from: Date, to: Date, topErrors: number): Promise<{ providers: ProviderAttemptFigures[]; minutes: ProviderAttemptMinute[] }> {
    const em = this.#database.em();
    const [providerRows, minuteRows] = await Promise.all([
      em.execute<ProviderRow[]>(`
        with w as (select provider, outcome, coalesce(error_code, 'UNKNOWN') as code, duration_ms from message_attempts where created_at >= ? and created_at < ?),
        e as (select provider, code, count(*) as n, row_number() over (partition by provider order by count(*) desc, code) as rank
              from w where outcome = 'FAILED' group by provider, code)
        select w.provider, count(*) as attempts, count(*) filter (where w.outcome = 'ACCEPTED') as accepted, count(*) filter (where w.outcome = 'FAILED') as failed,
          round((percentile_cont(0.5) within group (order by w.duration_ms))::numeric) as p50,
          round((percentile_cont(0.95) within group (order by w.duration_ms))::numeric) as p95, max(w.duration_ms) as max,
          (select coalesce(json_agg(json_build_object('code', e.code, 'count', e.n) order by e.rank), '[]'::json) from e where e.provider = w.provider and e.rank <= ?) as errors
        from w group by w.provider order by w.provider`, [from, to, topErrors]),
      em.execute<MinuteRow[]>(`
        select provider, date_trunc('minute', created_at) as minute, count(*) as attempts, count(*) filter (where outcome = 'FAILED') as failed,
          round((percentile_cont(0.95) within group (order by duration_ms))::numeric) as p95
        from message_attempts where created_at >= ? and created_at < ? group by 1, 2 order by 1, 2`, [from, to]),
    ]);
    return {
      providers: providerRows.map((r) => ({
        provider: r.provider, attempts: Number(r.attempts), accepted: Number(r.accepted), failed: Number(r.failed),
        p50Ms: nullableNumber(r.p50), p95Ms: nullableNumber(r.p95), maxMs: nullableNumber(r.max),
        errors: (typeof r.errors === 'string' ? JSON.parse(r.errors) as Array<{ code: string; count: Num }> : r.errors).map((e) => ({ code: e.code, count: Number(e.count) })),
      })),
      minutes: minuteRows.map((r) => ({ provider: r.provider, minute: new Date(r.minute), attempts: Number(r.attempts), failed: Number(r.failed), p95Ms: nullableNumber(r.p95) })),
    };
  }

  async queues(): Promise<ChannelQueueFigures[]> {
    const rows = await this.#database.em().execute<QueueRow[]>(`
      select channel, count(*) filter (where status = 'QUEUED') as queued, count(*) filter (where status = 'PENDING') as pending,
        min(created_at) filter (where status = 'QUEUED') as oldest
      from messages where status in ('QUEUED', 'PENDING') group by channel order by channel`);
    return rows.map((r) => ({ channel: r.channel, queued: Number(r.queued), pending: Number(r.pending), oldestQueuedAt: r.oldest === null ? null : new Date(r.oldest) }));
  }
}
