import type { TemplateCategory } from '../channel.ts';

export type ComplianceSeverity = 'low' | 'medium' | 'high';
export type ComplianceFamily = 'spam' | 'phishing' | 'health' | 'opt-out';

/**
 * How a rule finds its text. Data, not code: a phrase list for another language is a new file of
 * `phrases` matchers, no new logic.
 * - `phrases`: any of the phrases, on word boundaries, case-insensitive unless `caseSensitive`,
 *   any run of whitespace between words;
 * - `pattern`: a regular expression (for shapes phrases cannot say: links, shouting);
 * - `all`: every matcher must hit (e.g. urgency AND a link); the matched text joins the parts;
 * - `lookalike`: a word that imitates one of `names` (digits for letters, one letter off) without being it.
 */
export type RuleMatcher =
  | { kind: 'phrases'; phrases: readonly string[]; caseSensitive?: boolean; notAfter?: readonly string[] }
  | { kind: 'pattern'; pattern: RegExp }
  | { kind: 'all'; of: readonly RuleMatcher[] }
  | { kind: 'lookalike'; names: readonly string[] };

export interface ComplianceRule {
  /** Stable id, `<family>.<name>`: API clients and tests refer to it. */
  id: string;
  family: ComplianceFamily;
  severity: ComplianceSeverity;
  matcher: RuleMatcher;
  /** 'present' (default): a match is the issue. 'absent': the lack of any match is. */
  when?: 'present' | 'absent';
  /** Only for these categories (default: every category). */
  categories?: readonly TemplateCategory[];
  explanation: string;
  suggestion: string;
}
