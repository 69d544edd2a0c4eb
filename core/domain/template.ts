import type { TemplateCategory, TemplateChannel } from './channel.ts';
import { templateVariantView, type TemplateVariant } from './template-variant.ts';
import { metaCheckView, type MetaTemplateCheck, type MetaTemplateMapping } from './whatsapp-template.ts';

export type TemplateStatus = 'APPROVED' | 'PENDING_APPROVAL' | 'REJECTED';

export interface Template {
  id: string;
  organizationId: string;
  name: string;
  channel: TemplateChannel;
  body: string;
  subject: string | null;
  countryCode: string;
  language: string;
  category: TemplateCategory;
  variables: string[];
  status: TemplateStatus;
  /** The administrator's comment when rejected. */
  reviewComment: string | null;
  createdByUserId: string | null;
  /** WHATSAPP only: the approved Meta template sent outside the 24-hour window (docs/whatsapp-templates.md). */
  metaTemplate?: MetaTemplateMapping | null;
  /** The last check of `metaTemplate` against the Meta account; null until checked (or after the mapping changed). */
  metaCheck?: MetaTemplateCheck | null;
  /** The template's text in other locales (docs/templates.md, "Locales"); `language` is the default locale, whose text is `body`. */
  variants?: TemplateVariant[];
  createdAt: Date;
  updatedAt: Date;
}

export function templateView(t: Template) {
  return {
    id: t.id, name: t.name, channel: t.channel, body: t.body, subject: t.subject, countryCode: t.countryCode, language: t.language,
    category: t.category, variables: t.variables, status: t.status, reviewComment: t.reviewComment,
    ...(t.channel === 'WHATSAPP' ? { metaTemplate: t.metaTemplate ?? null, metaCheck: metaCheckView(t.metaCheck ?? null) } : {}),
    variants: [...(t.variants ?? [])].sort((a, b) => (a.locale < b.locale ? -1 : 1)).map(templateVariantView),
    createdAt: t.createdAt.toISOString(), updatedAt: t.updatedAt.toISOString(),
  };
}
