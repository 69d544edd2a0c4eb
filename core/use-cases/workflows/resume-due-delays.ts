import type { Clock } from '../../ports/clock.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Storage } from '../../ports/storage.ts';

export interface ResumeDueDelaysDeps { storage: Storage; clock: Clock }

/** Steps claimed per transaction by default: 100,000 runs due at one instant are 20 statements. */
export const RESUME_CHUNK = 5_000;
/** Chunk loops per worker process by default (two cores' worth of database work per worker). */
export const RESUME_PARALLEL = 2;
/** A delay this close to due is resumed now (the tick's granularity). */
const EARLY_MS = 500;
/** Chunks one call takes at most before it answers (the next tick goes on): a stop never waits long. */
const MAX_CHUNKS_PER_CALL = 200;

/**
 * The delay resumer (docs/adr/0044-workflow-exactly-once.md, "Due delays"), a periodic task of every worker.
 * A delay step is a WAITING step row with its `resume_at` and no job of its own: this task claims the due
 * ones in resume-time order, a chunk per transaction, and in that transaction moves each run past its delay
 * and enqueues the `workflow-step` job of every run that has steps left. Concurrent resumers (several worker
 * processes) take disjoint chunks (SKIP LOCKED); a crash before the commit leaves the chunk's steps WAITING and
 * due, so the next tick (of any worker) takes them; after the commit they are DONE and never claimed again.
 * 100,000 runs delayed to the same instant resume in 20 statements instead of 100,000 jobs.
 */
export class ResumeDueDelays {
  readonly #deps: ResumeDueDelaysDeps;
  readonly #chunk: number;
  readonly #parallel: number;
  /** `parallel`: chunk loops at once (each its own transaction and connection; SKIP LOCKED keeps their chunks apart). */
  constructor(deps: ResumeDueDelaysDeps, options: { chunk?: number; parallel?: number } = {}) {
    this.#deps = deps;
    this.#chunk = Math.max(1, options.chunk ?? RESUME_CHUNK);
    this.#parallel = Math.max(1, Math.min(8, options.parallel ?? RESUME_PARALLEL));
  }

  /** Resumes every delay due now (chunk by chunk, while chunks come back full); answers how many runs moved. */
  async execute(): Promise<{ resumed: number; continued: number }> {
    const loops = await Promise.all(Array.from({ length: this.#parallel }, () => this.#loop()));
    return { resumed: loops.reduce((n, l) => n + l.resumed, 0), continued: loops.reduce((n, l) => n + l.continued, 0) };
  }

  async #loop(): Promise<{ resumed: number; continued: number }> {
    let resumed = 0;
    let continued = 0;
    for (let i = 0; i < MAX_CHUNKS_PER_CALL; i++) {
      const chunk = await this.#deps.storage.transaction(async (tx) => {
        const now = this.#deps.clock.now();
        const moved = await tx.workflows.resumeDueDelaySteps(new Date(now.getTime() + EARLY_MS), now, this.#chunk);
        const next = moved.filter((m) => m.status === 'RUNNING');
        if (next.length > 0) await tx.jobs.enqueueMany(QUEUES.workflowStep, next.map((m) => ({ data: { runId: m.id } })));
        return { claimed: moved.length, continued: next.length };
      });
      resumed += chunk.claimed;
      continued += chunk.continued;
      if (chunk.claimed < this.#chunk) break;
    }
    return { resumed, continued };
  }
}
