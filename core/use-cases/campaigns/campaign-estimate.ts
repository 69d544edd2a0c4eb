import { linkTrackingOption, type LinkTrackingDeps } from '../links/link-tracking.ts';
import { optOutOption } from '../consent/opt-out-link-text.ts';
import type { OptOutLinkSigner } from '../../ports/opt-out-links.ts';
import { fieldError } from '../../errors.ts';
import type { Campaign } from '../../domain/campaign.ts';
import type { Template } from '../../domain/template.ts';
import type { PricingRepository } from '../../ports/pricing-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import type { Clock } from '../../ports/clock.ts';
import { isNewOrganization, newTenantAllowance, type NewTenantAllowance, type NewTenantLimits } from '../../domain/new-tenant-cap.ts';
import { campaignAudience, prepareForContact } from './campaign-support.ts';
import type { OwnAccountPricing } from '../messaging/accept-messages.ts';
import { routePrice } from '../messaging/own-account-price.ts';

/** Contacts priced to estimate a campaign's cost. */
const ESTIMATE_SAMPLE = 200;

export interface CampaignEstimate {
  recipients: number;
  /** The new-tenant cap now (null when the organization is established) and how many recipients it would refuse. */
  newTenantCap: (NewTenantAllowance & { refused: number }) | null;
  /**
   * Recipients who would be skipped (a placeholder their fields and attributes cannot fill, an invalid
   * address): exact when the audience fits the sample, else scaled from the sample; with the reasons seen.
   */
  skipped: { count: number; exact: boolean; reasons: string[] };
  /** SMS segments per message (the largest in the sample; 1 for other channels). */
  segmentsPerMessage: number;
  /** Estimated cost in pesewas: recipients x the highest price in the sample, on each recipient's route (an upper bound when prices vary by country or name length). */
  cost: number;
  template: Template;
}

/** What estimating a campaign needs (GET /campaigns/{id}/estimate, and the balance check of its send). */
export interface CampaignEstimateDeps {
  storage: Storage;
  pricing: PricingRepository;
  clock: Clock;
  fraud: NewTenantLimits;
  optOutLinks?: OptOutLinkSigner | undefined;
  /** Tracked links: the estimate prices the body with its short links, as the send will. */
  linkTracking?: LinkTrackingDeps | undefined;
  /** Organizations' own vendor accounts: recipients on their routes are priced at the own-account fee (docs/providers.md). */
  ownAccounts?: OwnAccountPricing | undefined;
}

/** Recipients now, and a cost estimate priced from a sample of them. VALIDATION_ERROR when the campaign has no usable template. */
export async function estimateCampaign(deps: CampaignEstimateDeps, campaign: Campaign): Promise<CampaignEstimate> {
  if (!campaign.templateId) throw fieldError('templateId', 'a campaign needs a template to send');
  const template = await deps.storage.templates.findById(campaign.organizationId, campaign.templateId);
  if (!template) throw fieldError('templateId', 'the template no longer exists');
  const audience = await campaignAudience(deps.storage, campaign);
  const [recipients, sample, rules] = await Promise.all([
    deps.storage.contacts.count(campaign.organizationId, audience),
    deps.storage.contacts.page(campaign.organizationId, audience, null, ESTIMATE_SAMPLE),
    deps.pricing.listActive(),
  ]);
  let price = 0; let segments = 1; let skippedInSample = 0;
  const reasons = new Set<string>();
  const links = await linkTrackingOption(deps, campaign.organizationId);
  for (const contact of sample) {
    const result = prepareForContact(campaign, template, contact, rules, optOutOption(deps, campaign.organizationId), links);
    if (result.ok) { price = Math.max(price, routePrice(deps.ownAccounts, campaign.organizationId, result.prepared).price); segments = Math.max(segments, result.prepared.segments); } else { skippedInSample += 1; reasons.add(result.reason); }
  }
  const exact = sample.length >= recipients;
  const skipped = { count: exact ? skippedInSample : Math.round((skippedInSample / Math.max(1, sample.length)) * recipients), exact, reasons: [...reasons].slice(0, 5) };
  const now = deps.clock.now();
  const organization = await deps.storage.organizations.findById(campaign.organizationId);
  const young = organization && isNewOrganization(organization, deps.fraud, now);
  const sentThisHour = young ? await deps.storage.messages.countSince(campaign.organizationId, new Date(now.getTime() - 3_600_000)) : 0;
  const allowance = organization ? newTenantAllowance(organization, deps.fraud, sentThisHour, now) : null;
  const newTenantCap = allowance ? { ...allowance, refused: Math.max(0, recipients - allowance.remaining) } : null;
  return { recipients, newTenantCap, skipped, segmentsPerMessage: segments, cost: (recipients - skipped.count) * price, template };
}
