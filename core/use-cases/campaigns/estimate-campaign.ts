import { pesewasToGhs } from '../../domain/money.ts';
import { estimateCampaign, type CampaignEstimateDeps } from './campaign-estimate.ts';
import { loadCampaign } from './campaign-support.ts';

/**
 * GET /campaigns/{id}/estimate: recipients now (the audience without opted-out contacts and those
 * without an address for the channel), SMS segments per message, estimated cost and whether the
 * wallet covers it (GHS), and for a new organization what the new-tenant cap allows this hour and how
 * many recipients it would refuse (`newTenantCap`, null once the organization is established).
 */
export class EstimateCampaign {
  readonly #deps: CampaignEstimateDeps;
  constructor(deps: CampaignEstimateDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const { campaign } = await loadCampaign(this.#deps.storage, scope.organizationId, id, this.#deps.clock.now());
    const estimate = await estimateCampaign(this.#deps, campaign);
    const balance = (await this.#deps.storage.wallets.get(scope.organizationId))?.balance ?? 0;
    return {
      recipients: estimate.recipients, segments: estimate.segmentsPerMessage, cost: pesewasToGhs(estimate.cost), currency: 'GHS' as const,
      balance: pesewasToGhs(balance), sufficientBalance: balance >= estimate.cost,
      wouldSkip: estimate.skipped.count, wouldSkipExact: estimate.skipped.exact, skipReasons: estimate.skipped.reasons,
      newTenantCap: estimate.newTenantCap === null ? null : {
        perHour: estimate.newTenantCap.perHour, sentThisHour: estimate.newTenantCap.sentThisHour, allowedThisHour: estimate.newTenantCap.remaining,
        wouldRefuse: estimate.newTenantCap.refused, establishedAt: estimate.newTenantCap.establishedAt.toISOString(),
      },
    };
  }
}
