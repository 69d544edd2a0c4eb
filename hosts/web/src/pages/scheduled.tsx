import { useState, type ReactNode } from 'react';
import { api, asList, qs, type ApiError } from '../api.ts';
import { Link, navigate, useLocation } from '../router.tsx';
import { Empty, ErrorBanner, Loading, Notice, Page, Requires, Time, ghs, str, toApiError, useAsync } from '../ui.tsx';

type Log = Record<string, unknown> & { id: string };
interface LogPage { items: Log[]; page: number; limit: number; total: number; totalIsExact?: boolean; totalPages: number }

/** Scheduled messages (docs/scheduling.md): SCHEDULED delivery logs with their planned time, each cancellable until released. */
export function ScheduledPage(): ReactNode {
  return (
    <Page title="Scheduled messages">
      <Requires needs={['GET /delivery-logs', 'POST /messages/{id}/cancel']} feature="Scheduled sends"><ScheduledList /></Requires>
    </Page>
  );
}

function ScheduledList(): ReactNode {
  const { query } = useLocation();
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const limit = 20;
  const logs = useAsync(async () => {
    const data = await api.get<LogPage>(`/delivery-logs${qs({ page, limit, status: 'SCHEDULED' })}`);
    return { ...data, items: asList<Log>(data) };
  }, [page]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const cancel = async (log: Log): Promise<void> => {
    if (!window.confirm(`Cancel the ${str(log['channel'])} message to ${str(log['recipient'])}? Its cost is refunded to the wallet.`)) return;
    setBusy(log.id); setError(null); setNote(null);
    try {
      await api.post(`/messages/${encodeURIComponent(log.id)}/cancel`);
      setNote(`Cancelled the message to ${str(log['recipient'])}; ${ghs(log['cost'])} refunded.`);
      await logs.reload();
    } catch (e) {
      setError(toApiError(e));
      await logs.reload(); // released meanwhile (409): the list no longer shows it
    } finally { setBusy(null); }
  };

  const d = logs.data;
  return (
    <>
      <p className="hint">Messages sent with a future <code>sendAt</code> (or held for a send window) wait here, already charged, until their planned time. Cancelling one refunds it.</p>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Actions">
        <button type="button" className="secondary" onClick={() => void logs.reload()}>Refresh</button>
      </form>
      <ErrorBanner error={error ?? logs.error} />
      {note && <Notice kind="success">{note}</Notice>}
      {logs.loading && !d && <Loading label="Loading scheduled messages" />}
      {d && d.items.length === 0 && (
        <Empty title="No scheduled messages">
          <p>Send with <code>sendAt</code> (<code>POST /messages/send</code>, <code>/messages/bulk</code> or <code>/events/trigger</code>) to schedule a message up to 35 days ahead.</p>
        </Empty>
      )}
      {d && d.items.length > 0 && (
        <>
          <div className="table-wrap"><table>
            <caption className="sr-only">Scheduled messages</caption>
            <thead><tr><th scope="col">Planned time</th><th scope="col">Recipient</th><th scope="col">Channel</th><th scope="col">Cost</th><th scope="col">Created</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>{d.items.map((l) => (
              <tr key={l.id}>
                <td><Time value={l['scheduledAt']} /></td><td>{str(l['recipient'])}</td><td>{str(l['channel'])}</td><td>{ghs(l['cost'])}</td><td><Time value={l['createdAt']} /></td>
                <td>
                  <Link to={`/app/logs/${encodeURIComponent(l.id)}`} aria-label={`Details of the message to ${str(l['recipient'])}`}>Details</Link>{' '}
                  <button type="button" className="secondary" disabled={busy !== null} onClick={() => void cancel(l)} aria-label={`Cancel the message to ${str(l['recipient'])}`}>
                    {busy === l.id ? 'Cancelling…' : 'Cancel'}
                  </button>
                </td>
              </tr>
            ))}</tbody>
          </table></div>
          <nav className="pager" aria-label="Pages">
            <button type="button" className="secondary" disabled={page <= 1} onClick={() => navigate(`/app/scheduled${qs({ page: page - 1 })}`)}>Previous</button>
            <span>Page {d.page} of {Math.max(1, d.totalPages)} · {d.total}{d.totalIsExact === false ? '+' : ''} scheduled</span>
            <button type="button" className="secondary" disabled={page >= d.totalPages} onClick={() => navigate(`/app/scheduled${qs({ page: page + 1 })}`)}>Next</button>
          </nav>
        </>
      )}
    </>
  );
}
