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
   * is done, a `CompletedWith` when it is done with an output pg-boss keeps on the job, or the error
   * `handle` would have thrown (the same retry policy applies to it).
   */
  handleBatch?(data: ReadonlyArray<Record<string, unknown>>): Promise<ReadonlyArray<unknown>>;
  /**
   * `fetchers` more fetch loops taking only jobs of at least `minPriority` (pg-boss priority), `batchSize` at a
   * time: the delivery queue's passcodes and quiet tenants' single messages are fetched at once, not when one of
   * the loops busy with a backlog comes free; with two, one passcode is fetched while the other loop waits
   * for a slow vendor's answer to the previous one (docs/adr/0036-delivery-lanes-and-fair-queueing.md, "Express loop").
   */
  express?: { minPriority: number; batchSize: number; fetchers: number };
}

/** A job done with an output recorded on it (pg-boss `output`), e.g. a delivery postponed to a new job. */
export class CompletedWith {
  readonly output: Record<string, unknown>;
  constructor(output: Record<string, unknown>) { this.output = output; }
}
