import { useState, type ReactNode } from 'react';
import { api, asList, qs } from '../api.ts';
import { Link, navigate, useLocation } from '../router.tsx';
import { Badge, CHANNELS, Empty, ErrorBanner, Loading, Notice, Page, STATUSES, Select, Time, ghs, str, toApiError, useAsync } from '../ui.tsx';
import type { ApiError } from '../api.ts';
import { DeliveryBadge } from '../delivery-badge.tsx';
import { DeliveryBacklogCard } from '../delivery-backlog.tsx';
import { plural } from '../format.ts';

type Log = Record<string, unknown> & { id: string };
interface LogPage { items: Log[]; page: number; limit: number; total: number; totalIsExact?: boolean; totalPages: number }

export function LogsPage(): ReactNode {
  const { query } = useLocation();
  const status = query.get('status') ?? '';
  const channel = query.get('channel') ?? '';
  const page = Math.max(1, Number(query.get('page') ?? '1') || 1);
  const limit = 20;
  const logs = useAsync(async () => {
    const data = await api.get<LogPage | Log[]>(`/delivery-logs${qs({ page, limit, status, channel })}`);
    return Array.isArray(data) ? { items: data, page, limit, total: data.length, totalPages: 1 } : { ...data, items: asList<Log>(data) };
  }, [status, channel, page]);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<ApiError | null>(null);
  const [exportNote, setExportNote] = useState<string | null>(null);
  const go = (next: Record<string, string | number>): void => navigate(`/app/logs${qs({ status, channel, page, ...next })}`);

  const exportCsv = async (): Promise<void> => {
    setExporting(true); setExportError(null); setExportNote(null);
    try {
      const file = await api.download(`/delivery-logs/export${qs({ status, channel })}`);
      const url = URL.createObjectURL(file.blob);
      const a = document.createElement('a');
      a.href = url; a.download = file.filename; document.body.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setExportNote(file.truncated ? 'Exported the newest 10,000 matching logs (more matched: narrow the filters for the rest).' : `Downloaded ${file.filename}.`);
    } catch (e) { setExportError(toApiError(e)); } finally { setExporting(false); }
  };

  const d = logs.data;
  return (
    <Page title="Delivery logs" actions={<button type="button" className="secondary" onClick={() => void exportCsv()} disabled={exporting}>{exporting ? 'Exporting…' : 'Export CSV'}</button>}>
      <form className="filters" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <label>Status <Select options={STATUSES} value={status} allowEmpty="Any status" onChange={(s) => go({ status: s, page: 1 })} /></label>
        <label>Channel <Select options={CHANNELS} value={channel} allowEmpty="Any channel" onChange={(c) => go({ channel: c, page: 1 })} /></label>
        <button type="button" className="secondary" onClick={() => void logs.reload()}>Refresh</button>
      </form>
      <DeliveryBacklogCard />
      <ErrorBanner error={exportError ?? logs.error} />
      {exportNote && <Notice kind="success">{exportNote}</Notice>}
      {logs.loading && !d && <Loading label="Loading delivery logs" />}
      {d && d.items.length === 0 && (
        <Empty title={status || channel ? 'No logs match these filters' : 'No messages yet'}>
          {status || channel ? <button type="button" className="secondary" onClick={() => navigate('/app/logs')}>Clear the filters</button> : <p><Link to="/app/send">Send a message</Link> or call <code>POST /messages/send</code> with an API key; every send appears here.</p>}
        </Empty>
      )}
      {d && d.items.length > 0 && (
        <>
          <div className="table-wrap"><table>
            <caption className="sr-only">Delivery logs, newest first</caption>
            <thead><tr><th scope="col">Time</th><th scope="col">Recipient</th><th scope="col">Channel</th><th scope="col">Category</th><th scope="col">Status</th><th scope="col">Cost</th><th scope="col">Provider</th><th scope="col"><span className="sr-only">Detail</span></th></tr></thead>
            <tbody>{d.items.map((l) => (
              <tr key={l.id}>
                <td><Time value={l['createdAt']} /></td><td>{str(l['recipient'])}</td><td>{str(l['channel'])}</td><td>{str(l['category'])}</td>
                <td><DeliveryBadge log={l} />{typeof l['errorCode'] === 'string' && <small> {l['errorCode']}</small>}{l['status'] === 'SCHEDULED' && typeof l['scheduledAt'] === 'string' && <small className="planned"> planned for <Time value={l['scheduledAt']} /></small>}</td>
                <td>{ghs(l['cost'])}</td><td>{str(l['provider'])}</td>
                <td><Link to={`/app/logs/${encodeURIComponent(l.id)}`} aria-label={`Details of the message to ${str(l['recipient'])}`}>Details</Link></td>
              </tr>
            ))}</tbody>
          </table></div>
          <nav className="pager" aria-label="Pages">
            <button type="button" className="secondary" disabled={page <= 1} onClick={() => go({ page: page - 1 })}>Previous</button>
            <span>Page {d.page} of {Math.max(1, d.totalPages)} · {d.total}{d.totalIsExact === false ? '+' : ''} logs</span>
            <button type="button" className="secondary" disabled={page >= d.totalPages} onClick={() => go({ page: page + 1 })}>Next</button>
          </nav>
        </>
      )}
    </Page>
  );
}

interface Attempt { attempt: number; provider: string; outcome: string; retryable?: boolean; errorCode?: string | null; errorMessage?: string | null; durationMs?: number; at: string }
interface HistoryEntry { status: string; source: string; detail: string | null; at: string }

export function LogDetailPage({ id }: { id: string }): ReactNode {
  const log = useAsync(async () => api.get<Log>(`/messages/${encodeURIComponent(id)}`), [id]);
  const d = log.data;
  const attempts = asList<Attempt>(d?.['attemptLog']);
  const history = asList<HistoryEntry>(d?.['statusHistory']);
  return (
    <Page title="Message detail" actions={<Link to="/app/logs">Back to the logs</Link>}>
      {log.loading && !d && <Loading />}
      <ErrorBanner error={log.error} />
      {d && (
        <>
          <dl className="facts card">
            <dt>Status</dt><dd><DeliveryBadge log={d} /> {typeof d['errorCode'] === 'string' && <code>{d['errorCode']}</code>} {str(d['errorMessage'], '')}</dd>
            <dt>Recipient</dt><dd>{str(d['recipient'])}</dd><dt>Channel</dt><dd>{str(d['channel'])}</dd><dt>Category</dt><dd>{str(d['category'])}</dd>
            <dt>Cost</dt><dd>{ghs(d['cost'])}{d['channel'] === 'SMS' && d['segments'] ? ` · ${plural(d['segments'], 'SMS segment')}, ${str(d['encoding'])}` : ''}</dd>
            <dt>Provider</dt><dd>{str(d['provider'])}</dd>{d['network'] ? <><dt>Network</dt><dd>{str(d['network'])}</dd></> : null}<dt>Message id</dt><dd><code>{str(d['internalMessageId'])}</code></dd>
            <dt>Created</dt><dd><Time value={d['createdAt']} /></dd>
            {d['scheduledAt'] ? <><dt>Planned time</dt><dd><Time value={d['scheduledAt']} />{d['status'] === 'SCHEDULED' ? <> · <Link to="/app/scheduled">cancel it under Scheduled</Link></> : null}</dd></> : null}
            {d['subject'] ? <><dt>{d['channel'] === 'PUSH' ? 'Title' : 'Subject'}</dt><dd>{str(d['subject'])}</dd></> : null}
            {d['imageUrl'] ? <><dt>Image</dt><dd><code>{str(d['imageUrl'])}</code></dd></> : null}
            {d['link'] ? <><dt>Link</dt><dd><code>{str(d['link'])}</code></dd></> : null}
            {d['data'] && typeof d['data'] === 'object' && Object.keys(d['data']).length > 0 ? <><dt>Data</dt><dd><code>{JSON.stringify(d['data'])}</code></dd></> : null}
            <dt>Text</dt><dd className="message-text">{str(d['body'])}</dd>
          </dl>
          <h2>Status history</h2>
          {history.length === 0 ? <p className="hint">No status changes recorded.</p> : (
            <ol className="timeline">{history.map((h, i) => <li key={i}><Badge value={h.status} /> <Time value={h.at} /> <small>by {h.source}{h.detail ? `: ${h.detail}` : ''}</small></li>)}</ol>
          )}
          <h2>Delivery attempts</h2>
          {attempts.length === 0 ? <p className="hint">No delivery attempt yet{d['status'] === 'QUEUED' ? ': the message waits in the queue' : ''}.</p> : (
            <div className="table-wrap"><table>
              <thead><tr><th scope="col">#</th><th scope="col">Time</th><th scope="col">Provider</th><th scope="col">Outcome</th><th scope="col">Error</th><th scope="col">Duration</th></tr></thead>
              {/* Numbered in order (the API's `attempt` is the queue run, the same for every failover inside one run); "retried"
                  only where another attempt did follow, on the next provider or in a later run (issue 35). */}
              <tbody>{attempts.map((a, i) => <tr key={i} data-testid="attempt"><td>{i + 1}</td><td><Time value={a.at} /></td><td>{a.provider}</td><td><Badge value={a.outcome} /></td><td>{a.errorCode ? <><code>{a.errorCode}</code> {a.errorMessage}{i < attempts.length - 1 ? ` (retried${attempts[i + 1]!.provider !== a.provider ? ` on ${attempts[i + 1]!.provider}` : ''})` : ''}</> : '—'}</td><td>{a.durationMs !== undefined ? `${a.durationMs} ms` : '—'}</td></tr>)}</tbody>
            </table></div>
          )}
        </>
      )}
    </Page>
  );
}
