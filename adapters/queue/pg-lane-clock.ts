import type { DeliveryLane } from '../../core/domain/delivery-lane.ts';
import type { EnqueueOptions } from '../../core/ports/job-queue.ts';
import { delayedPriority, FAIR_QUANTUM, laneBand, lanePriority, regularTop, startsSparse } from './lane-priority.ts';

/** pg-boss's database interface: `executeSql` on a pool or on one transaction. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * The lane's clock (docs/adr/0036-delivery-lanes-and-fair-queueing.md): the first tag of the round of its
 * highest runnable waiting regular job (an index probe of pg-boss's job_i11 over the band's regular half),
 * else of its highest sparse one, or, when none waits, the largest tag ever given in the lane (everything
 * given has been served). Jobs at the band's floor (delayed jobs fallen due, saturated tags) carry no tag and
 * are left out: one would set the clock to the floor for good.
 */
const CLOCK_SQL = `select coalesce(
    (select ($5::bigint - max(priority)) * ${FAIR_QUANTUM} from pgboss.job
      where name = $1 and state < 'active' and not blocked and start_after <= pgboss.job_now() and priority > $2 and priority <= $5),
    (select ($4::bigint - max(priority)) * ${FAIR_QUANTUM} from pgboss.job
      where name = $1 and state < 'active' and not blocked and start_after <= pgboss.job_now() and priority > $5 and priority <= $4),
    (select max(last_tag) from delivery_fair_tags where lane = $3), 0)::float8 as clock`;

/**
 * Takes `n` tags per (lane, tenant) in one statement, rows locked in key order (no deadlock between two batches).
 * A tenant of weight w (delivery_tenant_limits, migration 0053) steps 1/w per job: `last_count` is the span taken.
 */
const TAKE_SQL = `insert into delivery_fair_tags as t (lane, organization_id, last_tag, last_count)
  select v.lane, v.organization_id, v.clock + (v.n - 1) * s.step, v.n * s.step
  from unnest($1::text[], $2::text[], $3::numeric[], $4::int[]) as v(lane, organization_id, clock, n)
  cross join lateral (select 1 / coalesce((select l.weight from delivery_tenant_limits l where l.organization_id = v.organization_id), 1) as step) s
  order by v.lane, v.organization_id
  on conflict (lane, organization_id) do update
    set last_tag = greatest(t.last_tag + excluded.last_count, excluded.last_tag), last_count = excluded.last_count
  returning lane, organization_id, last_tag::float8 as last_tag, last_count::float8 as last_count`;

/**
 * The pg-boss priority of each job (undefined: none), in order: runnable jobs of a tenant get consecutive
 * fair-queueing tags after its backlog and the lane's clock; jobs without a tenant start at the clock;
 * delayed jobs sit at their band's floor.
 */
export async function lanePriorities(db: SqlExecutor, queue: string, options: readonly EnqueueOptions[]): Promise<Array<number | undefined>> {
  const runnable = (o: EnqueueOptions): o is EnqueueOptions & { lane: DeliveryLane } => o.lane !== undefined && (!o.startAfterSeconds || o.fairTag === true);
  const lanes = [...new Set(options.filter(runnable).map((o) => o.lane))];
  if (lanes.length === 0) return options.map((o) => (o.lane ? delayedPriority(o.lane) : undefined));
  const clocks = new Map<DeliveryLane, number>();
  for (const lane of lanes) {
    const { low, high } = laneBand(lane);
    const [row] = (await db.executeSql(CLOCK_SQL, [queue, low, lane, high, regularTop(lane)])).rows as Array<{ clock: string | number }>;
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
  const next = new Map<string, { tag: number; step: number; sparse: boolean }>();
  if (counts.size > 0) {
    const entries = [...counts.values()];
    const rows = (await db.executeSql(TAKE_SQL, [entries.map((e) => e.lane), entries.map((e) => e.tenant), entries.map((e) => clocks.get(e.lane)!), entries.map((e) => e.n)])).rows as Array<{ lane: string; organization_id: string; last_tag: string | number; last_count: string | number }>;
    for (const row of rows) {
      const key = `${row.lane} ${row.organization_id}`;
      const step = Number(row.last_count) / counts.get(key)!.n;
      const tag = Number(row.last_tag) - Number(row.last_count) + step;
      next.set(key, { tag, step, sparse: startsSparse(tag, clocks.get(row.lane as DeliveryLane)!) });
    }
  }
  return options.map((o) => {
    if (!o.lane) return undefined;
    if (!runnable(o)) return delayedPriority(o.lane);
    if (!o.tenant) return lanePriority(o.lane, clocks.get(o.lane)! + 1);
    const key = `${o.lane} ${o.tenant}`;
    const taken = next.get(key)!;
    next.set(key, { tag: taken.tag + taken.step, step: taken.step, sparse: false });
    return lanePriority(o.lane, taken.tag, taken.sparse);
  });
}
