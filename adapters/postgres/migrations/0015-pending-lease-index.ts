import type { Migration } from './migration.ts';

/** Finds attempts that died with their process (PENDING, lease set) without scanning messages (RecoverAbandonedDeliveries). */
export const pendingLeaseIndex: Migration = {
  id: '0015-pending-lease-index',
  statements: [`create index messages_pending_lease on messages (lease_until) where status = 'PENDING' and lease_until is not null`],
};
