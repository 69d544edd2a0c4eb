import type { Migration } from './migration.ts';

/** The worker's expiry sweep of verifications (core/use-cases/verify/expire-verifications.ts) reads only PENDING ones by expiry. */
export const verifyExpiry: Migration = {
  id: '0020-verify-expiry',
  statements: [`create index verifications_pending_expiry on verifications (expires_at) where status = 'PENDING'`],
};
