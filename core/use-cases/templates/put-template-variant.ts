import * as v from 'valibot';
import { AppError, fieldError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import type { ApprovalRequest } from '../../domain/approval.ts';
import { needsApproval } from '../../domain/channel.ts';
import { normaliseLocale, sameLocale } from '../../domain/locale.ts';
import { extractVariables } from '../../domain/template-rendering.ts';
import { templateView } from '../../domain/template.ts';
import { TEMPLATE_VARIANTS_MAX, type TemplateVariant } from '../../domain/template-variant.ts';
import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { Storage } from '../../ports/storage.ts';
import { EMAIL_BODY_MAX, SUBJECT_MAX, TEXT_BODY_MAX } from '../messaging/message-preparation.ts';

/** PUT /templates/{id}/variants/{locale}: the variant's text. */
export const PutTemplateVariantInput = v.object({
  body: v.pipe(v.string('must be a string'), v.check((body) => body.trim() !== '', 'is required'), v.maxLength(EMAIL_BODY_MAX, `must be at most ${EMAIL_BODY_MAX} characters`)),
  subject: v.optional(v.nullable(v.pipe(v.string('must be a string'), v.maxLength(SUBJECT_MAX, `must be at most ${SUBJECT_MAX} characters`)))),
});

const SUBJECT_CHANNELS = new Set(['EMAIL', 'PUSH', 'IN_APP']);

/**
 * Sets a template's text in one locale (docs/templates.md, "Locales"). The variant uses only the
 * template's variables (callers fill the same names whatever the locale); its subject (EMAIL, PUSH,
 * IN_APP) defaults to the template's. Like a template, a variant of a high-risk category is stored
 * PENDING_APPROVAL with an approval request (content names the locale) in one transaction, any other
 * is APPROVED at once; replacing a variant's text starts its approval again. Until approved, sends
 * fall back along the locale chain.
 * Errors: NOT_FOUND (template), VALIDATION_ERROR naming locale, body, subject or variables.
 */
export class PutTemplateVariant {
  readonly #deps: { storage: Storage; ids: IdGenerator; clock: Clock };
  constructor(deps: { storage: Storage; ids: IdGenerator; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string | null }, id: string, rawLocale: string, raw: unknown) {
    const { storage, ids, clock } = this.#deps;
    const template = id.length > 0 && id.length <= 64 ? await storage.templates.findById(scope.organizationId, id) : null;
    if (!template) throw new AppError('NOT_FOUND', 'Template not found');
    const locale = normaliseLocale(rawLocale);
    if (!locale) throw fieldError('locale', 'must be a BCP 47 language tag such as tw, ee, gaa, fr or en-GH');
    if (sameLocale(locale, template.language)) throw fieldError('locale', `is the template's own language (${template.language}); its text is the template body`);
    const input = parseInput(PutTemplateVariantInput, raw);
    const max = template.channel === 'EMAIL' ? EMAIL_BODY_MAX : TEXT_BODY_MAX;
    if (input.body.length > max) throw fieldError('body', `must be at most ${max} characters for ${template.channel}`);
    const subject = input.subject?.trim() ? input.subject : null;
    if (subject !== null && !SUBJECT_CHANNELS.has(template.channel)) throw fieldError('subject', 'is only used by EMAIL, PUSH and IN_APP templates');
    const unknown = [...extractVariables(input.body), ...extractVariables(subject ?? '')].filter((name) => !template.variables.includes(name));
    if (unknown.length > 0) throw fieldError('body', `uses placeholders the template does not have: ${[...new Set(unknown)].join(', ')} (the template's variables: ${template.variables.join(', ') || 'none'})`);
    const existing = (template.variants ?? []).find((x) => sameLocale(x.locale, locale));
    if (!existing && (template.variants ?? []).length >= TEMPLATE_VARIANTS_MAX) throw fieldError('locale', `a template has at most ${TEMPLATE_VARIANTS_MAX} variants`);

    const now = clock.now();
    const pending = needsApproval(template.category);
    const approval: ApprovalRequest | null = pending ? {
      id: ids.next(), organizationId: scope.organizationId, kind: 'TEMPLATE', subjectId: template.id, status: 'PENDING',
      content: { name: template.name, channel: template.channel, category: template.category, locale, body: input.body, subject: subject ?? template.subject },
      requestedByUserId: scope.userId, decidedByUserId: null, decidedAt: null, comment: null, createdAt: now,
    } : null;
    const variant: TemplateVariant = {
      locale, body: input.body, subject, status: pending ? 'PENDING_APPROVAL' : 'APPROVED', reviewComment: null,
      approvalRequestId: approval?.id ?? null, createdAt: existing?.createdAt ?? now, updatedAt: now,
    };
    const updated = await storage.transaction(async (tx) => {
      const saved = await tx.templates.putVariant(scope.organizationId, template.id, variant, now);
      if (saved && approval) await tx.approvals.insert(approval);
      return saved;
    });
    if (!updated) throw new AppError('NOT_FOUND', 'Template not found');
    return { ...templateView(updated), ...(approval ? { approvalRequestId: approval.id } : {}) };
  }
}
