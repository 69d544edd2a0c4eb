import type { TemplateCategory } from './channel.ts';

/** A risk score at or above this needs a platform administrator's approval (spec section 8). */
export const APPROVAL_THRESHOLD = 30;

export type ComplianceSeverity = 'low' | 'medium' | 'high';

export interface ComplianceIssue {
  ruleId: string;
  family: string;
  severity: ComplianceSeverity;
  /** The text of the message that triggered the rule. */
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
 * Rule-based content check (spam, phishing, sensitive health data, opt-out wording). The rule set
 * lives in data; this entry point is what templates, campaigns and POST /compliance/check-message
 * call. Pure: no I/O.
 */
export function checkCompliance(message: string, category: TemplateCategory = 'MARKETING'): ComplianceResult {
  const issues: ComplianceIssue[] = [];
  const weights: Record<ComplianceSeverity, number> = { low: 10, medium: 20, high: 35 };
  for (const rule of BASELINE_RULES) {
    if (rule.categories && !rule.categories.includes(category)) continue;
    const match = rule.pattern.exec(message);
    const hit = rule.when === 'absent' ? match === null : match !== null;
    if (!hit) continue;
    issues.push({
      ruleId: rule.id, family: rule.family, severity: rule.severity, matchedText: match?.[0] ?? '',
      explanation: rule.explanation, suggestion: rule.suggestion,
    });
  }
  const riskScore = Math.min(100, issues.reduce((sum, issue) => sum + weights[issue.severity], 0));
  return { riskScore, issues, requiresApproval: riskScore >= APPROVAL_THRESHOLD, category };
}

interface BaselineRule {
  id: string;
  family: string;
  severity: ComplianceSeverity;
  pattern: RegExp;
  /** 'present' (default): the pattern matching is the issue; 'absent': its absence is. */
  when?: 'present' | 'absent';
  categories?: readonly TemplateCategory[];
  explanation: string;
  suggestion: string;
}

const BASELINE_RULES: readonly BaselineRule[] = [
  {
    id: 'phishing.pin-request', family: 'phishing', severity: 'high',
    pattern: /\b(?:send|share|enter|confirm|reply with)\b[^.!?]{0,40}\b(?:pin|password|otp|passcode)\b/i,
    explanation: 'Asks the recipient for a PIN, password or one-time code; legitimate senders never do.',
    suggestion: 'Remove the request; tell recipients never to share their PIN.',
  },
  {
    id: 'spam.winner', family: 'spam', severity: 'medium',
    pattern: /\b(?:you have won|you've won|congratulations,? you|claim your prize)\b/i,
    explanation: 'Prize-winning wording is typical of spam and scams.',
    suggestion: 'Describe the actual offer plainly.',
  },
  {
    id: 'opt-out.missing', family: 'opt-out', severity: 'low', when: 'absent', categories: ['MARKETING'],
    pattern: /\b(?:stop|opt[ -]?out|unsubscribe)\b/i,
    explanation: 'Marketing messages must tell recipients how to opt out.',
    suggestion: 'Add "Reply STOP to opt out".',
  },
];
