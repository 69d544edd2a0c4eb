import type { EnqueueOptions, JobQueue, QueueCounts, QueueMonitor, QueueName } from '../../core/ports/job-queue.ts';
import type { MemoryJob, MemoryState } from './memory-state.ts';

/** Records enqueued jobs; tests drain them with `take`. */
export class InMemoryJobQueue implements JobQueue, QueueMonitor {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async enqueue(queue: QueueName, data: Record<string, unknown>, options: EnqueueOptions = {}): Promise<void> {
    this.#state.jobs.push({ queue, data: structuredClone(data), startAfterSeconds: options.startAfterSeconds ?? 0 });
  }

  async enqueueMany(queue: QueueName, jobs: ReadonlyArray<{ data: Record<string, unknown>; options?: EnqueueOptions }>): Promise<void> {
    for (const job of jobs) await this.enqueue(queue, job.data, job.options);
  }

  /** Removes and returns the queued jobs of one queue. */
  take(queue: QueueName): MemoryJob[] {
    const taken = this.#state.jobs.filter((j) => j.queue === queue);
    this.#state.jobs = this.#state.jobs.filter((j) => j.queue !== queue);
    return taken;
  }

  async counts(queue: QueueName): Promise<QueueCounts> {
    return { waiting: this.#state.jobs.filter((j) => j.queue === queue).length, active: 0, completed: 0, failed: 0, workers: 0 };
  }
}
