import { AppError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { changeCampaignState } from './change-campaign-state.ts';

/**
 * POST /campaigns/{id}/pause: SENDING -> PAUSED while the fan-out is still handing contacts over. The
 * fan-out stops at the next batch boundary (each batch checks the status under the campaign's row lock);
 * messages already queued still go out (docs/campaigns.md, "Pause and resume"). CONFLICT otherwise: a
 * campaign not sending, or one whose every recipient was already handed over (nothing left to hold back).
 */
export class PauseCampaign {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  execute(scope: { organizationId: string }, id: string) {
    const now = this.#deps.clock.now();
    return changeCampaignState(this.#deps.storage, now, scope.organizationId, id, (current) => {
      if (current.status !== 'SENDING') throw new AppError('CONFLICT', `A ${current.status} campaign cannot be paused`, { status: current.status });
      if (current.fanOutDone) {
        throw new AppError('CONFLICT', 'Every recipient was already handed over; the remaining messages are queued', { status: current.status, fanOutDone: true });
      }
      // The rate sample restarts on resume: the paused time is not part of the rate.
      return { ...current, status: 'PAUSED' as const, progress: { ...current.progress, sampledAt: null }, updatedAt: now };
    });
  }
}
