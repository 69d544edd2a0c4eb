import type { QueueName } from '../../core/ports/job-queue.ts';

/** One queue's handler. Jobs carry ids only; handlers reload state from the database. */
export interface JobHandler {
  queue: QueueName;
  /** Jobs fetched per poll; the batch is processed concurrently. */
  batchSize: number;
  /** Independent fetch loops for this queue in one process (default 1): a new batch is fetched while others run. */
  fetchers?: number;
  handle(data: Record<string, unknown>): Promise<void>;
}
