import type { Migration } from './migration.ts';

/**
 * The organization's audit log (issue 34; docs/audit-log.md, docs/adr/0040-organization-audit-log.md):
 * - `org_audit_log`: append-only. A trigger refuses UPDATE, DELETE and TRUNCATE, except DELETE inside
 *   nkra_purge_org_audit_log (retention), which sets the transaction-local `nkra.org_audit_purge`.
 * - `org_audit_heads`: one row per organization, the chain's head (last seq and hash) and the last seq
 *   retention removed. Appends lock this row (`for update`), so one organization's appends are
 *   serialized and the hash chain never forks.
 * - `retention_overrides.audit_log_days`: an organization's retention of its audit log (null: the
 *   platform's RETENTION_AUDIT_LOG_DAYS).
 */
export const organizationAuditLog: Migration = {
  id: '0058-organization-audit-log',
  statements: [
    `create table org_audit_log (
      id text primary key,
      organization_id text not null,
      seq bigint not null,
      occurred_at timestamptz not null,
      actor jsonb not null,
      actor_id text not null,
      client_address text null,
      action text not null,
      target_type text not null,
      target_id text null,
      changes jsonb not null,
      request_id text null,
      prev_hash text not null,
      hash text not null,
      constraint org_audit_log_seq unique (organization_id, seq)
    )`,
    'create index org_audit_log_action on org_audit_log (organization_id, action, seq desc)',
    'create index org_audit_log_actor on org_audit_log (organization_id, actor_id, seq desc)',
    'create index org_audit_log_target on org_audit_log (organization_id, target_type, target_id, seq desc)',
    'create index org_audit_log_time on org_audit_log (organization_id, occurred_at)',
    `create table org_audit_heads (
      organization_id text primary key,
      last_seq bigint not null default 0,
      last_hash text not null,
      purged_through bigint not null default 0
    )`,
    `create function nkra_org_audit_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' and coalesce(current_setting('nkra.org_audit_purge', true), '') = 'on' then
        return old;
      end if;
      raise exception 'org_audit_log is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end $$`,
    `create trigger org_audit_log_append_only before update or delete on org_audit_log
      for each row execute function nkra_org_audit_append_only()`,
    `create trigger org_audit_log_no_truncate before truncate on org_audit_log
      for each statement execute function nkra_org_audit_append_only()`,
    // The one removal path: retention. Deletes one organization's entries older than the cutoff and records the last seq removed.
    `create function nkra_purge_org_audit_log(org text, cutoff timestamptz) returns integer language plpgsql as $$
    declare
      removed integer;
      through bigint;
    begin
      perform set_config('nkra.org_audit_purge', 'on', true);
      with gone as (delete from org_audit_log where organization_id = org and occurred_at < cutoff returning seq)
      select count(*), max(seq) into removed, through from gone;
      perform set_config('nkra.org_audit_purge', 'off', true);
      if removed > 0 then
        update org_audit_heads set purged_through = greatest(purged_through, through) where organization_id = org;
      end if;
      return removed;
    end $$`,
    'alter table retention_overrides add column audit_log_days integer null check (audit_log_days is null or audit_log_days >= 1)',
  ],
};
