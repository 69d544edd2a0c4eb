import type { QueueName } from '../../core/ports/job-queue.ts';

/** One queue's handler. Jobs carry ids only; handlers reload state from the database. */
export interface JobHandler {
  queue: QueueName;
  /** Jobs fetched per poll; the batch is processed concurrently. */
  batchSize: number;
  /** Independent fetch loops for this queue in one process (default 1): a new batch is fetched while others run. */
  fetchers?: number;
  handle(data: Record<string, unknown>): Promise<void>;
  /**
   * Set-based path (optional): the whole fetched batch at once, so its database work can be done in a
   * few statements instead of a few per job. Returns one outcome per job, in order: null when the job
   * is done, or the error `handle` would have thrown (the same retry policy applies to it).
   */
  handleBatch?(data: ReadonlyArray<Record<string, unknown>>): Promise<ReadonlyArray<unknown>>;
}
