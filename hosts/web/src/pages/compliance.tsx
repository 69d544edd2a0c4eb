import { useState, type ReactNode } from 'react';
import { api, asList, type ApiError } from '../api.ts';
import { Badge, CATEGORIES, CHANNELS, Empty, ErrorBanner, Field, Loading, Notice, Page, Requires, Select, Time, str, toApiError, useAsync, useForm, useRoutes } from '../ui.tsx';
import { ComplianceResult } from './compliance-check.tsx';

export function CompliancePage(): ReactNode {
  const routes = useRoutes();
  return (
    <Page title="Compliance">
      {routes?.has('GET /compliance/summary') && <Summary />}
      <Checker />
      <Requires needs={['GET /compliance/suppression', 'POST /compliance/suppression']} feature="The suppression list"><Suppression /></Requires>
      {routes?.has('GET /compliance/approvals') && <ApprovalOutcomes />}
    </Page>
  );
}

function Summary(): ReactNode {
  const summary = useAsync(async () => api.get<Record<string, unknown>>('/compliance/summary'));
  if (!summary.data) return <ErrorBanner error={summary.error} />;
  const s = summary.data;
  return (
    <div className="cards">
      <section className="card stat"><h2>Suppressed addresses</h2><p className="big-number">{str(s['suppressionCount'] ?? s['suppressed'] ?? s['suppressions'], '0')}</p></section>
      <section className="card stat"><h2>Pending approvals</h2><p className="big-number">{str(s['pendingApprovals'] ?? s['pending'], '0')}</p></section>
    </div>
  );
}

/** The organization's approval requests and their outcome, with the reviewer's comment. */
function ApprovalOutcomes(): ReactNode {
  const list = useAsync(async () => asList<Record<string, unknown>>(await api.get('/compliance/approvals')));
  return (
    <>
      <h2>Approval requests</h2>
      <ErrorBanner error={list.error} />
      {list.data?.length === 0 && <Empty title="No approval requests">Marketing, fintech, healthcare and insurance templates, and risky campaigns, wait here for a platform administrator.</Empty>}
      {list.data && list.data.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Kind</th><th scope="col">Status</th><th scope="col">Comment</th><th scope="col">Requested</th><th scope="col">Decided</th></tr></thead>
          <tbody>{list.data.map((a, i) => <tr key={String(a['id'] ?? i)}><td>{str(a['kind'])}</td><td><Badge value={a['status']} /></td><td>{str(a['comment'])}</td><td><Time value={a['createdAt']} /></td><td><Time value={a['decidedAt']} /></td></tr>)}</tbody>
        </table></div>
      )}
    </>
  );
}

function Checker(): ReactNode {
  const form = useForm({ message: '', category: 'MARKETING' });
  const [result, setResult] = useState<Record<string, unknown> | null>(null);
  const onSubmit = form.submit(async (v) => setResult(await api.post('/compliance/check-message', v)));
  return (
    <Requires needs={['POST /compliance/check-message']} feature="The message checker">
      <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="chk-h">
        <h2 id="chk-h">Check a message</h2>
        <ErrorBanner error={form.error} shownFields={['message', 'category']} />
        <Field label="Message" name="message" error={form.error}>{(p) => <textarea {...p} rows={4} value={form.values.message} onChange={(e) => form.set('message', e.target.value)} />}</Field>
        <Field label="Category" name="category" error={form.error}>{(p) => <Select {...p} options={CATEGORIES} value={form.values.category} onChange={(c) => form.set('category', c)} />}</Field>
        <button type="submit" disabled={form.submitting}>Check</button>
        {result && <ComplianceResult result={result} category={form.values.category} />}
      </form>
    </Requires>
  );
}

function Suppression(): ReactNode {
  const list = useAsync(async () => asList<Record<string, unknown>>(await api.get('/compliance/suppression')));
  const routes = useRoutes();
  const canRemove = routes?.has('DELETE /compliance/suppression/{id}') ?? false;
  const [removeError, setRemoveError] = useState<ApiError | null>(null);
  const remove = async (id: string): Promise<void> => {
    if (!confirm('Remove this address from the suppression list? Messages to it will be sent again.')) return;
    try { setRemoveError(null); await api.delete(`/compliance/suppression/${encodeURIComponent(id)}`); await list.reload(); } catch (e) { setRemoveError(toApiError(e)); }
  };
  const form = useForm({ phone: '', email: '', channel: '', reason: '' });
  const [added, setAdded] = useState(false);
  const onSubmit = form.submit(async (v) => {
    setAdded(false); // a notice is about the last submission only
    const body: Record<string, string> = {};
    for (const [k, val] of Object.entries(v)) if (val.trim()) body[k] = val.trim();
    await api.post('/compliance/suppression', body);
    setAdded(true);
    form.reset();
    await list.reload();
  });
  return (
    <>
      <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="sup-h">
        <h2 id="sup-h">Suppress an address</h2>
        <p className="hint">Nothing is sent to a suppressed phone number or email address. Give at least one of them.</p>
        <ErrorBanner error={form.error} shownFields={['phone', 'email', 'channel', 'reason']} />
        <div className="row">
          <Field label="Phone" name="phone" error={form.error}>{(p) => <input {...p} type="tel" value={form.values.phone} onChange={(e) => form.set('phone', e.target.value)} />}</Field>
          <Field label="Email" name="email" error={form.error}>{(p) => <input {...p} type="email" value={form.values.email} onChange={(e) => form.set('email', e.target.value)} />}</Field>
        </div>
        <div className="row">
          <Field label="Channel (empty: all)" name="channel" error={form.error}>{(p) => <Select {...p} options={CHANNELS} allowEmpty="All channels" value={form.values.channel} onChange={(c) => form.set('channel', c)} />}</Field>
          <Field label="Reason" name="reason" error={form.error}>{(p) => <input {...p} value={form.values.reason} onChange={(e) => form.set('reason', e.target.value)} />}</Field>
        </div>
        <button type="submit" disabled={form.submitting}>Suppress</button>
        {added && <Notice kind="success">Added to the suppression list.</Notice>}
      </form>
      <h2>Suppression list</h2>
      <ErrorBanner error={removeError ?? list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data?.length === 0 && <Empty title="No suppressed addresses">Opt-outs (STOP replies) and addresses you add above appear here.</Empty>}
      {list.data && list.data.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Phone</th><th scope="col">Email</th><th scope="col">Channel</th><th scope="col">Reason</th><th scope="col">Added</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>{list.data.map((s, i) => <tr key={String(s['id'] ?? i)}><td>{str(s['phone'])}</td><td>{str(s['email'])}</td><td>{str(s['channel'], 'all')}</td><td>{str(s['reason'])}</td><td><Time value={s['createdAt']} /></td>
            <td>{canRemove && s['id'] ? <button type="button" className="secondary small" onClick={() => void remove(String(s['id']))}>Remove</button> : null}</td></tr>)}</tbody>
        </table></div>
      )}
    </>
  );
}
