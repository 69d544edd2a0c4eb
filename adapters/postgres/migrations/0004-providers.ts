import type { Migration } from './migration.ts';

export const providers: Migration = {
  id: '0004-providers',
  statements: [
    `create table providers (
      id text primary key,
      name text not null unique,
      vendor text not null,
      channel text not null check (channel in ('SMS','WHATSAPP','EMAIL','PUSH','VOICE')),
      priority integer not null default 100,
      active boolean not null default true,
      settings jsonb not null default '{}',
      countries jsonb not null default '["*"]',
      credentials_encrypted text null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    `create table provider_health_checks (
      id text primary key,
      provider_id text not null references providers (id) on delete cascade,
      ok boolean not null,
      latency_ms integer not null,
      detail text not null,
      balance numeric null,
      checked_at timestamptz not null
    )`,
    `create index provider_health_checks_provider on provider_health_checks (provider_id, checked_at desc)`,
    `create table message_attempts (
      id text primary key,
      message_id text not null references messages (id) on delete cascade,
      attempt integer not null,
      provider text not null,
      outcome text not null check (outcome in ('ACCEPTED','FAILED')),
      retryable boolean not null,
      error_code text null,
      error_message text null,
      provider_message_id text null,
      duration_ms integer not null,
      created_at timestamptz not null
    )`,
    `create index message_attempts_message on message_attempts (message_id, created_at)`,
    `create table message_status_events (
      id text primary key,
      message_id text not null references messages (id) on delete cascade,
      organization_id text not null,
      status text not null,
      source text not null,
      detail text null,
      created_at timestamptz not null
    )`,
    `create index message_status_events_message on message_status_events (message_id, created_at)`,
  ],
};
