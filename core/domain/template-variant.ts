import { languageOf, lookupCandidates, sameLocale } from './locale.ts';
import type { Template, TemplateStatus } from './template.ts';

/**
 * A template's text in one more locale (docs/templates.md, "Locales"). The template's own body is
 * its default locale (`Template.language`); a variant is approved like a template (a high-risk
 * category waits for a platform administrator) and only an APPROVED variant is ever sent.
 */
export interface TemplateVariant {
  /** Normalised BCP 47 tag (domain/locale.ts), unique per template (case-insensitively), never the template's own language. */
  locale: string;
  body: string;
  /** EMAIL (subject), PUSH and IN_APP (title) only; null: the template's subject. */
  subject: string | null;
  status: TemplateStatus;
  reviewComment: string | null;
  /** The approval request of this text (null when none was needed). A decision moves the variant only while it is still this request's. */
  approvalRequestId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Variants a template may have. */
export const TEMPLATE_VARIANTS_MAX = 30;

/** What a send uses: the chosen locale's text. `variant` false: the template's own body (its default locale). */
export interface ChosenContent {
  locale: string;
  body: string;
  subject: string | null;
  variant: boolean;
}

/**
 * The text a message in `preferences` gets from `template`: the first preference (most important
 * first; null or undefined entries skipped) that the template covers, each tried by RFC 4647 lookup
 * ('en-GH' -> 'en-GH', 'en') and then by language ('fr' finds a 'fr-CI' variant). The template's own
 * language counts as covered; a variant counts only when APPROVED. Nothing covered: the template's
 * own body. The send path passes [request or trigger `locale`, contact's locale, organization default].
 */
export function chooseTemplateContent(template: Pick<Template, 'body' | 'subject' | 'language' | 'variants'>,
  preferences: ReadonlyArray<string | null | undefined>): ChosenContent {
  const own: ChosenContent = { locale: template.language, body: template.body, subject: template.subject, variant: false };
  const usable = (template.variants ?? []).filter((v) => v.status === 'APPROVED');
  if (usable.length === 0) return own;
  const asContent = (v: TemplateVariant): ChosenContent => ({ locale: v.locale, body: v.body, subject: v.subject ?? template.subject, variant: true });
  for (const wanted of preferences) {
    if (!wanted) continue;
    for (const candidate of lookupCandidates(wanted)) {
      if (sameLocale(candidate, template.language)) return own;
      const found = usable.find((v) => sameLocale(v.locale, candidate));
      if (found) return asContent(found);
    }
    const language = languageOf(wanted);
    if (languageOf(template.language) === language) return own;
    const sameLanguage = usable.find((v) => languageOf(v.locale) === language);
    if (sameLanguage) return asContent(sameLanguage);
  }
  return own;
}

export function templateVariantView(v: TemplateVariant) {
  return {
    locale: v.locale, body: v.body, subject: v.subject, status: v.status, reviewComment: v.reviewComment, approvalRequestId: v.approvalRequestId,
    createdAt: v.createdAt.toISOString(), updatedAt: v.updatedAt.toISOString(),
  };
}
