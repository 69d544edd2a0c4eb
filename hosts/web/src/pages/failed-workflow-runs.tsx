import { useState, type ReactNode } from 'react';
import { api, qs } from '../api.ts';
import { Link } from '../router.tsx';
import { Empty, ErrorBanner, Loading, Page, Requires, Time, str, useAsync } from '../ui.tsx';
import { WorkflowFailureBanner } from '../workflow-failure-banner.tsx';
import { RunTimeline } from './workflow-editor.tsx';

interface FailedRun { id: string; event: string; version: number; correlationKey: string | null; failedStep: number; failedStepType: string | null; error: { code: string; message: string } | null; attempts: number; failedAt: string }
interface FailedPage { items: FailedRun[]; since: string; nextCursor: string | null }

/** Days of failures the page lists (the alert itself covers the last 24 hours). */
const LISTED_DAYS = 7;

export function FailedWorkflowRunsPage(): ReactNode {
  return (
    <Page title="Failed workflow runs">
      <Requires needs={['GET /workflow-runs', 'GET /workflow-runs/failure-alert']} feature="The list of failed workflow runs"><FailedRuns /></Requires>
    </Page>
  );
}

/** GET /workflow-runs?status=FAILED over the last 7 days, the latest failure first, 25 a page ("Show older" follows nextCursor). */
function FailedRuns(): ReactNode {
  const [since] = useState(() => new Date(Date.now() - LISTED_DAYS * 86_400_000).toISOString());
  const [older, setOlder] = useState<FailedRun[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const first = useAsync(async () => api.get<FailedPage>(`/workflow-runs${qs({ status: 'FAILED', since, limit: 25 })}`), [since]);
  const next = cursor ?? first.data?.nextCursor ?? null;
  const more = async (): Promise<void> => {
    if (!next) return;
    const page = await api.get<FailedPage>(`/workflow-runs${qs({ status: 'FAILED', since, limit: 25, cursor: next })}`);
    setOlder([...older, ...page.items]);
    setCursor(page.nextCursor ?? '');
  };
  if (first.loading && !first.data) return <Loading />;
  const runs = [...(first.data?.items ?? []), ...older];
  return (
    <>
      <WorkflowFailureBanner showListLink={false} />
      <ErrorBanner error={first.error} />
      <p className="hint">Runs that gave up in the last {LISTED_DAYS} days, the latest first: each stopped at the step shown after its retries
        (docs/workflows.md). Fix the cause (a wallet top-up, a template) and trigger the event again; the <Link to="/app/events">Events</Link> page edits the workflow.</p>
      {runs.length === 0 ? <Empty title={`No workflow run failed in the last ${LISTED_DAYS} days`} /> : (
        <div className="table-wrap"><table aria-label="Failed runs">
          <caption className="sr-only">Failed workflow runs</caption>
          <thead><tr><th scope="col">Failed</th><th scope="col">Event</th><th scope="col">Failed step</th><th scope="col">Error</th><th scope="col">Attempts</th><th scope="col">Key</th><th scope="col">Timeline</th></tr></thead>
          <tbody>{runs.map((r) => (
            <tr key={r.id}>
              <td><Time value={r.failedAt} /></td><td>{r.event} (v{r.version})</td><td>Step {r.failedStep + 1}: {str(r.failedStepType)}</td>
              <td><code>{str(r.error?.code)}</code> {str(r.error?.message, '')}</td><td>{r.attempts}</td><td>{str(r.correlationKey)}</td>
              <td><button type="button" className="secondary small" onClick={() => setShown(r.id)} aria-label={`Show the timeline of run ${r.id}`}>Show timeline</button></td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
      {next && <p><button type="button" className="secondary" onClick={() => void more()}>Show older</button></p>}
      {shown && <RunTimeline runId={shown} />}
    </>
  );
}
