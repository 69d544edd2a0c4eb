import type { TemplateCategory } from './channel.ts';
import { DEFAULT_RULE_LANGUAGE, rulesFor, type ComplianceSeverity } from './compliance-rules/index.ts';
import { findMatch } from './compliance-rules/matchers.ts';

export type { ComplianceSeverity } from './compliance-rules/index.ts';

/** A risk score at or above this needs a platform administrator's approval (spec section 8). */
export const APPROVAL_THRESHOLD = 30;

/** What each issue adds to the risk score (capped at 100): one high issue alone needs approval, a medium one needs company. */
export const SEVERITY_WEIGHTS: Readonly<Record<ComplianceSeverity, number>> = { low: 10, medium: 20, high: 35 };

export interface ComplianceIssue {
  ruleId: string;
  family: string;
  severity: ComplianceSeverity;
  /** The text of the message that triggered the rule ('' for a missing element such as an opt-out). */
  matchedText: string;
  explanation: string;
  suggestion: string;
}

export interface ComplianceResult {
  riskScore: number;
  issues: ComplianceIssue[];
  requiresApproval: boolean;
  category: TemplateCategory;
}

/**
 * Rule-based content check (spam, phishing, sensitive health data, opt-out wording). The rules are
 * data (core/domain/compliance-rules/: common.ts plus one phrase file per language); this entry point
 * is what templates, campaigns and POST /compliance/check-message call. Each rule reports at most one
 * issue; the score is the sum of the issues' severity weights, capped at 100. `languages` picks the
 * phrase lists (default English; a language without a list is checked with English). `ownLinkBases`
 * (e.g. https://nkra.example/l/): our own tracked links are safe and left out of the link rules (docs/links.md);
 * a public shortener is still flagged. Pure: no I/O.
 */
export function checkCompliance(message: string, category: TemplateCategory = 'MARKETING',
  languages: readonly string[] = [DEFAULT_RULE_LANGUAGE], options: { ownLinkBases?: readonly string[] } = {}): ComplianceResult {
  const issues: ComplianceIssue[] = [];
  message = withoutOwnLinks(message, options.ownLinkBases ?? []);
  const rules = rulesFor(languages).filter((rule) => !rule.categories || rule.categories.includes(category));
  // Several languages may each have a rule with the same id: one issue per id. A 'present' rule hits
  // when any language's version matches; an 'absent' one only when no version does (an opt-out in
  // French satisfies the opt-out rule of a message checked in English and French).
  for (const id of new Set(rules.map((rule) => rule.id))) {
    const versions = rules.filter((rule) => rule.id === id);
    const first = versions[0]!;
    const matched = versions.map((rule) => findMatch(rule.matcher, message)).find((m) => m !== null) ?? null;
    const hit = first.when === 'absent' ? matched === null : matched !== null;
    if (!hit) continue;
    issues.push({
      ruleId: first.id, family: first.family, severity: first.severity, matchedText: first.when === 'absent' ? '' : (matched ?? ''),
      explanation: first.explanation, suggestion: first.suggestion,
    });
  }
  const riskScore = Math.min(100, issues.reduce((sum, issue) => sum + SEVERITY_WEIGHTS[issue.severity], 0));
  return { riskScore, issues, requiresApproval: riskScore >= APPROVAL_THRESHOLD, category };
}

/** The text with our own tracked links (URLs under `bases`) taken out: they are not third-party links. */
function withoutOwnLinks(message: string, bases: readonly string[]): string {
  if (bases.length === 0) return message;
  const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const own = new RegExp(`(?:${bases.map((b) => escape(b.replace(/\/+$/, ''))).join('|')})/[0-9A-Za-z./]+`, 'gi');
  return message.replace(own, '');
}
