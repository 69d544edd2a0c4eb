import { COMMON_RULES } from './common.ts';
import { EN_RULES } from './en.ts';
import { FR_RULES } from './fr.ts';
import type { ComplianceRule } from './types.ts';

export type { ComplianceFamily, ComplianceRule, ComplianceSeverity, RuleMatcher } from './types.ts';
export { COMMON_RULES, IMITATED_BRANDS, URL_SHORTENERS } from './common.ts';
export { EN_RULES } from './en.ts';
export { FR_RULES } from './fr.ts';

/**
 * Phrase rules by primary language subtag. Add 'ak' (Twi), 'gaa' (Ga), 'ee' (Ewe) by writing a file
 * like en.ts and listing it here; languages without a list are checked with English.
 */
export const RULES_BY_LANGUAGE: Readonly<Record<string, readonly ComplianceRule[]>> = {
  en: EN_RULES,
  fr: FR_RULES,
};

export const DEFAULT_RULE_LANGUAGE = 'en';

/** The common rules plus each language's list (English for a language without one), each rule once. */
export function rulesFor(languages: readonly string[]): ComplianceRule[] {
  const lists = (languages.length > 0 ? languages : [DEFAULT_RULE_LANGUAGE])
    .map((tag) => RULES_BY_LANGUAGE[tag.toLowerCase().split('-')[0] ?? ''] ?? RULES_BY_LANGUAGE[DEFAULT_RULE_LANGUAGE]!);
  return [...new Set([...COMMON_RULES, ...lists.flat()])];
}
