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
 * branch once per connection and reuses it. `jit = off` because a generic plan's cost (priced for
 * 10 % of the rows) crosses `jit_above_cost`, and compiling takes 50-80 ms for a 1 ms list.
 *
 * One branch per filter combination, so each plan keeps the (organization_id[, status][, channel],
 * created_at desc, id desc) index that serves it. The keyset bound (created_at, id) < (before_at,
 * before_id) is always present: ('infinity', '') for a first page, so the same plan serves the pages
 * and the export's chunks.
 */
const PAGE = `create or replace function nkra_delivery_log_page(org text, st text, ch text, before_at timestamptz, before_id text, lim integer, skip integer)
returns setof messages language plpgsql stable set plan_cache_mode = force_generic_plan set jit = off as $$
begin
  if st is null and ch is null then
    return query select * from messages m where m.organization_id = org
      and (m.created_at, m.id) < (before_at, before_id) order by m.created_at desc, m.id desc limit lim offset skip;
  elsif ch is null then
    return query select * from messages m where m.organization_id = org and m.status = st
      and (m.created_at, m.id) < (before_at, before_id) order by m.created_at desc, m.id desc limit lim offset skip;
  elsif st is null then
    return query select * from messages m where m.organization_id = org and m.channel = ch
      and (m.created_at, m.id) < (before_at, before_id) order by m.created_at desc, m.id desc limit lim offset skip;
  else
    return query select * from messages m where m.organization_id = org and m.status = st and m.channel = ch
      and (m.created_at, m.id) < (before_at, before_id) order by m.created_at desc, m.id desc limit lim offset skip;
  end if;
end $$`;

/** The logs matching a filter, counted up to `cap` (an index-only scan of a bounded range). */
const COUNT = `create or replace function nkra_delivery_log_count(org text, st text, ch text, cap integer)
returns bigint language plpgsql stable set plan_cache_mode = force_generic_plan set jit = off as $$
declare n bigint;
begin
  if st is null and ch is null then
    select count(*) into n from (select 1 from messages m where m.organization_id = org limit cap) c;
  elsif ch is null then
    select count(*) into n from (select 1 from messages m where m.organization_id = org and m.status = st limit cap) c;
  elsif st is null then
    select count(*) into n from (select 1 from messages m where m.organization_id = org and m.channel = ch limit cap) c;
  else
    select count(*) into n from (select 1 from messages m where m.organization_id = org and m.status = st and m.channel = ch limit cap) c;
  end if;
  return n;
end $$`;

export const deliveryLogStatements: Migration = {
  id: '0041-delivery-log-statements',
  statements: [PAGE, COUNT],
};
