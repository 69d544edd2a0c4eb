import type { Migration } from './migration.ts';

/**
 * The in-app inbox (docs/inbox.md): IN_APP becomes a delivery channel (messages and pricing rules
 * accept it; an existing install gets the free IN_APP rule a fresh one is seeded with), subscribers'
 * feed items, and each organization's inbox credentials.
 */
export const inbox: Migration = {
  id: '0030-inbox',
  statements: [
    `alter table messages drop constraint if exists messages_channel_check`,
    `alter table messages add constraint messages_channel_check check (channel in ('SMS','WHATSAPP','EMAIL','PUSH','VOICE','IN_APP'))`,
    `alter table pricing_rules drop constraint if exists pricing_rules_channel_check`,
    `alter table pricing_rules add constraint pricing_rules_channel_check check (channel in ('SMS','WHATSAPP','EMAIL','PUSH','VOICE','IN_APP'))`,
    `insert into pricing_rules (id, channel, country, price_per_unit, unit)
      select gen_random_uuid()::text, 'IN_APP', '*', 0, 'message'
      where exists (select 1 from pricing_rules) and not exists (select 1 from pricing_rules where channel = 'IN_APP')`,
    `create table inbox_items (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      subscriber_id text not null,
      message_id text null unique,
      subject text null,
      body text not null,
      created_at timestamptz not null,
      seen_at timestamptz null,
      read_at timestamptz null,
      archived_at timestamptz null
    )`,
    `create index inbox_items_feed on inbox_items (organization_id, subscriber_id, id desc)`,
    `create index inbox_items_unread on inbox_items (organization_id, subscriber_id) where read_at is null and archived_at is null`,
    `create table inbox_settings (
      organization_id text primary key references organizations (id) on delete cascade,
      app_id text not null unique,
      secret_ciphertext text not null,
      secret_hint text not null,
      created_at timestamptz not null,
      rotated_at timestamptz not null
    )`,
  ],
};
