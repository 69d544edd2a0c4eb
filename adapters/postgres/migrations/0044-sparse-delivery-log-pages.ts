import type { Migration } from './migration.ts';
import { SETTINGS, branches } from './0041-delivery-log-statements.ts';
import { DEFERRED, DIRECT, IDS, NEWER, OUTSIDE_RUN, SHALLOW } from './0042-delivery-log-month-counts.ts';

/**
 * The delivery-log page with fewer statements where 0042's took the most (docs/adr/0032-counted-months.md,
 * "Sparse filters and deep pages").
 *
 * - **A shallow page of a sparse filter** (its counted months hold, on average, fewer rows than the
 *   page reaches: PENDING and VOICE, a few logs a month) took four statements: the newer logs, the month
 *   counts, the ids from the counted months and their rows. When the counted months hold the page's
 *   reach, the counts now pick the newest months that hold it, and one statement reads the page from
 *   those months and every month not counted, the older months pruned away.
 * - **A page past the newer logs** (a deep page of a filter with a few thousand logs a month) read the
 *   newer logs twice: once for the page, which they did not reach, and once more to count them before
 *   the month walk. The first read now numbers its rows, so the same scan yields both the page's rows
 *   among them and, when they run short, how many there are.
 * - The row lookups of a page read among the newer logs of a shallow page skip the counted months'
 *   partitions (pruned when the executor starts), which those rows are never in.
 */

/** The same id condition on the lookup alias `x`. */
const onLookup = (condition: string) => condition.replace(/\ba\.id\b/g, 'x.id');

/** The rows of `ids`, in their order, one primary-key lookup each. */
const ROWS_OF = `select m.* from unnest(ids) with ordinality u(id, i)
        cross join lateral (select * from messages x where x.id = u.id and x.organization_id = org limit 1) m order by u.i`;

/** The filter's counted months with their counts and id bounds. */
const MONTHS = `select c.month, c.messages, c.newest_at, c.oldest_at, m.lo, m.hi from message_month_counts c
          join message_counted_months m on m.month = c.month and m.counted
          where c.organization_id = org and c.status = coalesce(st, '*') and c.channel = coalesce(ch, '*')
            and c.month between run.first_month and run.last_month`;

/** The months of the counted run. */
const RUN_MONTHS = `((date_part('year', run.last_month) - date_part('year', run.first_month)) * 12
      + date_part('month', run.last_month) - date_part('month', run.first_month) + 1)`;

/** Every month newer than `from_id`'s, and every month not counted. */
const FROM_MONTHS = ' and (a.id >= from_id or a.id < run.run_lo)';

/**
 * `statement` over the newer logs, one branch per filter, bounded to the partitions outside the counted
 * run for a shallow page (for a deep one, that id check on every entry read costs more than the counted
 * partitions' first index entries).
 */
const OVER_NEWER = (statement: (filter: string, bound: string) => string, indent: string) => `${indent}if skip + lim <= ${SHALLOW} then
${branches((f) => statement(f, NEWER + OUTSIDE_RUN), indent + '  ')}
${indent}else
${branches((f) => statement(f, NEWER), indent + '  ')}
${indent}end if;`;

/** The newer logs counted, up to `cap`. */
const COUNT_NEWER = (cap: string) => (f: string, bound: string) => `select count(*) into newer from (select 1 from messages a where a.organization_id = org${f}${bound} limit ${cap}) c`;

const PAGE = `create or replace function nkra_delivery_log_page(org text, st text, ch text, lim integer, skip integer)
returns setof messages language plpgsql stable ${SETTINGS} as $$
declare
  run record;
  r record;
  n bigint := 0;
  newer bigint := 0;
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
  -- A shallow page of a sparse filter: from the newest counted months that hold it (and the months not counted),
  -- exact when every month left out is older than those kept (the kept ones alone hold skip + lim rows at least
  -- as new as their oldest log, so every row left out ranks below the page).
  if skip + lim <= ${DIRECT} and run.counted >= skip + lim and run.counted < (skip + lim)::bigint * ${RUN_MONTHS} then
    select min(w.lo) filter (where w.cum - w.messages < skip + lim), min(w.oldest_at) filter (where w.cum - w.messages < skip + lim),
        max(w.newest_at) filter (where w.cum - w.messages >= skip + lim)
      into from_id, oldest, left_out
      from (select c.*, sum(c.messages) over (order by c.month desc) as cum from (${MONTHS}) c) w;
    if left_out is null or left_out < oldest then
${branches((f) => `return query select a.* from messages a where a.organization_id = org${f}${FROM_MONTHS}
        order by a.created_at desc, a.id desc limit lim offset skip`, '      ')}
      return;
    end if;
    from_id := null; oldest := null; left_out := null;
  end if;
  -- The page among the logs newer than the newest counted one (in practice, this month's).
  if skip + lim <= ${DIRECT} then
${branches((f) => `return query select a.* from messages a where a.organization_id = org${f}${NEWER}${OUTSIDE_RUN}
        order by a.created_at desc, a.id desc limit lim offset skip`, '    ')}
    get diagnostics n = row_count;
    if n >= lim then return; end if;
    if n = 0 then
${branches((f) => COUNT_NEWER('skip')(f, NEWER + OUTSIDE_RUN), '      ')}
    end if;
  elsif skip < run.counted / ${RUN_MONTHS} then
    -- Expected among them (fewer rows to skip than the filter's average counted month): read there first.
${OVER_NEWER((f, bound) => `return query ${DEFERRED(IDS(f, bound, 'lim', ' offset skip'), onLookup(OUTSIDE_RUN))}`, '    ')}
    get diagnostics n = row_count;
    if n >= lim then return; end if;
    if n = 0 then
${OVER_NEWER(COUNT_NEWER('skip'), '      ')}
    end if;
  else
    -- Expected past them: count them first (on the index alone), and read only the page's rows among them, if any.
${OVER_NEWER(COUNT_NEWER('skip + lim'), '    ')}
    n := least(greatest(newer - skip, 0), lim);
    if n > 0 then
${OVER_NEWER((f, bound) => `return query ${DEFERRED(IDS(f, bound, 'n', ' offset skip'), onLookup(OUTSIDE_RUN))}`, '      ')}
      if n >= lim then return; end if;
    end if;
  end if;
  if n = 0 then
    -- The page starts past the newer logs (newer of them). When no uncounted log is as old as the newest counted
    -- one, and the counted months follow one another in time, the page is found month by month from their counts.
${branches((f) => `select count(*) into found_rows from (select 1 from messages a where a.organization_id = org${f}
        and a.created_at <= run.newest${OUTSIDE_RUN} limit 1) s`, '    ')}
    if found_rows = 0 then
      rest := skip - newer;
      if rest >= run.counted then return; end if; -- past the last log
      need := lim;
      ids := '{}';
      for r in ${MONTHS} order by c.month desc loop
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
        return query ${ROWS_OF};
        return;
      end if;
    end if;
${branches((f) => `return query ${DEFERRED(IDS(f, '', 'lim', ' offset skip'))}`, '    ')}
    return;
  end if;
  -- The newer logs ran short inside the page: the rest from the newest counted months that hold it, kept when
  -- its oldest row is newer than every counted row of the months left out.
  need := lim - n;
  for r in ${MONTHS} order by c.month desc loop
    if held >= need then left_out := greatest(left_out, r.newest_at);
    else held := held + r.messages; from_id := r.lo;
    end if;
  end loop;
  if held >= need then
${branches((f) => `select array_agg(k.id order by k.created_at desc, k.id desc), min(k.created_at), count(*) into ids, oldest, found_rows
      from (${IDS(f, ' and a.created_at <= run.newest' + FROM_MONTHS, 'need')}) k`, '    ')}
    if found_rows = need and (left_out is null or oldest > left_out) then
      return query ${ROWS_OF};
      return;
    end if;
  end if;
${branches((f) => `return query ${DEFERRED(IDS(f, ' and a.created_at <= run.newest', 'need'))}`)}
end $$`;

export const sparseDeliveryLogPages: Migration = {
  id: '0044-sparse-delivery-log-pages',
  statements: [PAGE],
};
