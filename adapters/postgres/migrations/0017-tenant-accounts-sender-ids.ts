import type { Migration } from './migration.ts';

/**
 * Tenant-owned vendor accounts and sender IDs (docs/providers.md, docs/sender-ids.md):
 * - a provider may belong to one organization (its own vendor account; null: the platform's), with
 *   whether the platform's providers may take over when its own accounts fail; names are unique per owner;
 * - sender IDs an organization requested, with their review status, and its default sender.
 */
export const tenantAccountsSenderIds: Migration = {
  id: '0017-tenant-accounts-sender-ids',
  statements: [
    `alter table providers add column organization_id text null references organizations (id) on delete cascade`,
    `alter table providers add column platform_fallback boolean not null default true`,
    `alter table providers drop constraint providers_name_key`,
    `create unique index providers_platform_name on providers (name) where organization_id is null`,
    `create unique index providers_organization_name on providers (organization_id, name) where organization_id is not null`,
    `create table sender_ids (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      name text not null,
      purpose text not null,
      sample_message text not null,
      networks jsonb not null default '[]',
      status text not null check (status in ('PENDING','APPROVED','REJECTED')),
      approval_id text null,
      review_comment text null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    `create unique index sender_ids_organization_name on sender_ids (organization_id, lower(name))`,
    `alter table organizations add column default_sender_id text null`,
    `alter table approval_requests drop constraint approval_requests_kind_check`,
    `alter table approval_requests add constraint approval_requests_kind_check check (kind in ('TEMPLATE','CAMPAIGN','SENDER_ID'))`,
  ],
};
