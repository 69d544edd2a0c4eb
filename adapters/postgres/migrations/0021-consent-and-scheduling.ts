import type { Migration } from './migration.ts';

/**
 * Consent and timing (docs/consent.md, docs/scheduling.md): a message's category and the time a
 * SCHEDULED message is released; CANCELLED for a scheduled message withdrawn before its time;
 * category-scoped suppression entries (the preference centre: an opt-out of one category on one
 * channel); contact time zones; organization quiet hours; send windows as data per country and
 * category (GH marketing: Monday to Saturday, 08:00-19:00); opt-out links (one per organization,
 * channel and recipient, their token an HMAC of the three).
 */
export const consentAndScheduling: Migration = {
  id: '0021-consent-and-scheduling',
  statements: [
    `alter table messages add column category text not null default 'TRANSACTIONAL'`,
    `alter table messages add column scheduled_at timestamptz null`,
    `alter table messages drop constraint messages_status_check`,
    `alter table messages add constraint messages_status_check check (status in ('QUEUED','SENT','DELIVERED','FAILED','PENDING','REJECTED','SCHEDULED','CANCELLED'))`,
    `create index messages_scheduled_due on messages (scheduled_at, id) where status = 'SCHEDULED'`,
    `alter table suppressions add column category text null`,
    `drop index suppressions_unique`,
    `create unique index suppressions_unique on suppressions (organization_id, coalesce(phone, ''), coalesce(email, ''), coalesce(channel, '*'), coalesce(category, '*'))`,
    `alter table contacts add column time_zone text null`,
    `alter table organizations add column quiet_hours jsonb null`,
    `create table send_windows (
      country text not null,
      category text not null,
      days smallint[] not null,
      opens_at text not null check (opens_at ~ '^[0-2][0-9]:[0-5][0-9]$'),
      closes_at text not null check (closes_at ~ '^[0-2][0-9]:[0-5][0-9]$'),
      updated_at timestamptz not null default now(),
      primary key (country, category)
    )`,
    `insert into send_windows (country, category, days, opens_at, closes_at) values ('GH', 'MARKETING', '{1,2,3,4,5,6}', '08:00', '19:00')`,
    `create table opt_out_links (
      token text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      channel text not null,
      recipient text not null,
      created_at timestamptz not null
    )`,
  ],
};
