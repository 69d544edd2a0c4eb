import { AppError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Storage } from '../../ports/storage.ts';
import { changeCampaignState } from './change-campaign-state.ts';

/**
 * POST /campaigns/{id}/resume: PAUSED -> SENDING, and the fan-out job is enqueued in the same
 * transaction; it continues after the persisted cursor, so nobody is skipped or messaged twice.
 * CONFLICT from any other status.
 */
export class ResumeCampaign {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  execute(scope: { organizationId: string }, id: string) {
    const now = this.#deps.clock.now();
    return changeCampaignState(this.#deps.storage, now, scope.organizationId, id, async (current, tx) => {
      if (current.status !== 'PAUSED') throw new AppError('CONFLICT', `A ${current.status} campaign cannot be resumed`, { status: current.status });
      await tx.jobs.enqueue(QUEUES.campaignRun, { campaignId: id, organizationId: scope.organizationId });
      return { ...current, status: 'SENDING' as const, updatedAt: now };
    });
  }
}
