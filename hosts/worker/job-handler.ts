import type { QueueName } from '../../core/ports/job-queue.ts';

/** One queue's handler. Jobs carry ids only; handlers reload state from the database. */
export interface JobHandler {
  queue: QueueName;
  /** Jobs fetched per poll; the batch is processed concurrently. */
  batchSize: number;
  handle(data: Record<string, unknown>): Promise<void>;
}
