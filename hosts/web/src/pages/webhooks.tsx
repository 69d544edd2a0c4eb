import { useState, type ReactNode } from 'react';
import { api, asList, type ApiError } from '../api.ts';
import { Badge, Empty, ErrorBanner, Field, Loading, Notice, Page, Requires, SecretOnce, Time, str, toApiError, useAsync, useForm, useRoutes } from '../ui.tsx';

type Endpoint = Record<string, unknown> & { id: string; url: string };
const KINDS = ['message.status.updated', 'contact.opted_out', 'campaign.completed', 'message.received', 'contact.push_token_removed', 'workflow.run_failed', 'message.clicked', 'message.opened'];

export function WebhooksPage(): ReactNode {
  return <Page title="Webhooks"><Requires needs={['GET /webhook-endpoints', 'POST /webhook-endpoints']} feature="Webhook endpoints"><Webhooks /></Requires></Page>;
}

function Webhooks(): ReactNode {
  const endpoints = useAsync(async () => asList<Endpoint>(await api.get('/webhook-endpoints')));
  const form = useForm({ url: '', events: [...KINDS] });
  const [secret, setSecret] = useState<string | null>(null);
  const onSubmit = form.submit(async (v) => {
    const created = await api.post<Endpoint & { secret?: string; signingSecret?: string }>('/webhook-endpoints', { url: v.url, events: v.events });
    setSecret(created.secret ?? created.signingSecret ?? null);
    form.reset();
    await endpoints.reload();
  });
  return (
    <>
      {secret && <SecretOnce label="Signing secret" value={secret} onDone={() => setSecret(null)} />}
      <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="wh-h">
        <h2 id="wh-h">Add an endpoint</h2>
        <ErrorBanner error={form.error} shownFields={['url', 'events']} />
        <Field label="URL" name="url" error={form.error} hint="HTTPS address that receives signed POST requests (X-Service-Signature)">{(p) => <input {...p} type="url" value={form.values.url} onChange={(e) => form.set('url', e.target.value)} />}</Field>
        <fieldset><legend>Events</legend>
          {KINDS.map((k) => <label key={k} className="inline"><input type="checkbox" checked={form.values.events.includes(k)} onChange={(e) => form.set('events', e.target.checked ? [...form.values.events, k] : form.values.events.filter((x) => x !== k))} /> <code>{k}</code></label>)}
        </fieldset>
        <button type="submit" disabled={form.submitting}>Add endpoint</button>
      </form>
      <h2>Endpoints</h2>
      <ErrorBanner error={endpoints.error} />
      {endpoints.loading && !endpoints.data && <Loading />}
      {endpoints.data?.length === 0 && <Empty title="No webhook endpoints yet">Add one to be told when messages are delivered, contacts opt out or campaigns finish.</Empty>}
      {endpoints.data?.map((e) => <EndpointCard key={e.id} endpoint={e} onChange={() => void endpoints.reload()} />)}
    </>
  );
}

function EndpointCard({ endpoint, onChange }: { endpoint: Endpoint; onChange: () => void }): ReactNode {
  const routes = useRoutes();
  const canDeliveries = routes?.has('GET /webhook-endpoints/{id}/deliveries') ?? false;
  const canReplay = routes?.has('POST /webhook-endpoints/{id}/deliveries/{deliveryId}/replay') ?? false;
  const [error, setError] = useState<ApiError | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [testEvent, setTestEvent] = useState(KINDS[0]!);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const canRotate = routes?.has('POST /webhook-endpoints/{id}/rotate-secret') ?? false;
  const base = `/webhook-endpoints/${encodeURIComponent(endpoint.id)}`;
  const deliveries = useAsync(async () => (showDeliveries && canDeliveries ? asList<Record<string, unknown>>(await api.get(`${base}/deliveries`)) : []), [showDeliveries, canDeliveries]);
  const act = async (fn: () => Promise<string>): Promise<void> => {
    setError(null); setNote(null);
    try { setNote(await fn()); onChange(); await deliveries.reload(); } catch (e) { setError(toApiError(e)); }
  };
  return (
    <article className="card" aria-labelledby={`wh-${endpoint.id}`}>
      <header className="row-between">
        <h3 id={`wh-${endpoint.id}`}><code>{endpoint.url}</code> <Badge value={endpoint['isActive'] === false ? 'inactive' : 'active'} /></h3>
        <div className="actions">
          <label className="inline">Test event <select value={testEvent} onChange={(e) => setTestEvent(e.target.value)}>{KINDS.map((k) => <option key={k}>{k}</option>)}</select></label>
          <button type="button" className="secondary" onClick={() => void act(async () => { const r = await api.post<Record<string, unknown>>(`${base}/test`, { event: testEvent });
            if (r['success'] === false) throw new Error(`The test delivery failed: ${str(r['error'] ?? (r['statusCode'] ? `HTTP ${str(r['statusCode'])}` : 'no answer'))}${r['durationMs'] !== undefined ? ` after ${str(r['durationMs'])} ms` : ''}.`);
            return `Test delivered: HTTP ${str(r['statusCode'] ?? r['responseCode'])}${r['durationMs'] !== undefined ? ` in ${str(r['durationMs'])} ms` : ''}.`; })}>Send a test</button>
          <button type="button" className="secondary" onClick={() => void act(async () => { await api.patch(base, { isActive: endpoint['isActive'] === false }); return endpoint['isActive'] === false ? 'Endpoint enabled.' : 'Endpoint disabled.'; })}>{endpoint['isActive'] === false ? 'Enable' : 'Disable'}</button>
          {canRotate && <button type="button" className="secondary" onClick={() => void act(async () => { const r = await api.post<Record<string, unknown>>(`${base}/rotate-secret`); setSecret(str(r['secret'], '')); return 'New signing secret created; for 24 hours every delivery is signed with both the new and the previous secret (X-Service-Signature-Previous, and two entries in webhook-signature).'; })}>Rotate secret</button>}
          {canDeliveries && <button type="button" className="secondary" aria-expanded={showDeliveries} onClick={() => setShowDeliveries(!showDeliveries)}>Recent deliveries</button>}
        </div>
      </header>
      <p>Events: {asList<string>(endpoint['subscribedTo'] ?? endpoint['events']).join(', ') || 'all'}{endpoint['disabledReason'] ? ` · disabled: ${str(endpoint['disabledReason'])}` : ''}</p>
      {secret && <SecretOnce label="New signing secret" value={secret} onDone={() => setSecret(null)} />}
      {note && <Notice kind="success">{note}</Notice>}
      <ErrorBanner error={error ?? deliveries.error} />
      {showDeliveries && (deliveries.loading ? <Loading /> : (deliveries.data?.length ?? 0) === 0 ? <p className="hint">No deliveries yet. Send a test to see one here.</p> : (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Response</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>{deliveries.data!.map((d) => (
            <tr key={String(d['id'])}>
              <td><Time value={d['createdAt']} /></td><td><code>{str(d['kind'])}</code></td><td><Badge value={d['status']} /></td><td>{str(d['attempts'])}</td>
              <td>{str(d['responseCode'])} {d['lastError'] ? <small>{str(d['lastError'])}</small> : null}</td>
              <td>{canReplay && <button type="button" className="secondary small" onClick={() => void act(async () => { await api.post(`${base}/deliveries/${encodeURIComponent(String(d['id']))}/replay`); return 'Delivery queued again.'; })}>Replay</button>}</td>
            </tr>
          ))}</tbody>
        </table></div>
      ))}
    </article>
  );
}
