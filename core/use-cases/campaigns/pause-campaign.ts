import { AppError } from '../../errors.ts';
import { campaignView } from '../../domain/campaign.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { loadCampaign } from './campaign-support.ts';

/**
 * POST /campaigns/{id}/pause: SENDING -> PAUSED while the fan-out is still handing contacts over. The
 * fan-out stops at the next batch boundary (each batch checks the status under the campaign's row lock);
 * messages already queued still go out (docs/campaigns.md, "Pause and resume"). CONFLICT otherwise: a
 * campaign not sending, or one whose every recipient was already handed over (nothing left to hold back).
 */
export class PauseCampaign {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const { storage, clock } = this.#deps;
    const now = clock.now();
    const { approval } = await loadCampaign(storage, scope.organizationId, id, now);
    const paused = await storage.transaction(async (tx) => {
      const current = await tx.campaigns.lock(scope.organizationId, id);
      if (!current) throw new AppError('NOT_FOUND', 'Campaign not found');
      if (current.status !== 'SENDING') throw new AppError('CONFLICT', `A ${current.status} campaign cannot be paused`, { status: current.status });
      if (current.fanOutDone) {
        throw new AppError('CONFLICT', 'Every recipient was already handed over; the remaining messages are queued', { status: current.status, fanOutDone: true });
      }
      // The rate sample restarts on resume: the paused time is not part of the rate.
      const next = { ...current, status: 'PAUSED' as const, progress: { ...current.progress, sampledAt: null }, updatedAt: now };
      await tx.campaigns.update(next);
      return next;
    });
    return campaignView(paused, await storage.campaigns.counts(scope.organizationId, id), approval?.status ?? null, now);
  }
}
