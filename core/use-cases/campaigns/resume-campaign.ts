import { AppError } from '../../errors.ts';
import { campaignView } from '../../domain/campaign.ts';
import type { Clock } from '../../ports/clock.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import type { Storage } from '../../ports/storage.ts';
import { loadCampaign } from './campaign-support.ts';

/**
 * POST /campaigns/{id}/resume: PAUSED -> SENDING, and the fan-out job is enqueued in the same
 * transaction; it continues after the persisted cursor, so nobody is skipped or messaged twice.
 * CONFLICT from any other status.
 */
export class ResumeCampaign {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const { storage, clock } = this.#deps;
    const now = clock.now();
    const { approval } = await loadCampaign(storage, scope.organizationId, id, now);
    const resumed = await storage.transaction(async (tx) => {
      const current = await tx.campaigns.lock(scope.organizationId, id);
      if (!current) throw new AppError('NOT_FOUND', 'Campaign not found');
      if (current.status !== 'PAUSED') throw new AppError('CONFLICT', `A ${current.status} campaign cannot be resumed`, { status: current.status });
      const next = { ...current, status: 'SENDING' as const, updatedAt: now };
      await tx.campaigns.update(next);
      await tx.jobs.enqueue(QUEUES.campaignRun, { campaignId: id, organizationId: scope.organizationId });
      return next;
    });
    return campaignView(resumed, await storage.campaigns.counts(scope.organizationId, id), approval?.status ?? null, now);
  }
}
