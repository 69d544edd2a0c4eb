import type { Verification } from '../../domain/verification.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';

interface Waiting { organizationId: string; id: string; resolve: (v: Verification | null) => void; reject: (error: unknown) => void }

/**
 * Group commit of check counting (docs/verify.md): checks arriving while the previous count commits are
 * counted together in one conditional update (one commit, one WAL flush, instead of one per check).
 * Each verification is counted at most once per statement: a second check of the same verification
 * waits for the next batch, so the attempt limit holds exactly. Nothing waits on a timer.
 */
export class CheckCounter {
  readonly #deps: { storage: Pick<Storage, 'verifications'>; clock: Clock; maxAttempts: number };
  readonly #waiting: Waiting[] = [];
  #flushing = false;
  constructor(deps: { storage: Pick<Storage, 'verifications'>; clock: Clock; maxAttempts: number }) { this.#deps = deps; }

  /** Counts one check of a PENDING, unexpired verification under the limit: the counted verification, or null (nothing counted). */
  count(organizationId: string, id: string): Promise<Verification | null> {
    const promise = new Promise<Verification | null>((resolve, reject) => { this.#waiting.push({ organizationId, id, resolve, reject }); });
    if (!this.#flushing) void this.#drain();
    return promise;
  }

  async #drain(): Promise<void> {
    this.#flushing = true;
    try {
      while (this.#waiting.length > 0) {
        const batch = takeDistinct(this.#waiting, 1_000);
        try {
          const counted = new Map((await this.#deps.storage.verifications.countChecks(batch, this.#deps.maxAttempts, this.#deps.clock.now())).map((v) => [v.id, v]));
          for (const w of batch) w.resolve(counted.get(w.id) ?? null);
        } catch (error) {
          for (const w of batch) w.reject(error);
        }
      }
    } finally {
      this.#flushing = false;
      if (this.#waiting.length > 0) void this.#drain();
    }
  }
}

/** Up to `max` waiting checks of distinct verifications, in arrival order; repeats stay queued for the next batch. */
function takeDistinct(waiting: Waiting[], max: number): Waiting[] {
  const batch: Waiting[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < waiting.length && batch.length < max;) {
    const w = waiting[i]!;
    if (seen.has(w.id)) { i += 1; continue; }
    seen.add(w.id);
    batch.push(w);
    waiting.splice(i, 1);
  }
  return batch;
}
