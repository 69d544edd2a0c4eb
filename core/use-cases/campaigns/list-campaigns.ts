import { campaignView, type Campaign } from '../../domain/campaign.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { reconcileApproval } from './campaign-support.ts';
import { VIEW_COUNTS_MAX_AGE_SECONDS } from '../../domain/campaign-progress.ts';

export const CAMPAIGNS_LISTED_MAX = 50;

/** GET /campaigns: newest first, at most {@link CAMPAIGNS_LISTED_MAX}, with approval status and counts. */
export class ListCampaigns {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    const { storage, clock } = this.#deps;
    const view = async (stored: Campaign) => {
      const approval = stored.approvalRequestId ? await storage.approvals.findById(stored.approvalRequestId) : null;
      const campaign = reconcileApproval(stored, approval, clock.now());
      if (campaign !== stored) await storage.campaigns.update(campaign);
      return campaignView(campaign, await storage.campaigns.recentCounts(scope.organizationId, campaign.id, VIEW_COUNTS_MAX_AGE_SECONDS), approval?.status ?? null, clock.now());
    };
    const campaigns = await storage.campaigns.list(scope.organizationId, CAMPAIGNS_LISTED_MAX);
    const views: Array<ReturnType<typeof campaignView>> = [];
    for (let i = 0; i < campaigns.length; i += 4) views.push(...await Promise.all(campaigns.slice(i, i + 4).map(view))); // a few at a time
    return views;
  }
}
