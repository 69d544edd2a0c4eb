import type { Migration } from './migration.ts';

/**
 * Two-factor sign-in (issue 34; docs/security.md, "Two-factor sign-in"; ADR 0038): a user's TOTP authenticator
 * (secret sealed with ENCRYPTION_KEY, last accepted time step as the replay guard), recovery codes as digests,
 * passkeys (WebAuthn public keys), short-lived sign-in challenges (token digests), and which organizations
 * require two-factor of their members.
 */
export const twoFactor: Migration = {
  id: '0056-two-factor',
  statements: [
    `create table two_factor_totp (
      user_id text primary key references users (id) on delete cascade,
      sealed_secret text not null,
      confirmed_at timestamptz null,
      last_used_step bigint null,
      created_at timestamptz not null
    )`,
    `create table two_factor_recovery_codes (
      user_id text not null references users (id) on delete cascade,
      code_hash text not null,
      used_at timestamptz null,
      created_at timestamptz not null,
      primary key (user_id, code_hash)
    )`,
    `create table two_factor_passkeys (
      credential_id text primary key,
      user_id text not null references users (id) on delete cascade,
      name text not null,
      public_key text not null,
      counter bigint not null,
      transports jsonb not null default '[]'::jsonb,
      created_at timestamptz not null,
      last_used_at timestamptz null
    )`,
    'create index two_factor_passkeys_user on two_factor_passkeys (user_id, created_at)',
    `create table sign_in_challenges (
      id text primary key,
      user_id text not null references users (id) on delete cascade,
      kind text not null check (kind in ('second_factor', 'enrolment', 'passkey_registration')),
      webauthn_challenge text null,
      expires_at timestamptz not null,
      created_at timestamptz not null
    )`,
    'create index sign_in_challenges_user on sign_in_challenges (user_id, expires_at)',
    `create table organization_two_factor_policies (
      organization_id text primary key references organizations (id) on delete cascade,
      required_since timestamptz not null
    )`,
  ],
};
