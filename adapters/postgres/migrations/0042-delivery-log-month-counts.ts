import type { Migration } from './migration.ts';
import { SETTINGS, branches } from './0041-delivery-log-statements.ts';

/**
 * Counted months (docs/adr/0032-counted-months.md): the delivery-log list, its capped total and the
 * export stop reading the past months' rows once those months are counted.
 *
 * - `message_month_counts` holds, per organization and counted month of `messages`, the rows of each
 *   status and channel and the newest `created_at` among them. The worker's partition upkeep writes it
 *   for the months before the current one (adapters/postgres/month-counts.ts).
 * - `message_counted_months` marks a partition whose counts are exact. A row-level trigger on each
 *   counted partition deletes the mark in the same transaction as any insert, update or delete of one
 *   of its rows (rare: those rows are at least a month old), so a reader that sees the change also
 *   sees the mark gone, and reads that month's rows instead. Dropping or detaching a partition deletes
 *   its mark in the same transaction.
 * - The total is the counted figures of the newest unbroken run of counted months, plus the rows
 *   outside that run (the current month, the months ahead, the DEFAULT partition: pruned by their id
 *   bounds at run time), up to the cap.
 * - A page or an export chunk is first read among the logs newer than the newest counted log of the
 *   filter. Those come first in the list's order (created_at desc, id desc) whatever partition holds
 *   them, so this is exact; in each counted month the index scan ends at its first entry. When they run
 *   short, the rest is read from the others.
 */
const TABLES = [
  `create table message_counted_months (
    partition_name text primary key,
    relid oid not null,
    month date not null,
    lo text not null,
    hi text not null,
    counted boolean not null default false,
    counted_at timestamptz null
  )`,
  // Per organization and month: one row per (status, channel), plus '*' rows summing over either or both
  // (grouping sets), so a list with any filter reads one row per counted month.
  `create table message_month_counts (
    organization_id text not null,
    status text not null,
    channel text not null,
    month date not null,
    messages bigint not null,
    newest_at timestamptz not null,
    oldest_at timestamptz not null,
    primary key (organization_id, status, channel, month)
  )`,
  'create index message_month_counts_month on message_month_counts (month)',
];

/** Fired for each row written in a counted partition, and on its truncation: its counts are no longer exact. */
const UNCOUNT = `create or replace function nkra_uncount_month() returns trigger language plpgsql as $$
begin
  delete from message_counted_months where partition_name = tg_table_name;
  return null;
end $$`;

/**
 * The counted months, when they are one unbroken run ([run_lo, run_hi) in ids, first_month to
 * last_month), and for one organization and filter the rows counted in it and the newest created_at
 * among them (null when none match). A gap (a month in the middle written to since it was counted)
 * leaves run_lo null until the next upkeep counts it again: every read then goes over all partitions.
 * One statement: this runs before every list, count and export chunk.
 */
const COUNTED_RUN = `create or replace function nkra_counted_run(org text, st text, ch text,
  out run_lo text, out run_hi text, out counted bigint, out newest timestamptz, out first_month date, out last_month date)
language plpgsql stable set plan_cache_mode = force_generic_plan set jit = off as $$
begin
  select g.lo, g.hi, coalesce(c.n, 0), c.newest, g.first_month, g.last_month into run_lo, run_hi, counted, newest, first_month, last_month
  from (select min(m.lo) as lo, max(m.hi) as hi, min(m.month) as first_month, max(m.month) as last_month, count(*) as months
        from message_counted_months m
        -- Only marks of partitions still attached (a month dropped or detached by hand, without the upkeep, stops counting).
        join pg_inherits i on i.inhrelid = m.relid and i.inhparent = 'messages'::regclass
        where m.counted) g
  cross join lateral (select sum(c.messages) as n, max(c.newest_at) as newest from message_month_counts c
        where c.organization_id = org and c.status = coalesce(st, '*') and c.channel = coalesce(ch, '*')
          and c.month between g.first_month and g.last_month) c
  where g.months = (date_part('year', g.last_month) - date_part('year', g.first_month)) * 12
    + date_part('month', g.last_month) - date_part('month', g.first_month) + 1;
  counted := coalesce(counted, 0);
end $$`;

/** Rows outside the counted run: their ids are at or above the run or below it (pruned to those partitions at run time). */
export const OUTSIDE_RUN = ' and (a.id >= run.run_hi or a.id < run.run_lo)';

/** Rows newer than every counted row of the filter: a prefix of the list's order, which the counted months' indexes end at once. */
export const NEWER = ' and a.created_at > run.newest';

/** Pages this shallow read their rows straight from the index scan (no rows skipped, so no deferred join). */
export const DIRECT = 100;
/** A page at most this deep is read with the counted months pruned away: a per-row id check, cheaper than opening them on a short read. */
export const SHALLOW = 1_000;

/** A page among `rows` by offset: the ids by the index alone, then each row by primary key (`lookup`: a further condition on `x`). */
export const DEFERRED = (rows: string, lookup = '') => `select m.* from (${rows}) k
      cross join lateral (select * from messages x where x.id = k.id and x.organization_id = org${lookup} limit 1) m
      order by k.created_at desc, k.id desc`;
export const IDS = (f: string, bound: string, limit: string, offset = '') => `select a.id, a.created_at from messages a where a.organization_id = org${f}${bound}
      order by a.created_at desc, a.id desc limit ${limit}${offset}`;

/**
 * A page is first read among the logs newer than the newest counted log of its filter (in practice, the
 * current month's). Those come first in the list's order, so when they fill the page it is exact. A
 * shallow page also skips the counted months' partitions by id, since every newer log is outside them;
 * a deep one does not, as the id check on every skipped entry would cost more than those partitions'
 * first index entries.
 *
 * When the newer logs run short inside the page, the rest comes from the newest counted months that
 * hold enough rows of the filter (pruned by id), and is kept only if its oldest row is newer than every
 * counted row of the months left out. A page that starts past the newer logs is found from the counts:
 * the months before it are skipped whole, and it is read from the month (or months) it falls in, pruned
 * by id, when the counted months follow one another in time and no uncounted log is as old as the newest
 * counted one. A page past the last log is answered empty without reading a row. Otherwise the page is
 * read over every partition, as in migration 0041.
 */
const PAGE = `create or replace function nkra_delivery_log_page(org text, st text, ch text, lim integer, skip integer)
returns setof messages language plpgsql stable ${SETTINGS} as $$
declare
  run record;
  r record;
  n bigint;
  need integer;
  held bigint := 0;
  from_id text;
  left_out timestamptz;
  ids text[];
  oldest timestamptz;
  found_rows bigint;
  rest bigint;
  walked integer := 0;
  previous timestamptz;
begin
  select * into run from nkra_counted_run(org, st, ch);
  if run.newest is null then
${branches((f) => `return query ${DEFERRED(IDS(f, '', 'lim', ' offset skip'))}`, '    ')}
    return;
  end if;
  if skip + lim <= ${DIRECT} then
${branches((f) => `return query select a.* from messages a where a.organization_id = org${f}${NEWER}${OUTSIDE_RUN}
        order by a.created_at desc, a.id desc limit lim offset skip`, '    ')}
  elsif skip + lim <= ${SHALLOW} then
${branches((f) => `return query ${DEFERRED(IDS(f, NEWER + OUTSIDE_RUN, 'lim', ' offset skip'))}`, '    ')}
  else
${branches((f) => `return query ${DEFERRED(IDS(f, NEWER, 'lim', ' offset skip'))}`, '    ')}
  end if;
  get diagnostics n = row_count;
  if n >= lim then return; end if;
  if n = 0 then
    -- The page starts past the newer logs. When no uncounted log is as old as the newest counted one, and the
    -- counted months follow one another in time, the page is found month by month from their counts.
${branches((f) => `select count(*) into n from messages a where a.organization_id = org${f}${NEWER}`, '    ')}
${branches((f) => `select count(*) into found_rows from (select 1 from messages a where a.organization_id = org${f}
        and a.created_at <= run.newest${OUTSIDE_RUN} limit 1) s`, '    ')}
    if found_rows = 0 then
      rest := skip - n;
      if rest >= run.counted then return; end if; -- past the last log
      need := lim;
      ids := '{}';
      for r in select c.messages, c.newest_at, c.oldest_at, m.lo, m.hi from message_month_counts c
          join message_counted_months m on m.month = c.month and m.counted
          where c.organization_id = org and c.status = coalesce(st, '*') and c.channel = coalesce(ch, '*')
            and c.month between run.first_month and run.last_month order by c.month desc loop
        exit when previous is not null and r.newest_at >= previous; -- months overlapping in time: not in order
        previous := r.oldest_at;
        walked := walked + 1;
        if rest >= r.messages then
          rest := rest - r.messages;
          continue;
        end if;
${branches((f) => `ids := ids || coalesce((select array_agg(k.id order by k.created_at desc, k.id desc) from (select a.id, a.created_at from messages a
            where a.organization_id = org${f} and a.id >= r.lo and a.id < r.hi order by a.created_at desc, a.id desc limit need offset rest) k), '{}')`, '        ')}
        need := lim - cardinality(ids);
        rest := 0;
        exit when need <= 0;
      end loop;
      if need <= 0 or walked = (select count(*) from message_month_counts c
          where c.organization_id = org and c.status = coalesce(st, '*') and c.channel = coalesce(ch, '*')
            and c.month between run.first_month and run.last_month) then
        return query select m.* from unnest(ids) with ordinality u(id, i)
          cross join lateral (select * from messages x where x.id = u.id and x.organization_id = org limit 1) m order by u.i;
        return;
      end if;
    end if;
${branches((f) => `return query ${DEFERRED(IDS(f, '', 'lim', ' offset skip'))}`, '    ')}
    return;
  end if;
  need := lim - n;
  for r in select c.messages, c.newest_at, m.lo from message_month_counts c join message_counted_months m on m.month = c.month and m.counted
      where c.organization_id = org and c.status = coalesce(st, '*') and c.channel = coalesce(ch, '*')
        and c.month between run.first_month and run.last_month order by c.month desc loop
    if held >= need then left_out := greatest(left_out, r.newest_at);
    else held := held + r.messages; from_id := r.lo;
    end if;
  end loop;
  if held >= need then
${branches((f) => `select array_agg(k.id order by k.created_at desc, k.id desc), min(k.created_at), count(*) into ids, oldest, found_rows
      from (${IDS(f, ' and a.created_at <= run.newest and (a.id >= from_id or a.id < run.run_lo)', 'need')}) k`, '    ')}
    if found_rows = need and (left_out is null or oldest > left_out) then
      return query select m.* from unnest(ids) with ordinality u(id, i)
        cross join lateral (select * from messages x where x.id = u.id and x.organization_id = org limit 1) m order by u.i;
      return;
    end if;
  end if;
${branches((f) => `return query ${DEFERRED(IDS(f, ' and a.created_at <= run.newest', 'need'))}`)}
end $$`;

/**
 * The export's chunk after the keyset (created_at, id) of the previous chunk's last row: first among the
 * logs newer than the newest counted one, then (when that runs short) among the others.
 */
const CHUNK_OF = (f: string, bound: string, limit: string) => `return query select * from messages a where a.organization_id = org${f}${bound}
      and (a.created_at, a.id) < (before_at, before_id) order by a.created_at desc, a.id desc limit ${limit}`;

const CHUNK = `create or replace function nkra_delivery_log_chunk(org text, st text, ch text, before_at timestamptz, before_id text, lim integer)
returns setof messages language plpgsql stable ${SETTINGS} as $$
declare
  run record;
  n bigint := 0;
begin
  select * into run from nkra_counted_run(org, st, ch);
  if run.newest is not null then
${branches((f) => CHUNK_OF(f, NEWER, 'lim'), '    ')}
    get diagnostics n = row_count;
    if n >= lim then return; end if;
${branches((f) => CHUNK_OF(f, ' and a.created_at <= run.newest', 'lim - n'), '    ')}
    return;
  end if;
${branches((f) => CHUNK_OF(f, '', 'lim'))}
end $$`;

/** The logs matching a filter, counted up to `cap`: the counted months' figures plus the other months' rows. */
const COUNT = `create or replace function nkra_delivery_log_count(org text, st text, ch text, cap integer)
returns bigint language plpgsql stable ${SETTINGS} as $$
declare
  run record;
  n bigint;
begin
  select * into run from nkra_counted_run(org, st, ch);
  if run.run_lo is null then
${branches((f) => `select count(*) into n from (select 1 from messages a where a.organization_id = org${f} limit cap) c`, '    ')}
    return n;
  end if;
  if run.counted >= cap then return cap; end if;
${branches((f) => `select count(*) into n from (select 1 from messages a where a.organization_id = org${f}${OUTSIDE_RUN} limit cap - run.counted) c`)}
  return n + run.counted;
end $$`;

export const deliveryLogMonthCounts: Migration = {
  id: '0042-delivery-log-month-counts',
  statements: [...TABLES, UNCOUNT, COUNTED_RUN, PAGE, CHUNK, COUNT],
};
