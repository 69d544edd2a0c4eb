import type { CancelCampaign } from '../../../core/use-cases/campaigns/cancel-campaign.ts';
import { CreateCampaignInput, type CreateCampaign } from '../../../core/use-cases/campaigns/create-campaign.ts';
import { EstimateCampaignQuery, type EstimateCampaign } from '../../../core/use-cases/campaigns/estimate-campaign.ts';
import type { GetCampaign } from '../../../core/use-cases/campaigns/get-campaign.ts';
import { CAMPAIGNS_LISTED_MAX, type ListCampaigns } from '../../../core/use-cases/campaigns/list-campaigns.ts';
import type { PauseCampaign } from '../../../core/use-cases/campaigns/pause-campaign.ts';
import type { ResumeCampaign } from '../../../core/use-cases/campaigns/resume-campaign.ts';
import type { SendCampaign } from '../../../core/use-cases/campaigns/send-campaign.ts';
import { ok, requireTenant, type RouteDefinition } from '../route.ts';

export interface CampaignRouteDeps {
  createCampaign: CreateCampaign;
  listCampaigns: ListCampaigns;
  getCampaign: GetCampaign;
  estimateCampaign: EstimateCampaign;
  sendCampaign: SendCampaign;
  cancelCampaign: CancelCampaign;
  pauseCampaign: PauseCampaign;
  resumeCampaign: ResumeCampaign;
}

const DENIED = {
  401: 'UNAUTHORIZED (API keys are not accepted here)', 403: 'FORBIDDEN (not a member, or the role lacks the permission)',
};
const NOT_FOUND = { 404: 'NOT_FOUND (unknown id, or a campaign of another organization)' };

export function campaignRoutes(deps: CampaignRouteDeps): RouteDefinition[] {
  const id = (params: Record<string, string>) => params['id'] ?? '';
  return [
    {
      method: 'GET', path: '/campaigns', tag: 'Campaigns', summary: 'Campaigns, newest first, with status, approval status and delivery counts',
      auth: 'tenant', permission: 'campaigns:read',
      responses: { 200: `Campaigns (at most ${CAMPAIGNS_LISTED_MAX})`, 400: 'ORGANIZATION_REQUIRED', ...DENIED },
      handler: async (input) => ok(await deps.listCampaigns.execute(requireTenant(input))),
    },
    {
      method: 'POST', path: '/campaigns', tag: 'Campaigns', summary: 'Create a campaign (DRAFT, or PENDING_APPROVAL when the template scores 30+ on the compliance check)',
      auth: 'tenant', permission: 'campaigns:write', body: CreateCampaignInput,
      responses: { 201: 'The campaign', 400: 'VALIDATION_ERROR (unknown template or segment, template of another channel ...) or ORGANIZATION_REQUIRED', ...DENIED },
      handler: async (input) => {
        const tenant = requireTenant(input);
        return ok(await deps.createCampaign.execute({ organizationId: tenant.organizationId, userId: tenant.userId }, input.body), 201);
      },
    },
    {
      method: 'GET', path: '/campaigns/:id', tag: 'Campaigns', summary: 'One campaign with its approval status and counts (queued, sent, delivered, failed, rejected, skipped)',
      auth: 'tenant', permission: 'campaigns:read',
      responses: { 200: 'The campaign', 400: 'ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND },
      handler: async (input) => ok(await deps.getCampaign.execute(requireTenant(input), id(input.params))),
    },
    {
      method: 'GET', path: '/campaigns/:id/estimate', tag: 'Campaigns', summary: 'Recipients, SMS segments and estimated cost (GHS), and whether the wallet covers it',
      auth: 'tenant', permission: 'campaigns:read', query: EstimateCampaignQuery,
      responses: { 200: '{ recipients, segments, cost, currency, balance, sufficientBalance, locales: [{ locale, recipients, encoding, segments, price, cost, ucs2Characters ... }] }', 400: 'VALIDATION_ERROR (no template) or ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND },
      handler: async (input) => ok(await deps.estimateCampaign.execute(requireTenant(input), id(input.params), input.query)),
    },
    {
      method: 'POST', path: '/campaigns/:id/send', tag: 'Campaigns', summary: 'Start sending (now, or at scheduledAt when in the future)',
      auth: 'tenant', permission: 'campaigns:send',
      responses: {
        200: '{ message: "sending started" (or "scheduled for ..."), estimate, campaign }', 400: 'VALIDATION_ERROR (no template) or ORGANIZATION_REQUIRED',
        402: 'INSUFFICIENT_BALANCE (the wallet cannot cover the estimate)', ...DENIED, ...NOT_FOUND,
        409: 'CONFLICT (the campaign is not a DRAFT)', 422: 'CAMPAIGN_NOT_APPROVED (waiting for, or refused, platform approval) or TEMPLATE_NOT_APPROVED',
      },
      handler: async (input) => ok(await deps.sendCampaign.execute(requireTenant(input), id(input.params))),
    },
    {
      method: 'POST', path: '/campaigns/:id/cancel', tag: 'Campaigns', summary: 'Cancel a campaign that has not finished (queued messages still go out)',
      auth: 'tenant', permission: 'campaigns:write',
      responses: { 200: 'The campaign (CANCELLED)', 400: 'ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND, 409: 'CONFLICT (already COMPLETED, CANCELLED, FAILED or REJECTED)' },
      handler: async (input) => ok(await deps.cancelCampaign.execute(requireTenant(input), id(input.params))),
    },
    {
      method: 'POST', path: '/campaigns/:id/pause', tag: 'Campaigns', summary: 'Pause a sending campaign\'s fan-out at the next batch (queued messages still go out)',
      auth: 'tenant', permission: 'campaigns:write',
      responses: { 200: 'The campaign (PAUSED)', 400: 'ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND, 409: 'CONFLICT (not SENDING, or every recipient already handed over)' },
      handler: async (input) => ok(await deps.pauseCampaign.execute(requireTenant(input), id(input.params))),
    },
    {
      method: 'POST', path: '/campaigns/:id/resume', tag: 'Campaigns', summary: 'Resume a paused campaign\'s fan-out from where it stopped',
      auth: 'tenant', permission: 'campaigns:write',
      responses: { 200: 'The campaign (SENDING)', 400: 'ORGANIZATION_REQUIRED', ...DENIED, ...NOT_FOUND, 409: 'CONFLICT (not PAUSED)' },
      handler: async (input) => ok(await deps.resumeCampaign.execute(requireTenant(input), id(input.params))),
    },
  ];
}
