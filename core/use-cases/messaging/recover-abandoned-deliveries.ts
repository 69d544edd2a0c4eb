import type { Clock } from '../../ports/clock.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Storage } from '../../ports/storage.ts';

/** Most claims freed per sweep; a larger backlog is taken over the next sweeps. */
const SWEEP_LIMIT = 500;

/**
 * Recovers deliveries whose worker died mid-attempt (kill -9, a lost machine): their messages stay
 * PENDING under a lease nobody will clear, and their jobs stay active in the queue until its expiry
 * (minutes). Run every few seconds by each worker process: frees the expired claims and enqueues a new
 * delivery job for each, in one transaction, so a message waits at most its lease plus one sweep.
 * Still exactly once: a claim is conditional (lease free), so the new job and the old one, when it
 * finally expires and retries, cannot both deliver; whichever comes second finds the message SENT.
 */
export class RecoverAbandonedDeliveries {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(): Promise<{ recovered: string[] }> {
    const { storage, clock } = this.#deps;
    const recovered = await storage.transaction(async (tx) => {
      const ids = await tx.messages.releaseAbandonedClaims(clock.now(), SWEEP_LIMIT);
      await tx.jobs.enqueueMany(QUEUES.notificationSend, ids.map((messageId) => ({ data: { messageId }, options: { lane: 'TRANSACTIONAL' as const } })));
      return ids;
    });
    return { recovered };
  }
}
