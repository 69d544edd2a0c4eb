import type { Migration } from './migration.ts';

/** Devices and addresses of a user's successful logins, as keyed digests (docs/permissions.md, "Login throttling"). */
export const knownLoginClients: Migration = {
  id: '0047-known-login-clients',
  statements: [
    `create table known_login_clients (
      user_id text not null references users (id) on delete cascade,
      client_hash text not null,
      last_seen_at timestamptz not null,
      primary key (user_id, client_hash)
    )`,
  ],
};
