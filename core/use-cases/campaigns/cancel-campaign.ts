import { AppError } from '../../errors.ts';
import { campaignView, CANCELLABLE } from '../../domain/campaign.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { loadCampaign } from './campaign-support.ts';

/**
 * POST /campaigns/{id}/cancel: DRAFT, PENDING_APPROVAL, SCHEDULED or SENDING -> CANCELLED. A sending
 * campaign stops after the batch in progress; messages already queued are still delivered.
 * CONFLICT from a final state.
 */
export class CancelCampaign {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const { storage, clock } = this.#deps;
    const now = clock.now();
    const { approval } = await loadCampaign(storage, scope.organizationId, id, now);
    const cancelled = await storage.transaction(async (tx) => {
      const current = await tx.campaigns.lock(scope.organizationId, id);
      if (!current) throw new AppError('NOT_FOUND', 'Campaign not found');
      if (!CANCELLABLE.includes(current.status)) throw new AppError('CONFLICT', `A ${current.status} campaign cannot be cancelled`, { status: current.status });
      const next = { ...current, status: 'CANCELLED' as const, cancelledAt: now, updatedAt: now };
      await tx.campaigns.update(next);
      return next;
    });
    return campaignView(cancelled, await storage.campaigns.counts(scope.organizationId, id), approval?.status ?? null, now);
  }
}
