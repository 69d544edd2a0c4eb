import { AppError } from '../../errors.ts';
import { campaignView, type Campaign } from '../../domain/campaign.ts';
import type { Repositories, Storage } from '../../ports/storage.ts';
import { loadCampaign } from './campaign-support.ts';
import { VIEW_COUNTS_MAX_AGE_SECONDS } from '../../domain/campaign-progress.ts';

/**
 * The shell of a campaign state change (cancel, pause, resume): the campaign loaded with its approval
 * reconciled, then `change` run on it under the campaign's row lock in one transaction (it throws
 * CONFLICT where the change is not allowed, and returns the campaign to store), then the campaign's view.
 * NOT_FOUND for another organization's campaign.
 */
export async function changeCampaignState(storage: Storage, now: Date, organizationId: string, id: string,
  change: (current: Campaign, tx: Repositories) => Promise<Campaign> | Campaign) {
  const { approval } = await loadCampaign(storage, organizationId, id, now);
  const changed = await storage.transaction(async (tx) => {
    const current = await tx.campaigns.lock(organizationId, id);
    if (!current) throw new AppError('NOT_FOUND', 'Campaign not found');
    const next = await change(current, tx);
    await tx.campaigns.update(next);
    return next;
  });
  return campaignView(changed, await storage.campaigns.recentCounts(organizationId, id, VIEW_COUNTS_MAX_AGE_SECONDS), approval?.status ?? null, now);
}
