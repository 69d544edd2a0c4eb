import type { Migration } from './migration.ts';

/** Dashboard sessions ended before their tokens expire: log out, impersonation exit, password reset (docs/permissions.md). */
export const sessionRevocation: Migration = {
  id: '0014-session-revocation',
  statements: [
    `create table revoked_sessions (
      token_id text primary key,
      expires_at timestamptz not null
    )`,
    'create index revoked_sessions_expires on revoked_sessions (expires_at)',
    `create table session_cutoffs (
      user_id text primary key references users (id) on delete cascade,
      cutoff timestamptz not null
    )`,
  ],
};
