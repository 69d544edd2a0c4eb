import { useState, type ReactNode } from 'react';
import { api, asList, type ApiError } from '../api.ts';
import { Link } from '../router.tsx';
import { useSession } from '../session.tsx';
import { Badge, CHANNELS, Empty, ErrorBanner, Field, Loading, Notice, Page, Select, Time, str, toApiError, useAsync, useForm } from '../ui.tsx';

type Row = Record<string, unknown>;

/** `key=value` lines as an object (blank lines ignored; the first `=` splits). */
function pairs(text: string): Record<string, string> {
  return Object.fromEntries(text.split('\n').map((l) => l.trim()).filter(Boolean).map((l) => {
    const at = l.indexOf('=');
    return at < 0 ? [l, ''] : [l.slice(0, at).trim(), l.slice(at + 1).trim()];
  }));
}

/**
 * Platform administrators: every provider with its routes and health, health checks, activation,
 * deletion, credential rotation, and a form to add one (docs/providers.md). Credentials are typed in and
 * sent once; the API never shows them again (`hasCredentials` only). Changes apply without a restart.
 */
export function AdminProvidersPage(): ReactNode {
  const session = useSession();
  const providers = useAsync(async () => asList<Row>(await api.get('/providers')));
  const [results, setResults] = useState<Record<string, Row | ApiError>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const form = useForm({ name: '', vendor: '', channel: 'SMS', countries: '*', priority: '100', settings: '', ratePerSecond: '', credentials: '' });
  const [editing, setEditing] = useState<Row | null>(null);
  if (!session.isAdmin) return <Page title="Providers"><Notice kind="warning">Only platform administrators see this page.</Notice></Page>;

  const act = async (id: string, label: string, work: () => Promise<unknown>) => {
    setBusy(id); setError(null); setNotice(null);
    try { await work(); setNotice(label); await providers.reload(); } catch (e) { setError(toApiError(e)); } finally { setBusy(null); }
  };
  const check = (id: string) => act(id, 'Health checked.', async () => { setResults((x) => ({ ...x })); const r = await api.post<Row>(`/providers/${encodeURIComponent(id)}/health-check`); setResults((x) => ({ ...x, [id]: r })); });
  const onAdd = form.submit(async (v) => {
    setNotice(null); setError(null); // a notice is about the last submission only
    const credentials = pairs(v.credentials);
    await api.post('/admin/providers', {
      name: v.name.trim(), vendor: v.vendor.trim(), channel: v.channel, priority: Number(v.priority),
      countries: v.countries.split(',').map((c) => c.trim()).filter(Boolean), settings: { ...pairs(v.settings), ...(v.ratePerSecond.trim() ? { ratePerSecond: v.ratePerSecond.trim() } : {}) },
      ...(Object.keys(credentials).length > 0 ? { credentials } : {}),
    });
    form.set('credentials', ''); form.set('name', '');
    setNotice(`Provider ${v.name.trim()} added: live in every process within seconds.`);
    await providers.reload();
  });

  return (
    <Page title="Providers">
      {notice && <Notice kind="success">{notice}</Notice>}
      <ErrorBanner error={error ?? providers.error} />
      {providers.loading && !providers.data && <Loading />}
      {providers.data?.length === 0 && <Empty title="No providers configured">Add one below, or set PROVIDERS_FILE (docs/providers.md).</Empty>}
      {providers.data && providers.data.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Name</th><th scope="col">Channel</th><th scope="col">Vendor</th><th scope="col">Routes</th><th scope="col">Health</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>{providers.data.map((p) => {
            const id = String(p['id']);
            const name = str(p['name']);
            const health = (p['health'] ?? null) as Row | null;
            const r = results[id];
            return (
              <tr key={id}>
                <td><Link to={`/app/admin/providers/${encodeURIComponent(id)}`} aria-label={`Health history of ${name}`}>{name}</Link> {p['active'] === false && <Badge value="inactive" />} {p['hasCredentials'] === true && <small className="hint">credentials set</small>}</td>
                <td>{str(p['channel'])}</td><td>{str(p['vendor'])}</td>
                <td>{asList<Row>(p['routes']).map((rt) => `${str(rt['country'])}:${str(rt['priority'])}`).join(', ')}</td>
                <td>{health ? <><Badge value={health['status']} /> {health['latencyMs'] !== undefined ? `${str(health['latencyMs'])} ms` : ''} <Time value={health['checkedAt'] ?? health['at']} /></> : <span className="hint">never checked</span>}
                  {/* A failed check says why (the API's `detail`), not only "degraded" (issue 35). */}
                  {health && health['ok'] === false && typeof health['detail'] === 'string' && <p className="field-error" data-testid="health-detail">{health['detail']}</p>}
                  {r && (r instanceof Error ? <p className="field-error">{r.message}</p> : <p><small>Checked: {str(r['status'])}{r['ok'] === false ? '' : ` ${str(r['detail'], '')}`}</small></p>)}</td>
                <td><div className="actions">
                  <button type="button" className="secondary small" disabled={busy === id} onClick={() => void check(id)} aria-label={`Check the health of ${name}`}>{busy === id ? 'Working…' : 'Health check'}</button>
                  <button type="button" className="secondary small" disabled={busy === id} aria-label={`Edit ${name}`} aria-expanded={editing?.['id'] === id} onClick={() => setEditing(editing?.['id'] === id ? null : p)}>Edit</button>
                  <button type="button" className="secondary small" disabled={busy === id} aria-label={`${p['active'] === false ? 'Activate' : 'Deactivate'} ${name}`}
                    onClick={() => void act(id, `${name} ${p['active'] === false ? 'activated' : 'deactivated'}.`, () => api.patch(`/admin/providers/${encodeURIComponent(id)}`, { active: p['active'] === false }))}>
                    {p['active'] === false ? 'Activate' : 'Deactivate'}</button>
                  <button type="button" className="danger small" disabled={busy === id} aria-label={`Delete ${name}`}
                    onClick={() => { if (confirm(`Delete ${name}? Its credentials and health history go with it.`)) void act(id, `${name} deleted.`, () => api.delete(`/admin/providers/${encodeURIComponent(id)}`)); }}>Delete</button>
                </div></td>
              </tr>
            );
          })}</tbody>
        </table></div>
      )}
      {editing && <EditProvider key={String(editing['id'])} provider={editing} onClose={() => setEditing(null)}
        onSaved={async (text) => { setEditing(null); setError(null); setNotice(text); await providers.reload(); }} />}
      <form className="card" onSubmit={onAdd} noValidate aria-labelledby="add-provider">
        <h2 id="add-provider">Add a provider</h2>
        <ErrorBanner error={form.error} shownFields={['name', 'vendor', 'channel', 'priority', 'countries', 'settings', 'credentials']} />
        <div className="row">
          <Field label="Provider name" name="name" error={form.error} hint="2-63 lowercase letters, digits, . _ -">{(f) => <input {...f} value={form.values.name} onChange={(e) => form.set('name', e.target.value)} />}</Field>
          <Field label="Vendor" name="vendor" error={form.error} hint="arkesel-sms, hubtel-sms, mnotify-sms, africas-talking-sms, twilio-sms, meta-whatsapp, fcm-push, apns-push, expo-push, web-push, smtp-email, outbox ...">{(f) => <input {...f} value={form.values.vendor} onChange={(e) => form.set('vendor', e.target.value)} />}</Field>
        </div>
        <div className="row">
          <Field label="Channel" name="channel" error={form.error}>{(f) => <Select {...f} options={CHANNELS} value={form.values.channel} onChange={(c) => form.set('channel', c)} />}</Field>
          <Field label="Countries" name="countries" error={form.error} hint="ISO codes separated by commas, or * for every country">{(f) => <input {...f} value={form.values.countries} onChange={(e) => form.set('countries', e.target.value)} />}</Field>
          <Field label="Priority" name="priority" error={form.error} hint="Lower is tried first">{(f) => <input {...f} type="number" min={0} value={form.values.priority} onChange={(e) => form.set('priority', e.target.value)} />}</Field>
        </div>
        <Field label="Rate (messages/s)" name="ratePerSecond" error={form.error} hint="The vendor's throughput limit for this account or sender; every worker together paces to it. Empty: unpaced.">{(f) => <input {...f} type="number" min={0.01} step="any" value={form.values.ratePerSecond} onChange={(e) => form.set('ratePerSecond', e.target.value)} />}</Field>
        <Field label="Settings" name="settings" error={form.error} hint="One key=value per line (senderId, baseUrl, maxPerSecond ...)">{(f) => <textarea {...f} rows={3} value={form.values.settings} onChange={(e) => form.set('settings', e.target.value)} />}</Field>
        <Field label="Credentials" name="credentials" error={form.error} hint="One key=value per line. Sent once, stored encrypted, never shown again.">{(f) => <textarea {...f} rows={2} autoComplete="off" spellCheck={false} value={form.values.credentials} onChange={(e) => form.set('credentials', e.target.value)} />}</Field>
        <button type="submit" disabled={form.submitting}>{form.submitting ? 'Adding…' : 'Add provider'}</button>
      </form>
    </Page>
  );
}

/**
 * Edits a provider (PATCH /admin/providers/{id}, docs/providers.md): name, priority, countries, settings, and the
 * credentials, which are write-only: the field starts empty, empty keeps the stored set, anything typed replaces
 * it (rotation, without downtime). The page never shows a stored credential.
 */
function EditProvider({ provider, onClose, onSaved }: { provider: Row; onClose: () => void; onSaved: (notice: string) => Promise<void> }): ReactNode {
  const id = String(provider['id']);
  const settings = (provider['settings'] ?? {}) as Record<string, unknown>;
  const countries = asList<Row>(provider['routes']).map((r) => str(r['country']));
  const form = useForm({
    name: str(provider['name'], ''), priority: str(provider['priority'], '100'), countries: countries.join(', ') || '*',
    settings: Object.entries(settings).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join('\n'), credentials: '',
  });
  const onSave = form.submit(async (v) => {
    const credentials = pairs(v.credentials);
    const rotate = Object.keys(credentials).length > 0;
    await api.patch(`/admin/providers/${encodeURIComponent(id)}`, {
      name: v.name.trim(), priority: Number(v.priority), countries: v.countries.split(',').map((c) => c.trim()).filter(Boolean), settings: pairs(v.settings),
      ...(rotate ? { credentials } : {}),
    });
    await onSaved(`Provider ${v.name.trim()} saved${rotate ? ' with new credentials: the next sends use them' : ''}.`);
  });
  return (
    <form className="card" onSubmit={onSave} noValidate aria-labelledby="edit-provider">
      <h2 id="edit-provider">Edit {str(provider['name'])} <small className="hint">{str(provider['vendor'])} · {str(provider['channel'])}</small></h2>
      <ErrorBanner error={form.error} shownFields={['name', 'priority', 'countries', 'settings', 'credentials']} />
      <div className="row">
        <Field label="Name" name="name" error={form.error}>{(f) => <input {...f} value={form.values.name} onChange={(e) => form.set('name', e.target.value)} />}</Field>
        <Field label="Priority" name="priority" error={form.error} hint="Lower is tried first">{(f) => <input {...f} type="number" min={0} value={form.values.priority} onChange={(e) => form.set('priority', e.target.value)} />}</Field>
        <Field label="Countries" name="countries" error={form.error} hint="ISO codes separated by commas, or *">{(f) => <input {...f} value={form.values.countries} onChange={(e) => form.set('countries', e.target.value)} />}</Field>
      </div>
      <Field label="Settings" name="settings" error={form.error} hint="One key=value per line (senderId, baseUrl, ratePerSecond ...)">{(f) => <textarea {...f} rows={3} value={form.values.settings} onChange={(e) => form.set('settings', e.target.value)} />}</Field>
      <Field label="New credentials" name="credentials" error={form.error}
        hint={`${provider['hasCredentials'] === true ? 'Credentials are stored (never shown). ' : ''}Leave empty to keep them; one key=value per line replaces the whole set (rotation).`}>
        {(f) => <textarea {...f} rows={2} autoComplete="off" spellCheck={false} value={form.values.credentials} onChange={(e) => form.set('credentials', e.target.value)} />}
      </Field>
      <div className="actions">
        <button type="submit" disabled={form.submitting}>{form.submitting ? 'Saving…' : 'Save provider'}</button>
        <button type="button" className="secondary" onClick={onClose}>Cancel</button>
      </div>
    </form>
  );
}
