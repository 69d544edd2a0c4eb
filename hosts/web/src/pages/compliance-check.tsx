import { useEffect, useState, type ReactNode } from 'react';
import { api, asList } from '../api.ts';
import { ErrorBanner, toApiError, useRoutes } from '../ui.tsx';
import type { ApiError } from '../api.ts';

interface CheckResult { riskScore?: number; issues?: unknown; requiresApproval?: boolean; [k: string]: unknown }

/** Runs POST /compliance/check-message as the text changes (debounced) and shows the risk and issues inline. */
export function ComplianceCheck({ message, category, live = true }: { message: string; category: string; live?: boolean }): ReactNode {
  const routes = useRoutes();
  const available = routes?.has('POST /compliance/check-message') ?? false;
  const [result, setResult] = useState<CheckResult | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [checking, setChecking] = useState(false);
  useEffect(() => {
    if (!available || !live || !message.trim()) { setResult(null); return; }
    const timer = setTimeout(() => {
      setChecking(true);
      api.post<CheckResult>('/compliance/check-message', { message, category })
        .then((r) => { setResult(r); setError(null); }, (e) => setError(toApiError(e)))
        .finally(() => setChecking(false));
    }, 400);
    return () => clearTimeout(timer);
  }, [available, live, message, category]);
  if (routes && !available) return <p className="hint">The compliance checker is not available on this server yet.</p>;
  if (error) return <ErrorBanner error={error} />;
  if (!result) return <p className="hint" aria-live="polite">{checking ? 'Checking…' : 'Type a message to check it for spam, phishing, health data and opt-out wording.'}</p>;
  return <ComplianceResult result={result} category={category} />;
}

/** Template categories that always wait for a platform administrator (core/domain/channel.ts, needsApproval). */
const APPROVAL_CATEGORIES = ['MARKETING', 'FINTECH', 'HEALTHCARE', 'INSURANCE'];

/**
 * `waiting`: the item is an approval request still open (the admin's approval card); `category`: a template's category,
 * some of which need approval whatever the risk score (issue 35: a MARKETING template is never "no approval needed").
 */
export function ComplianceResult({ result, category, waiting = false }: { result: CheckResult; category?: string; waiting?: boolean }): ReactNode {
  const score = Number(result.riskScore ?? 0);
  const byCategory = typeof category === 'string' && APPROVAL_CATEGORIES.includes(category.toUpperCase());
  const approval = waiting ? ' — waiting for a platform administrator’s approval'
    : result.requiresApproval ? ' — needs a platform administrator’s approval before use'
      : byCategory ? ` — needs a platform administrator’s approval before use (every ${category!.toUpperCase()} template does)` : ' — no approval needed';
  const issues = asList<Record<string, unknown> | string>(result.issues);
  const level = score >= 30 ? 'error' : score > 0 ? 'warning' : 'success';
  return (
    <div className={`banner ${level}`} role="status" aria-live="polite" data-testid="compliance-result">
      <p><strong>Risk score {score} / 100</strong>{approval}</p>
      <meter min={0} max={100} low={29} high={60} optimum={0} value={score} aria-label="Risk score">{score}</meter>
      {issues.length > 0 && (
        <ul className="issues">{issues.map((i, n) => typeof i === 'string' ? <li key={n}>{i}</li> : (
          <li key={n}>
            {i['severity'] ? <span className={`badge badge-sev-${String(i['severity'])}`}>{String(i['severity'])}</span> : null}{' '}
            {String(i['explanation'] ?? i['message'] ?? i['description'] ?? i['ruleId'] ?? JSON.stringify(i))}
            {i['matchedText'] ? <> (“<mark>{String(i['matchedText'])}</mark>”)</> : null}
            {i['suggestion'] ? <div className="hint">Suggestion: {String(i['suggestion'])}</div> : null}
          </li>
        ))}</ul>
      )}
    </div>
  );
}
