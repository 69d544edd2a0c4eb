import { linkTrackingOption, type LinkTrackingDeps } from '../links/link-tracking.ts';
import { optOutOption } from '../consent/opt-out-link-text.ts';
import type { OptOutLinkSigner } from '../../ports/opt-out-links.ts';
import { fieldError } from '../../errors.ts';
import type { Campaign } from '../../domain/campaign.ts';
import { encodingReport, type EncodingReport } from '../../domain/encoding-report.ts';
import type { SegmentRule } from '../../domain/segment-rules.ts';
import type { SmsEncoding } from '../../domain/sms-segments.ts';
import type { Template } from '../../domain/template.ts';
import { chooseTemplateContent } from '../../domain/template-variant.ts';
import type { PricingRepository } from '../../ports/pricing-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import type { Clock } from '../../ports/clock.ts';
import { isNewOrganization, newTenantAllowance, type NewTenantAllowance, type NewTenantLimits } from '../../domain/new-tenant-cap.ts';
import { campaignAudience, prepareForContact } from './campaign-support.ts';
import type { OwnAccountPricing } from '../messaging/accept-messages.ts';
import { routePrice } from '../messaging/own-account-price.ts';
import type { NetworkKnowledge, PreparedMessage } from '../messaging/message-preparation.ts';
import { needsLookup, type LookupMode } from '../../domain/mobile-network.ts';
import type { SendLookups } from '../routing/number-lookup-support.ts';

/** Contacts priced per locale to estimate a campaign's cost. */
const ESTIMATE_SAMPLE = 200;
/** Contact locales counted one by one; contacts in rarer locales are priced at the dearest locale's price. */
const LOCALE_GROUPS = 100;

/** One locale of the template the audience will get, and what its messages cost. */
export interface LocaleEstimate {
  /** The template locale these recipients get (their own, the organization's default or the template's: docs/templates.md "Locales"). */
  locale: string;
  /** The contacts' own locales that resolve to it (null: contacts without one). */
  contactLocales: Array<string | null>;
  recipients: number;
  skipped: number;
  /** SMS: the encoding and segments of the dearest message in the sample; null / 1 for other channels. */
  encoding: SmsEncoding | null;
  segments: number;
  /** Pesewas per message (the dearest in the sample) and for these recipients. */
  price: number;
  cost: number;
  /** The text's characters that force UCS-2 (SMS), with suggestions when asked for (domain/encoding-report.ts). */
  text: EncodingReport | null;
}

export interface CampaignEstimate {
  recipients: number;
  /** The new-tenant cap now (null when the organization is established) and how many recipients it would refuse. */
  newTenantCap: (NewTenantAllowance & { refused: number }) | null;
  /** Recipients who would be skipped (exact when every locale's audience fits its sample, else scaled from the samples); with the reasons seen. */
  skipped: { count: number; exact: boolean; reasons: string[] };
  /** SMS segments per message (the largest in the samples; 1 for other channels). */
  segmentsPerMessage: number;
  /** Pesewas: the sum over locales of recipients x the dearest price in that locale's sample (exact when a locale's messages cost the same). */
  cost: number;
  /** Paid number lookups on top of `cost` (null: lookups off for the organization or the platform). */
  lookups: LookupEstimate | null;
  locales: LocaleEstimate[];
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
  /** Numbers' networks from memory (docs/routing.md): recipients are priced by them, as the fan-out does. */
  networks?: NetworkKnowledge | undefined;
  /** Paid lookups (docs/routing.md): the estimate counts the recipients the organization's mode would look up. */
  lookups?: SendLookups | undefined;
}

/** Paid number lookups a campaign's recipients would need under the organization's mode (at most: a number learnt meanwhile needs none). */
export interface LookupEstimate {
  mode: LookupMode;
  /** Recipients whose number would be looked up (scaled from the samples like `skipped`). */
  recipients: number;
  /** Pesewas per lookup and for all of them. */
  price: number;
  cost: number;
}

/**
 * Recipients now, and a cost estimate per template locale: the audience is counted per contact locale,
 * each contact locale resolved to the variant it gets, and each variant priced from a sample of its own
 * recipients. VALIDATION_ERROR when the campaign has no usable template.
 */
export async function estimateCampaign(deps: CampaignEstimateDeps, campaign: Campaign, options: { suggest?: boolean } = {}): Promise<CampaignEstimate> {
  if (!campaign.templateId) throw fieldError('templateId', 'a campaign needs a template to send');
  const template = await deps.storage.templates.findById(campaign.organizationId, campaign.templateId);
  if (!template) throw fieldError('templateId', 'the template no longer exists');
  const audience = await campaignAudience(deps.storage, campaign);
  const [recipients, groups, rules, organization] = await Promise.all([
    deps.storage.contacts.count(campaign.organizationId, audience),
    deps.storage.contacts.countByLocale(campaign.organizationId, audience, LOCALE_GROUPS),
    deps.pricing.listActive(),
    deps.storage.organizations.findById(campaign.organizationId),
  ]);
  const organizationLocale = organization?.defaultLanguage ?? null;
  const buckets = new Map<string, { contactLocales: Array<string | null>; recipients: number }>();
  for (const group of groups) {
    const locale = chooseTemplateContent(template, [group.locale, organizationLocale]).locale;
    const bucket = buckets.get(locale) ?? { contactLocales: [], recipients: 0 };
    bucket.contactLocales.push(group.locale); bucket.recipients += group.count;
    buckets.set(locale, bucket);
  }
  const optOut = optOutOption(deps, campaign.organizationId);
  const mode = deps.lookups ? await deps.lookups.settings.lookupMode(campaign.organizationId) : 'off';
  const wouldLookUp = (prepared: PreparedMessage) => deps.lookups !== undefined && prepared.country !== null && prepared.recipient.startsWith('+')
    && needsLookup(mode, deps.lookups.deps.intelligence.known(prepared.recipient));
  let lookedUp = 0;
  const links = await linkTrackingOption(deps, campaign.organizationId);
  const locales: LocaleEstimate[] = [];
  const reasons = new Set<string>();
  let exact = true;
  for (const [locale, bucket] of buckets) {
    const only: SegmentRule = { any: [
      ...(bucket.contactLocales.some((l) => l !== null) ? [{ field: 'locale' as const, op: 'equals' as const, value: bucket.contactLocales.flatMap((l) => (l ? [l.toLowerCase()] : [])) }] : []),
      ...(bucket.contactLocales.includes(null) ? [{ field: 'locale' as const, op: 'exists' as const, value: false }] : []),
    ] };
    const sample = await deps.storage.contacts.page(campaign.organizationId, { ...audience, rule: { all: [audience.rule, only] } }, null, ESTIMATE_SAMPLE);
    let price = 0; let segments = 1; let encoding: SmsEncoding | null = null; let skippedInSample = 0; let lookupsInSample = 0;
    for (const contact of sample) {
      const result = prepareForContact(campaign, template, contact, rules, optOut, organizationLocale, links, deps.networks);
      if (!result.ok) { skippedInSample += 1; reasons.add(result.reason); continue; }
      if (wouldLookUp(result.prepared)) lookupsInSample += 1;
      const routed = routePrice(deps.ownAccounts, campaign.organizationId, result.prepared).price;
      if (routed >= price) { price = routed; encoding = result.prepared.encoding; }
      segments = Math.max(segments, result.prepared.segments);
    }
    const complete = sample.length >= bucket.recipients;
    exact &&= complete;
    const skipped = complete ? skippedInSample : Math.round((skippedInSample / Math.max(1, sample.length)) * bucket.recipients);
    lookedUp += complete ? lookupsInSample : Math.round((lookupsInSample / Math.max(1, sample.length)) * bucket.recipients);
    const content = chooseTemplateContent(template, [locale]);
    locales.push({ locale, contactLocales: bucket.contactLocales, recipients: bucket.recipients, skipped, encoding, segments, price,
      cost: (bucket.recipients - skipped) * price, text: campaign.channel === 'SMS' ? encodingReport(content.body, options) : null });
  }
  const counted = locales.reduce((sum, l) => sum + l.recipients, 0);
  if (counted < recipients && locales.length > 0) {
    // Contacts in locales beyond the counted groups (or added since): priced at the dearest locale's price.
    const dearest = locales.reduce((a, b) => (b.price > a.price ? b : a));
    dearest.recipients += recipients - counted; dearest.cost += (recipients - counted) * dearest.price; exact = false;
  }
  locales.sort((a, b) => b.recipients - a.recipients || (a.locale < b.locale ? -1 : 1));
  const skippedCount = locales.reduce((sum, l) => sum + l.skipped, 0);
  const now = deps.clock.now();
  const young = organization && isNewOrganization(organization, deps.fraud, now);
  const sentThisHour = young ? await deps.storage.messages.countSince(campaign.organizationId, new Date(now.getTime() - 3_600_000)) : 0;
  const allowance = organization ? newTenantAllowance(organization, deps.fraud, sentThisHour, now) : null;
  const newTenantCap = allowance ? { ...allowance, refused: Math.max(0, recipients - allowance.remaining) } : null;
  return {
    recipients, newTenantCap, skipped: { count: skippedCount, exact, reasons: [...reasons].slice(0, 5) },
    segmentsPerMessage: Math.max(1, ...locales.map((l) => l.segments)), cost: locales.reduce((sum, l) => sum + l.cost, 0), locales, template,
    lookups: deps.lookups && mode !== 'off' ? { mode, recipients: lookedUp, price: deps.lookups.deps.pricePerLookup, cost: lookedUp * deps.lookups.deps.pricePerLookup } : null,
  };
}
