import type { Migration } from './migration.ts';

/** Contacts search/keyset indexes, CSV import jobs and their file chunks, segments (static membership), campaigns and recipients. */
export const audience: Migration = {
  id: '0006-audience',
  statements: [
    `create index contacts_org_id on contacts (organization_id, id)`,
    `create index contacts_org_tags on contacts using gin (tags jsonb_path_ops)`,
    `create table contact_imports (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      status text not null,
      file_name text null,
      size_bytes bigint not null,
      total_rows integer not null,
      rows_done integer not null default 0,
      created integer not null default 0,
      updated integer not null default 0,
      skipped integer not null default 0,
      error_count integer not null default 0,
      errors jsonb not null default '[]',
      failure_reason text null,
      created_by_user_id text null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      finished_at timestamptz null
    )`,
    `create index contact_imports_org_created on contact_imports (organization_id, created_at desc)`,
    `create table contact_import_chunks (
      import_id text not null references contact_imports (id) on delete cascade,
      seq integer not null,
      data bytea not null,
      primary key (import_id, seq)
    )`,
    `create table segments (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      name text not null,
      description text null,
      rules jsonb not null,
      is_dynamic boolean not null,
      created_by_user_id text null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    `create index segments_org_created on segments (organization_id, created_at desc, id desc)`,
    `create table segment_members (
      segment_id text not null references segments (id) on delete cascade,
      contact_id text not null references contacts (id) on delete cascade,
      primary key (segment_id, contact_id)
    )`,
    `create index segment_members_contact on segment_members (contact_id)`,
    `create table campaigns (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      name text not null,
      channel text not null,
      template_id text null,
      segment_id text null,
      scheduled_at timestamptz null,
      status text not null,
      approval_request_id text null,
      risk_score integer null,
      cursor_contact_id text null,
      fan_out_done boolean not null default false,
      failure_reason text null,
      created_by_user_id text null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      started_at timestamptz null,
      completed_at timestamptz null,
      cancelled_at timestamptz null
    )`,
    `create index campaigns_org_created on campaigns (organization_id, created_at desc, id desc)`,
    `create table campaign_recipients (
      campaign_id text not null references campaigns (id) on delete cascade,
      contact_id text not null,
      message_id text null,
      skip_reason text null,
      primary key (campaign_id, contact_id)
    )`,
  ],
};
