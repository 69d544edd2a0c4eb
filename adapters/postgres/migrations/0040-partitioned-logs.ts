import type { Migration } from './migration.ts';

/**
 * Monthly RANGE partitions on the UUIDv7 id (docs/adr/0027-partitioned-logs-and-retention.md):
 * `messages` by `id`, `message_attempts` and `message_status_events` by `message_id` (the same bounds,
 * so a month of delivery logs is three partitions dropped together), `outbound_events` by `id`.
 *
 * Column-agnostic: the conversion reads the live definition (columns, defaults, checks, generated
 * columns via LIKE; indexes, constraints and triggers via pg_get_*def) so columns and indexes added by
 * earlier migrations come along, and copies every row. A unique index or constraint without the
 * partition key cannot exist on a partitioned table: the conversion stops with an error unless the
 * index is listed as implied by the id (`messages.internal_message_id` is `msg_` + the id).
 * Foreign keys that point at a converted table (attempts and status events -> messages) would make
 * every partition drop scan the referencing table; they are replaced by a statement trigger that
 * applies their ON DELETE action (`partition_references`).
 */

/** The first 13 characters of every UUIDv7 made from the first millisecond of the UTC month `m`: the partition bound. */
const MONTH_BOUND = `create or replace function nkra_month_bound(m date) returns text language sql immutable as $$
  select substr(h, 1, 8) || '-' || substr(h, 9, 4)
  from (select lpad(to_hex((extract(epoch from (m::timestamp at time zone 'UTC')) * 1000)::bigint), 12, '0') as h) x
$$`;

/** The partition of month `m` (`<parent>_pYYYYMM`); rows of that month parked in the DEFAULT partition move into it. Returns false when it exists. */
const CREATE_MONTH_PARTITION = `create or replace function nkra_create_month_partition(parent text, m date) returns boolean language plpgsql as $$
declare
  part text := parent || '_p' || to_char(m, 'YYYYMM');
  lo text := nkra_month_bound(m);
  hi text := nkra_month_bound((m + interval '1 month')::date);
  def text := parent || '_default';
  key text;
  columns text;
  parked boolean;
begin
  if to_regclass(part) is not null then return false; end if;
  select a.attname into key from pg_partitioned_table p join pg_attribute a on a.attrelid = p.partrelid and a.attnum = p.partattrs[0]
    where p.partrelid = parent::regclass;
  execute format('select exists (select 1 from %I where %I >= %L and %I < %L)', def, key, lo, key, hi) into parked;
  if not parked then
    execute format('create table %I partition of %I for values from (%L) to (%L)', part, parent, lo, hi);
    return true;
  end if;
  -- Move the parked rows: a standalone table, filled, then attached (straight into the partition would conflict with the default's rows).
  select string_agg(quote_ident(attname), ', ' order by attnum) into columns from pg_attribute
    where attrelid = parent::regclass and attnum > 0 and not attisdropped and attgenerated = '';
  execute format('create table %I (like %I including defaults including constraints including generated)', part, parent);
  execute format('insert into %I (%s) select %s from %I where %I >= %L and %I < %L', part, columns, columns, def, key, lo, key, hi);
  execute format('delete from %I where %I >= %L and %I < %L', def, key, lo, key, hi);
  execute format('alter table %I attach partition %I for values from (%L) to (%L)', parent, part, lo, hi);
  return true;
end $$`;

/** ON DELETE actions of the foreign keys that pointed at a partitioned table, applied by a statement trigger instead. */
const REFERENCES = `create table partition_references (
  parent_table text not null,
  parent_column text not null,
  child_table text not null,
  child_column text not null,
  on_delete text not null check (on_delete in ('CASCADE', 'SET NULL', 'NO ACTION')),
  primary key (parent_table, child_table, child_column)
)`;

const CASCADE = `create or replace function nkra_apply_partition_references() returns trigger language plpgsql as $$
declare r record;
begin
  for r in select * from partition_references where parent_table = tg_table_name and on_delete <> 'NO ACTION' order by child_table loop
    if r.on_delete = 'CASCADE' then
      execute format('delete from %I where %I in (select %I from old_rows)', r.child_table, r.child_column, r.parent_column);
    else
      execute format('update %I set %I = null where %I in (select %I from old_rows)', r.child_table, r.child_column, r.child_column, r.parent_column);
    end if;
  end loop;
  return null;
end $$`;

/**
 * Converts `tbl` into a table partitioned by RANGE (`key`) with a DEFAULT partition and monthly
 * partitions from the month of the oldest `since_table.since_column` to the current month (the worker creates the months ahead at start), from its live definition, keeping every row.
 * `implied_unique`: unique indexes/constraints without the key that may become plain indexes.
 */
const PARTITION_TABLE = `create or replace function nkra_partition_by_month(tbl text, key text, since_table text, since_column text, implied_unique text[]) returns void language plpgsql as $$
declare
  old text := tbl || '_unpartitioned';
  rel regclass := tbl::regclass;
  r record;
  after_copy text[] := '{}';
  columns text;
  m date;
  first_month timestamptz;
begin
  -- The first month: the oldest row's (of since_table.since_column), or this month.
  execute format('select min(%I) from %I', since_column, since_table) into first_month;
  first_month := least(coalesce(first_month, now()), now());
  -- Foreign keys pointing here: remembered in partition_references, applied by a trigger, dropped.
  for r in select c.conname, c.conrelid::regclass::text as child, a.attname as child_column, pa.attname as parent_column, c.confdeltype
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      join pg_attribute pa on pa.attrelid = c.confrelid and pa.attnum = c.confkey[1]
      where c.contype = 'f' and c.confrelid = rel and c.conparentid = 0 loop
    insert into partition_references values (tbl, r.parent_column, r.child, r.child_column,
      case r.confdeltype when 'c' then 'CASCADE' when 'n' then 'SET NULL' else 'NO ACTION' end) on conflict do nothing;
    execute format('alter table %s drop constraint %I', r.child, r.conname);
  end loop;
  -- Constraints (primary key, unique, foreign keys out; checks come with LIKE).
  for r in select c.conname, c.contype, pg_get_constraintdef(c.oid) as def, c.confrelid,
        exists (select 1 from unnest(c.conkey) k join pg_attribute a on a.attrelid = rel and a.attnum = k where a.attname = key) as has_key
      from pg_constraint c where c.conrelid = rel and c.contype in ('p', 'u', 'f', 'x') loop
    if r.contype = 'f' and exists (select 1 from pg_partitioned_table where partrelid = r.confrelid) then
      continue; -- a key into a partitioned table: recorded in partition_references by that table's conversion
    elsif r.contype = 'p' and not r.has_key then
      after_copy := after_copy || format('alter table %I add constraint %I %s', tbl, r.conname, replace(r.def, 'PRIMARY KEY (', 'PRIMARY KEY (' || quote_ident(key) || ', '));
    elsif r.contype = 'x' then
      raise exception 'cannot partition %: exclusion constraint %', tbl, r.conname;
    elsif r.contype = 'u' and not r.has_key then
      if not (r.conname = any (implied_unique)) then
        raise exception 'cannot partition %: unique constraint % does not include %', tbl, r.conname, key;
      end if;
      after_copy := after_copy || format('create index %I on %I %s', r.conname, tbl, substr(r.def, length('UNIQUE ') + 1));
    else
      after_copy := after_copy || format('alter table %I add constraint %I %s', tbl, r.conname, r.def);
    end if;
  end loop;
  -- Indexes that back no constraint.
  for r in select c.relname, i.indisunique, pg_get_indexdef(i.indexrelid) as def,
        exists (select 1 from unnest(i.indkey::int2[]) k join pg_attribute a on a.attrelid = rel and a.attnum = k where a.attname = key) as has_key
      from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = rel and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid and k.conrelid = rel) loop
    if r.indisunique and not r.has_key then
      if not (r.relname = any (implied_unique)) then
        raise exception 'cannot partition %: unique index % does not include %', tbl, r.relname, key;
      end if;
      after_copy := after_copy || regexp_replace(r.def, '^CREATE UNIQUE INDEX', 'CREATE INDEX');
    else
      after_copy := after_copy || r.def;
    end if;
  end loop;
  -- Triggers, recreated after the copy (so the copy does not fire the analytics roll-up triggers again).
  for r in select pg_get_triggerdef(t.oid) as def from pg_trigger t where t.tgrelid = rel and not t.tgisinternal order by t.tgname loop
    after_copy := after_copy || r.def;
  end loop;

  execute format('alter table %I rename to %I', tbl, old);
  execute format('create table %I (like %I including defaults including constraints including generated including identity including storage including comments) partition by range (%I)',
    tbl, old, key);
  execute format('create table %I partition of %I default', tbl || '_default', tbl);
  m := date_trunc('month', first_month at time zone 'UTC')::date;
  while m <= (date_trunc('month', now() at time zone 'UTC'))::date loop
    perform nkra_create_month_partition(tbl, m);
    m := (m + interval '1 month')::date;
  end loop;
  select string_agg(quote_ident(attname), ', ' order by attnum) into columns from pg_attribute
    where attrelid = old::regclass and attnum > 0 and not attisdropped and attgenerated = '';
  execute format('insert into %I (%s) select %s from %I', tbl, columns, columns, old);
  execute format('drop table %I', old);
  for i in 1 .. coalesce(array_length(after_copy, 1), 0) loop
    execute after_copy[i];
  end loop;
  if exists (select 1 from partition_references where parent_table = tbl) then
    execute format('create trigger %I after delete on %I referencing old table as old_rows for each statement execute function nkra_apply_partition_references()',
      tbl || '_references', tbl);
  end if;
end $$`;

export const partitionedLogs: Migration = {
  id: '0040-partitioned-logs',
  statements: [
    // Copying a large table takes longer than the pool's statement timeout; this transaction only.
    'set local statement_timeout = 0',
    MONTH_BOUND,
    CREATE_MONTH_PARTITION,
    REFERENCES,
    CASCADE,
    PARTITION_TABLE,
    // messages first: the foreign keys of attempts and status events into it are recorded and dropped, then those move.
    `select nkra_partition_by_month('messages', 'id', 'messages', 'created_at', '{messages_internal_message_id_key}')`,
    `select nkra_partition_by_month('message_attempts', 'message_id', 'messages', 'created_at', '{}')`,
    `select nkra_partition_by_month('message_status_events', 'message_id', 'messages', 'created_at', '{}')`,
    `select nkra_partition_by_month('outbound_events', 'id', 'outbound_events', 'occurred_at', '{}')`,
    // Webhook deliveries keep their unique (endpoint_id, event_id): batched deletes by age (retention), on this index.
    'create index webhook_deliveries_created on webhook_deliveries (created_at)',
    `create table retention_overrides (
      organization_id text primary key references organizations (id) on delete cascade,
      messages_months integer null check (messages_months is null or messages_months >= 1),
      webhook_deliveries_days integer null check (webhook_deliveries_days is null or webhook_deliveries_days >= 1),
      updated_at timestamptz not null default now()
    )`,
    `create table detached_partitions (
      table_name text primary key,
      parent_table text not null,
      month date not null,
      detached_at timestamptz not null default now(),
      claimed_until timestamptz null
    )`,
  ],
};
