import type { Migration } from './migration.ts';

/** Verify (docs/verify.md): verifications with their code hash and sends, and each organization's Verify settings. */
export const verify: Migration = {
  id: '0019-verify',
  statements: [
    `create table verifications (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      recipient text not null,
      country text null,
      prefix text null,
      channels jsonb not null,
      channel_index integer not null default 0,
      status text not null check (status in ('PENDING','APPROVED','EXPIRED','MAX_ATTEMPTS','CANCELED','FAILED')),
      code_hash text not null,
      code_length integer not null,
      locale text not null,
      template text null,
      expires_at timestamptz not null,
      fallback_after_seconds integer not null,
      send_attempts integer not null default 0,
      check_attempts integer not null default 0,
      sends jsonb not null default '[]',
      last_sent_at timestamptz not null,
      ip_address text null,
      idempotency_key text null,
      approved_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`,
    `create index verifications_org_created on verifications (organization_id, created_at desc, id desc)`,
    `create index verifications_org_recipient on verifications (organization_id, recipient, created_at desc) where status = 'PENDING'`,
    `create index verifications_org_prefix on verifications (organization_id, prefix, created_at)`,
    `create unique index verifications_org_idempotency on verifications (organization_id, idempotency_key) where idempotency_key is not null`,
    `create table verify_settings (
      organization_id text primary key references organizations (id) on delete cascade,
      settings jsonb not null,
      updated_at timestamptz not null
    )`,
  ],
};
