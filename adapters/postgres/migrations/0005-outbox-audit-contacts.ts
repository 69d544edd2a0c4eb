import type { Migration } from './migration.ts';

/** The webhook event outbox, the administrative audit log and contacts (the seams issues 5-8 build on). */
export const outboxAuditContacts: Migration = {
  id: '0005-outbox-audit-contacts',
  statements: [
    `create table outbound_events (
      id text primary key,
      organization_id text not null,
      kind text not null,
      data jsonb not null,
      occurred_at timestamptz not null
    )`,
    `create index outbound_events_org_time on outbound_events (organization_id, occurred_at desc, id desc)`,
    `create table audit_log (
      id text primary key,
      actor_user_id text not null,
      impersonator_user_id text null,
      organization_id text null,
      action text not null,
      target text null,
      details jsonb not null default '{}',
      created_at timestamptz not null
    )`,
    `create index audit_log_time on audit_log (created_at desc, id desc)`,
    `create index audit_log_org_time on audit_log (organization_id, created_at desc, id desc)`,
    `create table contacts (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      first_name text null,
      last_name text null,
      phone text null,
      email text null,
      country_code text not null default 'GH',
      tags jsonb not null default '[]',
      fcm_token text null,
      opted_out_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    `create unique index contacts_org_phone on contacts (organization_id, phone) where phone is not null`,
    `create unique index contacts_org_email on contacts (organization_id, email) where email is not null`,
    `create index contacts_org_created on contacts (organization_id, created_at desc, id desc)`,
  ],
};
