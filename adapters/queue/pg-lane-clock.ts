import type { DeliveryLane } from '../../core/domain/delivery-lane.ts';
import type { EnqueueOptions } from '../../core/ports/job-queue.ts';
import { delayedPriority, laneBand, lanePriority } from './lane-priority.ts';

/** pg-boss's database interface: `executeSql` on a pool or on one transaction. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * The lane's clock (docs/adr/0036-delivery-lanes-and-fair-queueing.md): the smallest tag among its runnable
 * waiting jobs (the highest priority in its band, one index probe of pg-boss's job_i11), or, when none waits,
 * the largest tag ever given in the lane (everything given has been served). Jobs at the band's floor (delayed
 * jobs fallen due, saturated tags) carry no tag and are left out: one would set the clock to the floor for good.
 */
const CLOCK_SQL = `select coalesce(
    (select $4::bigint - max(priority) from pgboss.job
      where name = $1 and state < 'active' and not blocked and start_after <= pgboss.job_now() and priority > $2 and priority <= $4),
    (select max(last_tag) from delivery_fair_tags where lane = $3), 0)::bigint as clock`;

/** Takes `n` tags per (lane, tenant) in one statement, rows locked in key order (no deadlock between two batches). */
const TAKE_SQL = `insert into delivery_fair_tags as t (lane, organization_id, last_tag, last_count)
  select lane, organization_id, clock + n, n from unnest($1::text[], $2::text[], $3::bigint[], $4::int[]) as v(lane, organization_id, clock, n)
  order by lane, organization_id
  on conflict (lane, organization_id) do update
    set last_tag = greatest(t.last_tag, excluded.last_tag - excluded.last_count) + excluded.last_count, last_count = excluded.last_count
  returning lane, organization_id, last_tag`;

/**
 * The pg-boss priority of each job (undefined: none), in order: runnable jobs of a tenant get consecutive
 * fair-queueing tags after its backlog and the lane's clock; jobs without a tenant start at the clock;
 * delayed jobs sit at their band's floor.
 */
export async function lanePriorities(db: SqlExecutor, queue: string, options: readonly EnqueueOptions[]): Promise<Array<number | undefined>> {
  const runnable = (o: EnqueueOptions): o is EnqueueOptions & { lane: DeliveryLane } => o.lane !== undefined && !o.startAfterSeconds;
  const lanes = [...new Set(options.filter(runnable).map((o) => o.lane))];
  if (lanes.length === 0) return options.map((o) => (o.lane ? delayedPriority(o.lane) : undefined));
  const clocks = new Map<DeliveryLane, number>();
  for (const lane of lanes) {
    const { low, high } = laneBand(lane);
    const [row] = (await db.executeSql(CLOCK_SQL, [queue, low, lane, high])).rows as Array<{ clock: string | number }>;
    clocks.set(lane, Number(row?.clock ?? 0));
  }
  const counts = new Map<string, { lane: DeliveryLane; tenant: string; n: number }>();
  for (const o of options) {
    if (!runnable(o) || !o.tenant) continue;
    const key = `${o.lane} ${o.tenant}`;
    const entry = counts.get(key) ?? { lane: o.lane, tenant: o.tenant, n: 0 };
    entry.n += 1;
    counts.set(key, entry);
  }
  const next = new Map<string, number>();
  if (counts.size > 0) {
    const entries = [...counts.values()];
    const rows = (await db.executeSql(TAKE_SQL, [entries.map((e) => e.lane), entries.map((e) => e.tenant), entries.map((e) => clocks.get(e.lane)!), entries.map((e) => e.n)])).rows as Array<{ lane: string; organization_id: string; last_tag: string | number }>;
    for (const row of rows) next.set(`${row.lane} ${row.organization_id}`, Number(row.last_tag) - counts.get(`${row.lane} ${row.organization_id}`)!.n + 1);
  }
  return options.map((o) => {
    if (!o.lane) return undefined;
    if (!runnable(o)) return delayedPriority(o.lane);
    if (!o.tenant) return lanePriority(o.lane, clocks.get(o.lane)! + 1);
    const key = `${o.lane} ${o.tenant}`;
    const tag = next.get(key)!;
    next.set(key, tag + 1);
    return lanePriority(o.lane, tag);
  });
}
