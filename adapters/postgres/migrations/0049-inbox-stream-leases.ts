import type { Migration } from './migration.ts';

/**
 * The open inbox streams of each subscriber, counted in the database so the per-subscriber limit holds
 * across API processes (docs/inbox.md, "Streams per subscriber"): one row per open stream, renewed by
 * its process, expiring when the process dies.
 */
export const inboxStreamLeases: Migration = {
  id: '0049-inbox-stream-leases',
  statements: [
    `create table inbox_stream_leases (
      id text primary key,
      organization_id text not null references organizations (id) on delete cascade,
      subscriber_id text not null,
      holder text not null,
      expires_at timestamptz not null
    )`,
    'create index inbox_stream_leases_subscriber on inbox_stream_leases (organization_id, subscriber_id)',
    'create index inbox_stream_leases_expiry on inbox_stream_leases (expires_at)',
  ],
};
