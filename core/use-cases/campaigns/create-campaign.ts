import * as v from 'valibot';
import { fieldError } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import type { ApprovalRequest } from '../../domain/approval.ts';
import { campaignView, EMPTY_COUNTS, type Campaign } from '../../domain/campaign.ts';
import { NO_PROGRESS } from '../../domain/campaign-progress.ts';
import { checkCompliance } from '../../domain/compliance.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { VENDOR_CHANNELS } from '../../domain/channel.ts';

/** Spec "Campaign (create)". */
export const CreateCampaignInput = v.object({
  name: fields.requiredText(200),
  // Campaigns send to contacts' addresses; IN_APP (a subscriber id) is not offered to campaigns yet (docs/inbox.md).
  channel: v.picklist(VENDOR_CHANNELS, `must be one of ${VENDOR_CHANNELS.join(', ')}`),
  templateId: v.optional(fields.id()),
  segmentId: v.optional(fields.id()),
  scheduledAt: v.optional(v.pipe(v.string('must be an ISO 8601 date-time'), v.isoTimestamp('must be an ISO 8601 date-time with a time zone'))),
});

/**
 * POST /campaigns: a DRAFT, or PENDING_APPROVAL (with an approval request holding the compliance
 * result) when the template scores APPROVAL_THRESHOLD or more on the compliance check. Nothing is
 * sent until POST /campaigns/{id}/send. The template must be of the campaign's channel and use only
 * placeholders a contact fills (firstName, lastName, phone, email).
 */
export class CreateCampaign {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string | null }, raw: unknown) {
    const input = parseInput(CreateCampaignInput, raw);
    const { storage, ids, clock } = this.#deps;
    const template = input.templateId ? await storage.templates.findById(scope.organizationId, input.templateId) : null;
    if (input.templateId && !template) throw fieldError('templateId', 'template not found');
    if (template && template.channel !== input.channel) throw fieldError('templateId', `template is for ${template.channel}, not ${input.channel}`);
    // Placeholders are filled from each contact's fields and attributes; a recipient lacking one is skipped
    // with the reason (the estimate says how many), so the template is not refused here.
    if (input.segmentId && !(await storage.segments.findById(scope.organizationId, input.segmentId))) throw fieldError('segmentId', 'segment not found');

    const now = clock.now();
    const compliance = template ? checkCompliance([template.subject, template.body].filter(Boolean).join('\n'), template.category, [template.language]) : null;
    const campaign: Campaign = {
      id: ids.next(), organizationId: scope.organizationId, name: input.name, channel: input.channel, templateId: template?.id ?? null,
      segmentId: input.segmentId ?? null, scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
      status: compliance?.requiresApproval ? 'PENDING_APPROVAL' : 'DRAFT', approvalRequestId: null, riskScore: compliance?.riskScore ?? null,
      cursor: null, fanOutDone: false, progress: NO_PROGRESS, failureReason: null, createdByUserId: scope.userId, createdAt: now, updatedAt: now,
      startedAt: null, completedAt: null, cancelledAt: null,
    };
    let approval: ApprovalRequest | null = null;
    if (compliance?.requiresApproval && template) {
      approval = {
        id: ids.next(), organizationId: scope.organizationId, kind: 'CAMPAIGN', subjectId: campaign.id, status: 'PENDING',
        content: {
          name: campaign.name, channel: campaign.channel, templateId: template.id, segmentId: campaign.segmentId, body: template.body, subject: template.subject,
          category: template.category, language: template.language, compliance,
        },
        requestedByUserId: scope.userId, decidedByUserId: null, decidedAt: null, comment: null, createdAt: now,
      };
      campaign.approvalRequestId = approval.id;
    }
    await storage.transaction(async (tx) => {
      await tx.campaigns.insert(campaign);
      if (approval) await tx.approvals.insert(approval);
    });
    return campaignView(campaign, EMPTY_COUNTS, approval?.status ?? null, now);
  }
}
