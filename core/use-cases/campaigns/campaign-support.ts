import type { LinkTrackingOption } from '../links/link-tracking.ts';
import type { OptOutLinks } from '../consent/opt-out-link-text.ts';
import { isExemptCategory, type TemplateCategory } from '../../domain/channel.ts';
import { AppError } from '../../errors.ts';
import { addressKindOf, type Campaign } from '../../domain/campaign.ts';
import type { ApprovalRequest } from '../../domain/approval.ts';
import type { Contact } from '../../domain/contact.ts';
import type { PricingRule } from '../../domain/pricing.ts';
import type { Audience, SegmentRule } from '../../domain/segment-rules.ts';
import type { Template } from '../../domain/template.ts';
import type { Repositories, Storage } from '../../ports/storage.ts';
import { prepareMessage, type NetworkKnowledge, type PreparedMessage } from '../messaging/message-preparation.ts';

/** Template placeholders a campaign fills from each contact's fields; any other one from its attributes. */
export const CONTACT_VARIABLES = ['firstName', 'lastName', 'phone', 'email'] as const;

/**
 * Who a campaign sends to: its segment's contacts (the rules now for a dynamic segment, the frozen
 * members for a static one; everyone without a segment) that have an address for the channel and
 * have not opted out.
 */
export async function campaignAudience(repos: Pick<Repositories, 'segments'>, campaign: Campaign): Promise<Audience> {
  let rule: SegmentRule = { all: [] };
  let memberOf: string | null = null;
  if (campaign.segmentId) {
    const segment = await repos.segments.findById(campaign.organizationId, campaign.segmentId);
    if (!segment) throw new AppError('VALIDATION_ERROR', 'segmentId: the segment no longer exists', { fieldErrors: { segmentId: ['not found'] }, formErrors: [] });
    rule = segment.rules;
    memberOf = segment.isDynamic ? null : segment.id;
  }
  return {
    rule: { all: [rule, { field: 'address', op: 'exists', value: addressKindOf(campaign.channel) }, { field: 'optedOut', op: 'equals', value: false }] },
    memberOf,
  };
}

/** The message a contact gets, or why the contact is skipped (no valid address, a placeholder the contact cannot fill). */
export function prepareForContact(campaign: Campaign, template: Template, contact: Contact, rules: readonly PricingRule[], optOut?: OptOutLinks,
  organizationLocale: string | null = null, links?: LinkTrackingOption, networks?: NetworkKnowledge):
  { ok: true; prepared: PreparedMessage } | { ok: false; reason: string } {
  const to = contact[addressKindOf(campaign.channel)];
  if (!to) return { ok: false, reason: `no ${addressKindOf(campaign.channel)}` };
  const variables: Record<string, string> = { ...contact.attributes }; // the contact's own fields win over attributes of the same name
  for (const name of CONTACT_VARIABLES) { const value = contact[name]; if (value) variables[name] = value; }
  try {
    return { ok: true, prepared: prepareMessage({
      channel: campaign.channel, to, templateId: template.id, variables, countryCode: contact.countryCode, category: campaignCategory(template),
      locales: [contact.locale, organizationLocale], // docs/templates.md, "Locales"
    }, template, rules, '', { optOut, links, networks }) };
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_ERROR') return { ok: false, reason: error.message };
    throw error;
  }
}

/**
 * Applies a platform administrator's decision (recorded on the approval request by the admin
 * endpoints) to a campaign waiting for it: APPROVED -> DRAFT, REJECTED -> REJECTED. Pure.
 */
export function reconcileApproval(campaign: Campaign, approval: ApprovalRequest | null, now: Date): Campaign {
  if (campaign.status !== 'PENDING_APPROVAL' || !approval || approval.status === 'PENDING') return campaign;
  return approval.status === 'APPROVED'
    ? { ...campaign, status: 'DRAFT', updatedAt: now }
    : { ...campaign, status: 'REJECTED', failureReason: approval.comment ? `Rejected: ${approval.comment}` : 'Rejected by a platform administrator', updatedAt: now };
}

/** Loads a campaign of the organization with the approval decision applied (and saved when it changed it). */
export async function loadCampaign(storage: Pick<Storage, 'campaigns' | 'approvals'>, organizationId: string, id: string, now: Date) {
  const stored = await storage.campaigns.findById(organizationId, id);
  if (!stored) throw new AppError('NOT_FOUND', 'Campaign not found');
  const approval = stored.approvalRequestId ? await storage.approvals.findById(stored.approvalRequestId) : null;
  const campaign = reconcileApproval(stored, approval, now);
  if (campaign !== stored) await storage.campaigns.update(campaign);
  return { campaign, approval };
}

/**
 * A Storage view of an open transaction: `transaction(work)` runs `work` inside it. Lets the fan-out
 * reuse acceptMessages (which opens its own transaction) so a batch's messages, debit, jobs,
 * recipients and cursor commit together.
 */
export function withinTransaction(tx: Repositories): Storage {
  return { ...tx, transaction: <T>(work: (inner: Repositories) => Promise<T>) => work(tx) } as Storage;
}

/** A campaign's messages are MARKETING unless the template names another category a recipient may opt out of (docs/consent.md). */
export function campaignCategory(template: Pick<Template, 'category'>): TemplateCategory {
  return isExemptCategory(template.category) ? 'MARKETING' : template.category;
}
