import { campaignView } from '../../domain/campaign.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { loadCampaign } from './campaign-support.ts';
import { VIEW_COUNTS_MAX_AGE_SECONDS } from '../../domain/campaign-progress.ts';

/** GET /campaigns/{id}: the campaign (with an administrator's decision applied), its approval status and delivery counts. */
export class GetCampaign {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const { campaign, approval } = await loadCampaign(this.#deps.storage, scope.organizationId, id, this.#deps.clock.now());
    return campaignView(campaign, await this.#deps.storage.campaigns.recentCounts(scope.organizationId, campaign.id, VIEW_COUNTS_MAX_AGE_SECONDS), approval?.status ?? null, this.#deps.clock.now());
  }
}
