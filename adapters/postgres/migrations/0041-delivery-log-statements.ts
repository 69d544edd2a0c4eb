import type { Migration } from './migration.ts';

/**
 * The delivery-log list, count and export chunks as SQL functions whose statements keep a generic plan
 * per connection (docs/adr/0030-delivery-log-generic-plans.md).
 *
 * On the partitioned `messages` (0040) a list without a date range cannot prune: planning it reads
 * every monthly partition and its indexes, 2-3 ms on an idle server against 0.2 ms for the whole
 * statement's execution. A plain prepared statement does not help: with LIMIT and OFFSET as parameters
 * PostgreSQL prices the generic plan at 10 % of the rows and keeps re-planning. Inside these functions
 * `plan_cache_mode = force_generic_plan` holds only for their own statements: PL/pgSQL plans each
 * branch once per connection and reuses it.
 *
 * A generic plan priced for 10 % of an organization's rows would also pick a full scan and a sort (even
 * in parallel) over the ordered index scans the list needs, and would be JIT-compiled (50-80 ms): the
 * functions turn sorts, sequential scans, parallel plans and JIT off for their own statements, which
 * leaves the index scans (and a sort only where nothing else can answer).
 *
 * One branch per filter combination, so each plan keeps the (organization_id[, status][, channel],
 * created_at desc, id desc) index that serves it.
 */
/** The functions' own settings (also used by migration 0042). */
export const SETTINGS = `set plan_cache_mode = force_generic_plan set jit = off set enable_sort = off set enable_seqscan = off
  set max_parallel_workers_per_gather = 0`;

/** The four filter combinations: the condition each adds, on the alias `a`. */
export const FILTERS: ReadonlyArray<[string, string]> = [
  ['st is null and ch is null', ''],
  ['ch is null', ' and a.status = st'],
  ['st is null', ' and a.channel = ch'],
  ['', ' and a.status = st and a.channel = ch'], // else
];

/** One static branch per filter combination, at `indent` (the if/elsif/else/end if lines). */
export const branches = (statement: (filter: string) => string, indent = '  ') =>
  FILTERS.map(([test, filter], i) => `${indent}${i === 0 ? 'if' : i === FILTERS.length - 1 ? 'else' : 'elsif'}${i === FILTERS.length - 1 ? '' : ` ${test} then`}\n${indent}  ${statement(filter)};`).join('\n') + `\n${indent}end if;`;

/**
 * A page by offset. The rows to skip are counted on the index alone (the ids of the page, an
 * index-only scan), then only the page's rows are read, one primary-key lookup each (pruned to its
 * partition at run time): a deep page no longer reads the heap rows it skips.
 */
const PAGE = `create or replace function nkra_delivery_log_page(org text, st text, ch text, lim integer, skip integer)
returns setof messages language plpgsql stable ${SETTINGS} as $$
begin
${branches((f) => `return query select m.* from (select a.id, a.created_at from messages a where a.organization_id = org${f}
      order by a.created_at desc, a.id desc limit lim offset skip) k
      cross join lateral (select * from messages x where x.id = k.id and x.organization_id = org limit 1) m
      order by k.created_at desc, k.id desc`)}
end $$`;

/** The export's chunk after the keyset (created_at, id) of the previous chunk's last row. */
const CHUNK = `create or replace function nkra_delivery_log_chunk(org text, st text, ch text, before_at timestamptz, before_id text, lim integer)
returns setof messages language plpgsql stable ${SETTINGS} as $$
begin
${branches((f) => `return query select * from messages a where a.organization_id = org${f}
      and (a.created_at, a.id) < (before_at, before_id) order by a.created_at desc, a.id desc limit lim`)}
end $$`;

/** The logs matching a filter, counted up to `cap` (an index-only scan of a bounded range). */
const COUNT = `create or replace function nkra_delivery_log_count(org text, st text, ch text, cap integer)
returns bigint language plpgsql stable ${SETTINGS} as $$
declare n bigint;
begin
${branches((f) => `select count(*) into n from (select 1 from messages a where a.organization_id = org${f} limit cap) c`)}
  return n;
end $$`;

export const deliveryLogStatements: Migration = {
  id: '0041-delivery-log-statements',
  statements: [PAGE, CHUNK, COUNT],
};
