import { useState, type ReactNode } from 'react';
import { api } from './api.ts';
import { Link } from './router.tsx';
import { ErrorBanner, Notice, toApiError, useAsync, useRoutes } from './ui.tsx';
import type { ApiError } from './api.ts';

export interface FailureAlert { windowHours: number; since: string; failedRuns: number; capped: boolean; latestFailedAt: string | null; acknowledged: { through: string; userId: string | null; at: string } | null }

export function failureHeadline(alert: FailureAlert): string {
  const n = alert.capped ? `${alert.failedRuns.toLocaleString('en-GB')} or more` : String(alert.failedRuns);
  return `${n} workflow run${alert.failedRuns === 1 ? '' : 's'} failed in the last ${alert.windowHours} hours`;
}

/** POST /workflow-runs/failure-alert/acknowledge up to the latest failure shown: a failure after it still alerts. */
export async function acknowledgeFailures(alert: FailureAlert): Promise<FailureAlert> {
  return api.post<FailureAlert>('/workflow-runs/failure-alert/acknowledge', alert.latestFailedAt ? { through: alert.latestFailedAt } : {});
}

/**
 * The alert of workflow runs that gave up (issue 31; docs/workflows.md, "Failed runs"): on the overview and the
 * Events page while runs failed in the last 24 hours that nobody of the organization acknowledged. Links to the
 * list of failed runs; "Acknowledge" clears it for every member.
 */
export function WorkflowFailureBanner({ showListLink = true }: { showListLink?: boolean }): ReactNode {
  const routes = useRoutes();
  const available = routes?.has('GET /workflow-runs/failure-alert') ?? false;
  const alert = useAsync(async () => (available ? api.get<FailureAlert>('/workflow-runs/failure-alert') : null), [available]);
  const [error, setError] = useState<ApiError | null>(null);
  const a = alert.data;
  if (!a || a.failedRuns === 0) return null;
  const acknowledge = async (): Promise<void> => {
    setError(null);
    try { alert.setData(await acknowledgeFailures(a)); } catch (e) { setError(toApiError(e)); }
  };
  return (
    <div data-testid="workflow-failure-banner">
      <Notice kind="error">
        <strong>{failureHeadline(a)}.</strong> They gave up after their retries: the failed step and the steps after it did not run.
        {showListLink && <> <Link to="/app/workflow-runs/failed">See the failed runs</Link> (the step that failed and its error).</>}
        {' '}<button type="button" className="secondary small" onClick={() => void acknowledge()}>Acknowledge</button>
      </Notice>
      <ErrorBanner error={error} />
    </div>
  );
}
