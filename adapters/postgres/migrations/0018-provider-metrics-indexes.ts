import type { Migration } from './migration.ts';

/**
 * For GET /admin/provider-metrics (docs/observability.md): the last hour of delivery attempts is read
 * by time across every message, and the waiting messages per channel without scanning delivery logs
 * (few messages are QUEUED or PENDING at any moment, so the partial index stays small).
 */
export const providerMetricsIndexes: Migration = {
  id: '0018-provider-metrics-indexes',
  statements: [
    'create index message_attempts_created on message_attempts (created_at)',
    `create index messages_waiting_channel on messages (channel, status, created_at) where status in ('QUEUED', 'PENDING')`,
  ],
};
