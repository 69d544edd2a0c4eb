import type { PostgresRateLimiter } from '../../adapters/postgres/postgres-rate-limiter.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import type { Logger } from '../logger.ts';
import type { JobHandler } from './job-handler.ts';

/** Every 10 minutes (scheduled in worker/container.ts): deletes rate-limit windows and idempotency keys (24 h) that have ended. */
export function maintenanceHandler(rateLimiter: PostgresRateLimiter, logger: Logger, purgeExpiredRecords: () => Promise<number>): JobHandler {
  return {
    queue: QUEUES.maintenance,
    batchSize: 1,
    async handle() {
      const purged = await rateLimiter.purgeExpired();
      const records = await purgeExpiredRecords();
      logger.debug({ purged, records }, 'maintenance: rate-limit windows, idempotency keys and expired session revocations purged');
    },
  };
}
