import { useEffect, useState, type ReactNode } from 'react';
import { api, asList, qs, type ApiError } from '../api.ts';
import { navigate } from '../router.tsx';
import { useSession } from '../session.tsx';
import { ComplianceResult } from './compliance-check.tsx';
import { Badge, Empty, ErrorBanner, Loading, Notice, Page, Requires, Time, ghs, str, toApiError, useAsync } from '../ui.tsx';

type Row = Record<string, unknown>;

function AdminOnly({ children }: { children: ReactNode }): ReactNode {
  const session = useSession();
  if (!session.isAdmin) return <Notice kind="warning">Only platform administrators see this page.</Notice>;
  return <>{children}</>;
}

export function AdminTenantsPage(): ReactNode {
  return <Page title="Tenants"><AdminOnly><Requires needs={['GET /admin/tenants']} feature="Tenant administration"><Tenants /></Requires></AdminOnly></Page>;
}

function Tenants(): ReactNode {
  const session = useSession();
  const [filter, setFilter] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  useEffect(() => { const t = setTimeout(() => { setSearch(filter.trim()); setPage(1); }, 300); return () => clearTimeout(t); }, [filter]);
  const result = useAsync(async () => api.get<Row | Row[]>(`/admin/tenants${qs({ search, page })}`), [search, page]);
  const tenants = { ...result, data: result.data ? asList<Row>(result.data) : null };
  const totalPages = Number((result.data as Row | null)?.['totalPages'] ?? 1) || 1;
  const [error, setError] = useState<ApiError | null>(null);
  const impersonate = async (t: Row): Promise<void> => {
    setError(null);
    try {
      const result = await api.post<Row>(`/admin/tenants/${encodeURIComponent(String(t['id']))}/impersonate`);
      const org = (result['organization'] ?? {}) as Row;
      await session.startImpersonation(String(result['token']), String(org['id'] ?? t['id']), str(org['name'] ?? t['name'], '') || null);
      navigate('/app');
    } catch (e) { setError(toApiError(e)); }
  };
  const rows = tenants.data ?? [];
  return (
    <>
      <label className="search">Search <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="Organization name" /></label>
      <ErrorBanner error={error ?? tenants.error} />
      {tenants.loading && !tenants.data && <Loading />}
      {tenants.data?.length === 0 && <Empty title={search ? `No organization matches “${search}”` : 'No tenants yet'}>{search ? 'Try another name.' : 'Organizations appear here when people sign up.'}</Empty>}
      {rows.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Organization</th><th scope="col">Wallet</th><th scope="col">Members</th><th scope="col">State</th><th scope="col">Created</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>{rows.map((t) => (
            <tr key={String(t['id'])}>
              <td>{str(t['name'])}</td><td>{ghs((t['wallet'] as Row | undefined)?.['balance'] ?? t['walletBalance'] ?? t['balance'])}</td>
              <td>{str(t['memberCount'] ?? t['members'])}</td><td><Badge value={t['paused'] ? 'paused' : 'active'} /></td><td><Time value={t['createdAt']} /></td>
              <td><button type="button" className="secondary small" onClick={() => void impersonate(t)} aria-label={`Impersonate ${str(t['name'])}`}>Impersonate</button></td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
      {totalPages > 1 && (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>Previous</button>
          <span>Page {page} of {totalPages}</span>
          <button type="button" className="secondary" disabled={page >= totalPages} onClick={() => setPage(page + 1)}>Next</button>
        </nav>
      )}
    </>
  );
}

export function AdminRevenuePage(): ReactNode {
  return <Page title="Revenue"><AdminOnly><Requires needs={['GET /admin/revenue']} feature="Revenue"><Revenue /></Requires></AdminOnly></Page>;
}

function Revenue(): ReactNode {
  const revenue = useAsync(async () => api.get<Row>('/admin/revenue'));
  const r = revenue.data;
  if (!r) return revenue.loading ? <Loading /> : <ErrorBanner error={revenue.error} />;
  const cards: Array<[string, ReactNode]> = [
    ['Total revenue', ghs(r['totalRevenue'] ?? r['revenue'])], ['Messages', str(r['messageCount'] ?? r['messages'])],
    ['Usage revenue', ghs(r['usageRevenue'])],
    ['Wallet balances', ghs(typeof r['walletBalances'] === 'object' && r['walletBalances'] ? (r['walletBalances'] as Row)['total'] : r['walletBalances'])],
  ];
  const byChannel = asList<Row>(r['byChannel'] ?? r['channels']);
  return (
    <>
      <div className="cards">{cards.filter(([, v]) => v !== '—').map(([k, v]) => <section key={k} className="card stat"><h2>{k}</h2><p className="big-number">{v}</p></section>)}</div>
      {byChannel.length > 0 && (
        <div className="table-wrap"><table><thead><tr><th scope="col">Channel</th><th scope="col">Messages</th><th scope="col">Revenue</th></tr></thead>
          <tbody>{byChannel.map((c, i) => <tr key={i}><td>{str(c['channel'])}</td><td>{str(c['messages'] ?? c['count'])}</td><td>{ghs(c['revenue'] ?? c['cost'])}</td></tr>)}</tbody></table></div>
      )}
    </>
  );
}

export function AdminApprovalsPage(): ReactNode {
  return <Page title="Approvals"><AdminOnly><Requires needs={['GET /admin/approvals', 'POST /admin/approvals/{id}/approve', 'POST /admin/approvals/{id}/reject']} feature="Approvals"><Approvals /></Requires></AdminOnly></Page>;
}

function Approvals(): ReactNode {
  const approvals = useAsync(async () => asList<Row>(await api.get('/admin/approvals')));
  // Organization names for the cards (the approvals carry the organization id).
  const tenants = useAsync(async () => new Map(asList<Row>(await api.get('/admin/tenants?limit=100').catch(() => [])).map((t) => [String(t['id']), str(t['name'])])));
  const [note, setNote] = useState<string | null>(null);
  return (
    <>
      {note && <Notice kind="success">{note}</Notice>}
      <ErrorBanner error={approvals.error} />
      {approvals.loading && !approvals.data && <Loading />}
      {approvals.data?.length === 0 && <Empty title="Nothing waits for approval">Risky templates and campaigns appear here for review.</Empty>}
      {approvals.data?.map((a) => <ApprovalCard key={String(a['id'])} approval={a} organizationName={tenants.data?.get(String(a['organizationId'])) ?? null} onDone={(msg) => { setNote(msg); void approvals.reload(); }} />)}
    </>
  );
}

function ApprovalCard({ approval, organizationName, onDone }: { approval: Row; organizationName: string | null; onDone: (msg: string) => void }): ReactNode {
  const [comment, setComment] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const id = String(approval['id']);
  const subject = (approval['content'] ?? approval['template'] ?? approval['campaign'] ?? approval['subject'] ?? {}) as Row;
  const label = str(subject['name'] ?? approval['name'] ?? approval['title'], id);
  const text = subject['body'] ?? subject['sampleMessage'] ?? approval['body'] ?? approval['message'];
  const compliance = (approval['compliance'] ?? null) as Row | null;
  const decide = async (verdict: 'approve' | 'reject'): Promise<void> => {
    setBusy(true); setError(null);
    try {
      await api.post(`/admin/approvals/${encodeURIComponent(id)}/${verdict}`, comment.trim() ? { comment: comment.trim() } : {});
      onDone(`“${label}” ${verdict === 'approve' ? 'approved' : 'rejected'}.`);
    } catch (e) { setError(toApiError(e)); } finally { setBusy(false); }
  };
  const org = (approval['organization'] ?? {}) as Row;
  return (
    <article className="card" aria-labelledby={`ap-${id}`} data-testid="approval">
      <h2 id={`ap-${id}`}>{str(approval['kind'] ?? approval['type'], 'Item')}: {label}</h2>
      <p>{str(org['name'] ?? approval['organizationName'] ?? organizationName ?? approval['organizationId'], '')} · requested <Time value={approval['createdAt']} />
        {' '}{subject['channel'] ? <Badge value={subject['channel']} /> : null} {subject['category'] ? <Badge value={subject['category']} /> : null}</p>
      {typeof subject['subject'] === 'string' && <p><strong>{subject['subject']}</strong></p>}
      {typeof subject['purpose'] === 'string' && <p>Sender ID for: {subject['purpose']}{Array.isArray(subject['networks']) ? ` · networks ${(subject['networks'] as string[]).join(', ')}` : ''}</p>}
      {typeof text === 'string' && <p className="message-text bubble">{text}</p>}
      {compliance && <ComplianceResult result={compliance} waiting={String(approval['status'] ?? 'PENDING').toUpperCase() === 'PENDING'} {...(typeof subject['category'] === 'string' ? { category: subject['category'] } : {})} />}
      <ErrorBanner error={error} />
      <label className="stacked">Comment (sent to the tenant with a rejection)<textarea rows={2} value={comment} onChange={(e) => setComment(e.target.value)} /></label>
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => void decide('approve')}>Approve</button>
        <button type="button" className="danger" disabled={busy} onClick={() => void decide('reject')}>Reject</button>
      </div>
    </article>
  );
}
