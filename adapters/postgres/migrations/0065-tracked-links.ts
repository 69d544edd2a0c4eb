import type { Migration } from './migration.ts';

/**
 * Tracked links (docs/links.md, docs/adr/0047-tracked-links.md): one row per short link a send made,
 * looked up by its code on every redirect (the primary key: one index probe), with click counters the
 * redirect service adds to in batches (fillfactor 80 so those updates stay HOT); and each organization's
 * tracking settings with its custom link domain (one verified owner per domain).
 */
export const trackedLinks: Migration = {
  id: '0065-tracked-links',
  statements: [
    `create table tracked_links (
      code text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      message_id text not null,
      template_id text null,
      url text not null,
      created_at timestamptz not null,
      expires_at timestamptz null,
      clicks bigint not null default 0,
      unique_clicks bigint not null default 0,
      first_clicked_at timestamptz null,
      last_clicked_at timestamptz null
    ) with (fillfactor = 80)`,
    `create index tracked_links_message on tracked_links (message_id)`,
    `create index tracked_links_org_created on tracked_links (organization_id, created_at)`,
    `create index tracked_links_expires on tracked_links (expires_at) where expires_at is not null`,
    `create table link_settings (
      organization_id text primary key references organizations (id) on delete cascade,
      track_links boolean not null default true,
      track_email_opens boolean not null default false,
      untracked_template_ids text[] not null default '{}',
      custom_domain text null,
      domain_token text null,
      domain_verified_at timestamptz null,
      updated_at timestamptz not null
    )`,
    `create unique index link_settings_verified_domain on link_settings (custom_domain) where domain_verified_at is not null`,
  ],
};
