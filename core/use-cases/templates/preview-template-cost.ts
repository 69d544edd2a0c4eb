import * as v from 'valibot';
import { AppError, fieldError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { CHANNELS } from '../../domain/channel.ts';
import { encodingReport, type EncodingReport } from '../../domain/encoding-report.ts';
import { localeSchema } from '../../domain/locale.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import { costPreview } from '../../domain/pricing.ts';
import { extractVariables, renderTemplate } from '../../domain/template-rendering.ts';
import type { PricingRepository } from '../../ports/pricing-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import { countryCodeSchema, EMAIL_BODY_MAX, variablesSchema } from '../messaging/message-preparation.ts';
import { TEMPLATE_VARIANTS_MAX } from '../../domain/template-variant.ts';

/** POST /templates/cost-preview: texts being edited, or a stored template's (its own body and every variant). */
export const PreviewTemplateCostInput = v.object({
  templateId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
  channel: v.optional(v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`)),
  countryCode: v.optional(countryCodeSchema),
  variants: v.optional(v.pipe(v.array(v.object({
    locale: localeSchema,
    body: v.pipe(v.string('must be a string'), v.maxLength(EMAIL_BODY_MAX, `must be at most ${EMAIL_BODY_MAX} characters`)),
  }), 'must be an array of { locale, body }'), v.minLength(1, 'must not be empty'), v.maxLength(TEMPLATE_VARIANTS_MAX + 1, `at most ${TEMPLATE_VARIANTS_MAX + 1} texts`))),
  /** Sample values; placeholders without one are counted as written. */
  variables: variablesSchema,
  /** Opt-in (docs/templates.md): also suggest GSM-7 spellings of the characters forcing UCS-2. Never applied to anything. */
  suggestTransliteration: v.optional(v.boolean('must be true or false'), false),
});

type LocaleCost = { locale: string; status: string | null; unitPrice: number; price: number; segments: number } & Partial<EncodingReport>;

/**
 * What each locale's text of a template costs per message to `countryCode` (default: the template's,
 * else GH) at the platform's prices: SMS encoding, segments, the characters forcing UCS-2 (where and
 * which) and, when asked, a GSM-7 suggestion with what it would cost. Records nothing.
 * Errors: VALIDATION_ERROR (neither templateId nor variants), NOT_FOUND (templateId).
 */
export class PreviewTemplateCost {
  readonly #deps: { storage: Pick<Storage, 'templates'>; pricing: PricingRepository };
  constructor(deps: { storage: Pick<Storage, 'templates'>; pricing: PricingRepository }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown): Promise<{ channel: string; countryCode: string; currency: 'GHS'; locales: LocaleCost[] }> {
    const input = parseInput(PreviewTemplateCostInput, raw);
    const template = input.templateId ? await this.#deps.storage.templates.findById(scope.organizationId, input.templateId) : null;
    if (input.templateId && !template) throw new AppError('NOT_FOUND', 'Template not found');
    const texts = input.variants?.map((t) => ({ ...t, status: null as string | null }))
      ?? (template ? [{ locale: template.language, body: template.body, status: template.status as string | null },
        ...(template.variants ?? []).map((x) => ({ locale: x.locale, body: x.body, status: x.status as string | null }))] : null);
    if (!texts) throw fieldError('variants', 'give the texts (variants) or a templateId');
    const channel = input.channel ?? template?.channel ?? 'SMS';
    if (channel === 'IN_APP') throw fieldError('channel', 'IN_APP messages are free and have no encoding');
    const countryCode = input.countryCode ?? template?.countryCode ?? 'GH';
    const rules = await this.#deps.pricing.listActive();
    const locales = texts.map(({ locale, body, status }) => {
      const text = sample(body, input.variables ?? {});
      const cost = costPreview(rules, channel, countryCode, text);
      if (!cost) throw new AppError('INTERNAL_ERROR', `no pricing rule for ${channel}`);
      const report = channel === 'SMS' ? encodingReport(text, { suggest: input.suggestTransliteration }) : {};
      return { locale, status, ...report, segments: cost.segments, unitPrice: pesewasToGhs(cost.rule.pricePerUnit), price: pesewasToGhs(cost.price) };
    });
    return { channel, countryCode, currency: 'GHS', locales };
  }
}

/** The body with the sample values filled in; a placeholder without a value stays as written. */
function sample(body: string, variables: Readonly<Record<string, string>>): string {
  const kept = Object.fromEntries(extractVariables(body).map((name) => [name, `{{${name}}}`]));
  const rendered = renderTemplate(body, { ...kept, ...Object.fromEntries(Object.entries(variables).filter(([, value]) => value.trim() !== '')) }, 'text');
  return rendered.ok ? rendered.text : body;
}
