import type { Migration } from './migration.ts';

export const foundation: Migration = {
  id: '0001-foundation',
  statements: [
    `create table users (
      id text primary key,
      email text not null,
      password_hash text not null,
      first_name text not null,
      last_name text not null,
      platform_role text null check (platform_role in ('PLATFORM_SUPER_ADMIN')),
      created_at timestamptz not null
    )`,
    `create unique index users_email_unique on users (lower(email))`,
    `create table organizations (
      id text primary key,
      name text not null,
      industry text null,
      business_phone text null,
      business_email text null,
      timezone text not null,
      default_language text not null,
      website text null,
      onboarding_complete boolean not null default false,
      compliance_acknowledged boolean not null default false,
      monthly_volume integer null,
      preferred_channels jsonb not null default '[]',
      paused boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    `create table memberships (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      user_id text not null references users (id) on delete cascade,
      role text not null check (role in ('TENANT_OWNER','TENANT_ADMIN','CAMPAIGN_MANAGER','COMPLIANCE_REVIEWER','DEVELOPER','VIEWER')),
      created_at timestamptz not null,
      unique (organization_id, user_id)
    )`,
    `create index memberships_user on memberships (user_id)`,
    `create table wallets (
      organization_id text primary key references organizations (id) on delete cascade,
      balance bigint not null check (balance >= 0),
      currency text not null check (currency = 'GHS'),
      updated_at timestamptz not null
    )`,
    `create table ledger_entries (
      id text primary key,
      organization_id text not null references wallets (organization_id) on delete cascade,
      amount bigint not null,
      balance_after bigint not null check (balance_after >= 0),
      kind text not null check (kind in ('TOP_UP','DEBIT','REFUND','ADJUSTMENT')),
      reference text not null,
      description text not null,
      created_at timestamptz not null,
      unique (organization_id, kind, reference)
    )`,
    `create index ledger_entries_org_created on ledger_entries (organization_id, created_at desc, id desc)`,
    `create table api_keys (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      name text not null,
      prefix text not null,
      key_hash text not null unique,
      is_sandbox boolean not null,
      scopes jsonb not null,
      expires_at timestamptz null,
      revoked_at timestamptz null,
      last_used_at timestamptz null,
      created_by_user_id text not null,
      created_at timestamptz not null
    )`,
    `create index api_keys_org_created on api_keys (organization_id, created_at desc)`,
    `create table password_resets (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      token_hash text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz null,
      created_at timestamptz not null
    )`,
    `create index password_resets_user on password_resets (user_id)`,
    `create table rate_limit_windows (
      key text not null,
      window_start timestamptz not null,
      count integer not null,
      expires_at timestamptz not null,
      primary key (key, window_start)
    )`,
    `create index rate_limit_windows_expires on rate_limit_windows (expires_at)`,
  ],
};
