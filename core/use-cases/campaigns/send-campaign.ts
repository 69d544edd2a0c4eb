import { AppError } from '../../errors.ts';
import { campaignView } from '../../domain/campaign.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import { QUEUES } from '../../ports/job-queue.ts';
import { estimateCampaign, type CampaignEstimateDeps } from './campaign-estimate.ts';
import { loadCampaign } from './campaign-support.ts';

/**
 * POST /campaigns/{id}/send: starts a DRAFT campaign now (SENDING), or at its scheduledAt when that
 * is in the future (SCHEDULED: the worker's scheduler starts it then, docs/scheduling.md). Refused: CAMPAIGN_NOT_APPROVED while an administrator's approval is
 * pending or after a rejection; INSUFFICIENT_BALANCE when the wallet cannot cover the estimate;
 * TEMPLATE_NOT_APPROVED; CONFLICT from any state but DRAFT. The worker does the fan-out.
 */
export class SendCampaign {
  readonly #deps: CampaignEstimateDeps;
  constructor(deps: CampaignEstimateDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const { storage, clock } = this.#deps;
    const now = clock.now();
    const { campaign, approval } = await loadCampaign(storage, scope.organizationId, id, now);
    if (campaign.status === 'PENDING_APPROVAL' || campaign.status === 'REJECTED') {
      throw new AppError('CAMPAIGN_NOT_APPROVED', campaign.status === 'REJECTED' ? 'The campaign was rejected by a platform administrator'
        : 'The campaign\'s content needs a platform administrator\'s approval before it can be sent',
      { approvalRequestId: campaign.approvalRequestId, approvalStatus: approval?.status ?? null, riskScore: campaign.riskScore });
    }
    if (campaign.status !== 'DRAFT') throw new AppError('CONFLICT', `A ${campaign.status} campaign cannot be sent`, { status: campaign.status });
    const estimate = await estimateCampaign(this.#deps, campaign);
    if (estimate.template.status !== 'APPROVED') {
      throw new AppError('TEMPLATE_NOT_APPROVED', 'The campaign\'s template is not approved', { templateId: estimate.template.id, status: estimate.template.status });
    }
    // A campaign reaches contacts outside WhatsApp's 24-hour window: a mapped Meta template must be approved first (docs/whatsapp-templates.md).
    const check = estimate.template.metaTemplate ? estimate.template.metaCheck ?? null : undefined;
    if (check !== undefined && check?.status !== 'APPROVED') {
      throw new AppError('WHATSAPP_TEMPLATE_NOT_APPROVED', `The campaign's WhatsApp template maps to Meta template ${estimate.template.metaTemplate!.name}, which the last check did not find approved (${check?.status ?? 'never checked'})`,
        { templateId: estimate.template.id, metaTemplate: estimate.template.metaTemplate!.name, metaStatus: check?.status ?? 'UNCHECKED' });
    }
    const cap = estimate.newTenantCap;
    if (cap && cap.refused > 0 && !(campaign.scheduledAt !== null && campaign.scheduledAt.getTime() >= cap.establishedAt.getTime())) {
      // Refused rather than burnt through: every recipient past the cap would be REJECTED (FRAUD_NEW_TENANT_CAP).
      throw new AppError('CAMPAIGN_OVER_NEW_TENANT_CAP', `New organizations may send ${cap.perHour} messages an hour; this campaign has ${estimate.recipients} recipients`
        + ` and ${cap.remaining} can be sent this hour. Send it to a smaller segment, or schedule it after ${cap.establishedAt.toISOString()}.`, {
        recipients: estimate.recipients, allowedThisHour: cap.remaining, perHour: cap.perHour, sentThisHour: cap.sentThisHour, establishedAt: cap.establishedAt.toISOString(),
      });
    }
    const balance = (await storage.wallets.get(scope.organizationId))?.balance ?? 0;
    const required = estimate.cost + (estimate.lookups?.cost ?? 0); // with the paid number lookups the organization's mode would make
    if (balance < required) {
      throw new AppError('INSUFFICIENT_BALANCE', 'The wallet cannot cover this campaign', {
        required: pesewasToGhs(required), balance: pesewasToGhs(balance), recipients: estimate.recipients, currency: 'GHS',
        ...(estimate.lookups ? { lookupCost: pesewasToGhs(estimate.lookups.cost) } : {}),
      });
    }
    const later = campaign.scheduledAt !== null && campaign.scheduledAt.getTime() > now.getTime();
    const started = later ? { ...campaign, status: 'SCHEDULED' as const, updatedAt: now } : { ...campaign, status: 'SENDING' as const, startedAt: now, updatedAt: now };
    await storage.transaction(async (tx) => {
      const current = await tx.campaigns.lock(scope.organizationId, id);
      if (current?.status !== 'DRAFT') throw new AppError('CONFLICT', 'The campaign changed meanwhile; reload it', { status: current?.status ?? null });
      await tx.campaigns.update(started);
      // A SCHEDULED campaign waits for the worker's scheduler (ReleaseScheduledMessages), which starts it at its time.
      if (!later) await tx.jobs.enqueue(QUEUES.campaignRun, { campaignId: id, organizationId: scope.organizationId });
    });
    return {
      message: later ? `scheduled for ${campaign.scheduledAt!.toISOString()}` : 'sending started',
      estimate: { recipients: estimate.recipients, cost: pesewasToGhs(estimate.cost), currency: 'GHS', ...(estimate.lookups ? { lookupCost: pesewasToGhs(estimate.lookups.cost) } : {}) },
      campaign: campaignView(started, await storage.campaigns.counts(scope.organizationId, id), approval?.status ?? null, now),
    };
  }
}
