import type { Migration } from './migration.ts';

/**
 * Delivery log lists filtered by status and channel together: without this index PostgreSQL walks
 * one single-filter index and rechecks the other column on every heap row, which is slow when the
 * combination is rare (FAILED + VOICE). See docs/adr/0006-delivery-log-pagination.md.
 */
export const deliveryLogIndexes: Migration = {
  id: '0003-delivery-log-indexes',
  statements: [
    `create index messages_org_status_channel_created on messages (organization_id, status, channel, created_at desc, id desc)`,
  ],
};
