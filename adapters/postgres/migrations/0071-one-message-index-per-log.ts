import type { Migration } from './migration.ts';

/**
 * `message_attempts` and `message_status_events` each had two indexes led by `message_id`: the primary key
 * `(message_id, id)` and `(message_id, created_at)` (migration 0004). Every delivery inserts one row into each
 * table, so each delivery descended four B-trees keyed by message id; the primary key alone serves every read
 * by message (a message's attempts and events, at most a few rows, ordered after the index scan). Measured
 * with `bench:fair-share -- --profile` and auto_explain: these two inserts touched 4.4 and 3.4 buffers a row
 * when messages are delivered in the order they were created, 10.1 and 9.1 when the fair queue serves ten
 * tenants in turn (each tenant's ids far from the last insert); half of those descents go with the index.
 * Dropping the partitioned parent's index drops each monthly partition's (docs/adr/0036, "Rounds").
 */
export const oneMessageIndexPerLog: Migration = {
  id: '0071-one-message-index-per-log',
  statements: [
    'drop index if exists message_attempts_message',
    'drop index if exists message_status_events_message',
  ],
};
