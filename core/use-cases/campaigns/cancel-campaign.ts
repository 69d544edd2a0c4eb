import { AppError } from '../../errors.ts';
import { CANCELLABLE } from '../../domain/campaign.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { changeCampaignState } from './change-campaign-state.ts';

/**
 * POST /campaigns/{id}/cancel: DRAFT, PENDING_APPROVAL, SCHEDULED or SENDING -> CANCELLED. A sending
 * campaign stops after the batch in progress; messages already queued are still delivered.
 * CONFLICT from a final state.
 */
export class CancelCampaign {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  execute(scope: { organizationId: string }, id: string) {
    const now = this.#deps.clock.now();
    return changeCampaignState(this.#deps.storage, now, scope.organizationId, id, (current) => {
      if (!CANCELLABLE.includes(current.status)) throw new AppError('CONFLICT', `A ${current.status} campaign cannot be cancelled`, { status: current.status });
      return { ...current, status: 'CANCELLED' as const, cancelledAt: now, updatedAt: now };
    });
  }
}
