import * as v from 'valibot';
import { AppError, type ValidationDetails } from '../../errors.ts';
import { fields, parseInput } from '../../validation.ts';
import type { ApprovalRequest } from '../../domain/approval.ts';
import { needsApproval, TEMPLATE_CATEGORIES, TEMPLATE_CHANNELS } from '../../domain/channel.ts';
import { extractVariables } from '../../domain/template-rendering.ts';
import { templateView, type Template } from '../../domain/template.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { checkedMapping, MetaTemplateInput } from './meta-template-input.ts';
import { countryCodeSchema, EMAIL_BODY_MAX, SUBJECT_MAX, TEXT_BODY_MAX } from '../messaging/message-preparation.ts';

/** A variable name as a placeholder writes it (template-rendering.ts), and the send path's key limits. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;
export const TEMPLATE_VARIABLE_NAME_MAX = 100;
export const TEMPLATE_VARIABLES_MAX = 100;

/**
 * A BCP 47 language tag with a two- or three-letter primary language ('en', 'en-GH', 'ak', 'gaa',
 * 'fr-CI'), stored in canonical case ('en-gh' -> 'en-GH').
 */
const languageSchema = v.pipe(
  v.string('must be a string'), v.trim(), v.maxLength(35, 'must be at most 35 characters'),
  v.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a BCP 47 language tag such as en, en-GH or ak'),
  v.check(isLanguageTag, 'must be a BCP 47 language tag such as en, en-GH or ak'),
  v.transform((tag) => Intl.getCanonicalLocales(tag)[0] ?? tag),
);

/** Spec "Template (create)". `subject` is for EMAIL templates only; `variables`, when given, must match the placeholders. */
export const CreateTemplateInput = v.object({
  name: fields.requiredText(200),
  channel: v.picklist(TEMPLATE_CHANNELS, `must be one of ${TEMPLATE_CHANNELS.join(', ')}`),
  body: v.pipe(v.string('must be a string'), v.check((body) => body.trim() !== '', 'is required'),
    v.maxLength(EMAIL_BODY_MAX, `must be at most ${EMAIL_BODY_MAX} characters`)),
  countryCode: v.optional(countryCodeSchema, 'GH'),
  language: v.optional(languageSchema, 'en'),
  category: v.optional(v.picklist(TEMPLATE_CATEGORIES, `must be one of ${TEMPLATE_CATEGORIES.join(', ')}`), 'TRANSACTIONAL'),
  subject: v.optional(v.pipe(v.string('must be a string'), v.maxLength(SUBJECT_MAX, `must be at most ${SUBJECT_MAX} characters`))),
  variables: v.optional(v.pipe(
    v.array(v.pipe(v.string('must be strings'), v.regex(VARIABLE_NAME, 'names must look like placeholders: a letter or _, then letters, digits, _ or .')),
      'must be an array of variable names'),
    v.maxLength(TEMPLATE_VARIABLES_MAX, `must list at most ${TEMPLATE_VARIABLES_MAX} names`))),
  /** WHATSAPP only: the approved Meta template sent outside the 24-hour window (docs/whatsapp-templates.md). */
  metaTemplate: v.optional(v.nullable(MetaTemplateInput)),
});
export type CreateTemplateInput = v.InferInput<typeof CreateTemplateInput>;

export interface CreateTemplateDeps {
  storage: Storage;
  ids: IdGenerator;
  clock: Clock;
}

export type CreatedTemplate = ReturnType<typeof templateView> & { approvalRequestId?: string };

/**
 * POST /templates. The variables are the placeholders of body and subject (in order of first
 * appearance); a caller's `variables` list must name exactly those. A template in a high-risk
 * category (needsApproval) is stored PENDING_APPROVAL together with a PENDING approval request for
 * platform administrators, in one transaction; any other is APPROVED at once.
 * Errors: VALIDATION_ERROR naming the field (body over the channel's limit, subject on a
 * non-EMAIL template, variables not matching the placeholders).
 */
export class CreateTemplate {
  readonly #deps: CreateTemplateDeps;
  constructor(deps: CreateTemplateDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string | null }, raw: unknown): Promise<CreatedTemplate> {
    const input = parseInput(CreateTemplateInput, raw);
    const bodyMax = input.channel === 'EMAIL' ? EMAIL_BODY_MAX : TEXT_BODY_MAX;
    if (input.body.length > bodyMax) throw invalid('body', `must be at most ${bodyMax} characters for ${input.channel}`);
    // A blank subject is "none" (dashboards send empty fields); a real one on SMS etc. would be silently unused.
    const subject = input.subject?.trim() ? input.subject : null;
    if (subject !== null && input.channel !== 'EMAIL') throw invalid('subject', 'is only used by EMAIL templates');
    const variables = checkedVariables(input.body, subject, input.variables);
    const metaTemplate = input.metaTemplate ? checkedMapping(input.metaTemplate, input.channel, variables) : null;

    const { storage, ids, clock } = this.#deps;
    const now = clock.now();
    const pending = needsApproval(input.category);
    const template: Template = {
      id: ids.next(), organizationId: scope.organizationId, name: input.name, channel: input.channel, body: input.body, subject,
      countryCode: input.countryCode, language: input.language, category: input.category, variables,
      status: pending ? 'PENDING_APPROVAL' : 'APPROVED', reviewComment: null, createdByUserId: scope.userId, createdAt: now, updatedAt: now,
      ...(input.channel === 'WHATSAPP' ? { metaTemplate, metaCheck: null } : {}),
    };
    const approval: ApprovalRequest | null = pending ? {
      id: ids.next(), organizationId: scope.organizationId, kind: 'TEMPLATE', subjectId: template.id, status: 'PENDING',
      content: { name: template.name, channel: template.channel, category: template.category, body: template.body, subject: template.subject },
      requestedByUserId: scope.userId, decidedByUserId: null, decidedAt: null, comment: null, createdAt: now,
    } : null;

    await storage.transaction(async (tx) => {
      await tx.templates.insert(template);
      if (approval) await tx.approvals.insert(approval);
    });
    return approval ? { ...templateView(template), approvalRequestId: approval.id } : templateView(template);
  }
}

/** The placeholders of body and subject; a given list must name the same set (order and duplicates aside). */
function checkedVariables(body: string, subject: string | null, listed: readonly string[] | undefined): string[] {
  const detected = [...new Set([...extractVariables(body), ...extractVariables(subject ?? '')])];
  const tooLong = detected.filter((name) => name.length > TEMPLATE_VARIABLE_NAME_MAX);
  if (tooLong.length > 0) throw invalid('body', `placeholder names must be at most ${TEMPLATE_VARIABLE_NAME_MAX} characters: ${tooLong.join(', ')}`);
  if (detected.length > TEMPLATE_VARIABLES_MAX) throw invalid('body', `must use at most ${TEMPLATE_VARIABLES_MAX} different placeholders`);
  if (listed === undefined) return detected;
  const unused = [...new Set(listed)].filter((name) => !detected.includes(name));
  const unlisted = detected.filter((name) => !listed.includes(name));
  const problems = [
    ...(unused.length > 0 ? [`not used in body or subject: ${unused.join(', ')}`] : []),
    ...(unlisted.length > 0 ? [`placeholders not listed: ${unlisted.join(', ')}`] : []),
  ];
  if (problems.length > 0) throw invalid('variables', `must name exactly the placeholders of body and subject; ${problems.join('; ')}`);
  return detected;
}

function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

function invalid(field: string, message: string): AppError {
  const details: ValidationDetails = { fieldErrors: { [field]: [message] }, formErrors: [] };
  return new AppError('VALIDATION_ERROR', `${field}: ${message}`, { ...details });
}
