import { useState, type ReactNode } from 'react';
import { api, asList } from '../api.ts';
import { Badge, Empty, ErrorBanner, Field, Loading, Page, SecretOnce, Time, str, toApiError, useAsync, useForm } from '../ui.tsx';
import type { ApiError } from '../api.ts';

interface ApiKey {
  id: string; name: string; prefix: string; isSandbox: boolean; scopes: string[]; state?: string; expiresAt: string | null; lastUsedAt: string | null;
  lastUsedIp?: string | null; allowedCidrs?: string[]; createdAt: string; revokedAt: string | null;
}
const SCOPES = ['messages:send', 'messages:read', 'events:read', 'events:trigger'];

/** Address ranges typed one per line (or separated by commas or spaces). */
function rangesOf(text: string): string[] {
  return text.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
}

/** The allowed-addresses cell: the ranges (or "any address") and, for a live key, an inline editor (PATCH /api-keys/:id). */
function AllowedAddresses({ apiKey, onSaved }: { apiKey: ApiKey; onSaved: () => Promise<void> }): ReactNode {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const ranges = apiKey.allowedCidrs ?? [];
  if (!editing) {
    return (
      <>
        <span data-testid="allowed-addresses">{ranges.length ? ranges.map((r) => <code key={r} className="range">{r} </code>) : 'any address'}</span>
        {!apiKey.revokedAt && <> <button type="button" className="secondary" onClick={() => { setText(ranges.join('\n')); setError(null); setEditing(true); }} aria-label={`Edit allowed addresses of ${apiKey.name}`}>Edit</button></>}
      </>
    );
  }
  const save = async (): Promise<void> => {
    setSaving(true);
    try {
      setError(null);
      await api.patch(`/api-keys/${encodeURIComponent(apiKey.id)}`, { allowedCidrs: rangesOf(text) });
      setEditing(false);
      await onSaved();
    } catch (e) { setError(toApiError(e)); } finally { setSaving(false); }
  };
  return (
    <div className="inline-editor">
      <ErrorBanner error={error} shownFields={['allowedCidrs']} />
      <Field label={`Allowed addresses of ${apiKey.name}`} name="allowedCidrs" error={error} hint="One range per line, e.g. 203.0.113.0/24 or 2001:db8::/32; empty: any address">
        {(p) => <textarea {...p} rows={3} value={text} onChange={(e) => setText(e.target.value)} />}
      </Field>
      <button type="button" disabled={saving} onClick={() => void save()}>Save addresses</button> <button type="button" className="secondary" onClick={() => setEditing(false)}>Cancel</button>
    </div>
  );
}

export function ApiKeysPage(): ReactNode {
  const keys = useAsync(async () => asList<ApiKey>(await api.get('/api-keys')));
  const form = useForm({ name: '', isSandbox: true, scopes: [] as string[], expiresAt: '', allowedCidrs: '' });
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [revokeError, setRevokeError] = useState<ApiError | null>(null);
  const onSubmit = form.submit(async (v) => {
    const body: Record<string, unknown> = { name: v.name, isSandbox: v.isSandbox };
    if (v.scopes.length) body['scopes'] = v.scopes;
    if (v.expiresAt) body['expiresAt'] = new Date(v.expiresAt).toISOString();
    if (rangesOf(v.allowedCidrs).length) body['allowedCidrs'] = rangesOf(v.allowedCidrs);
    const result = await api.post<ApiKey & { key: string }>('/api-keys', body);
    setCreated({ name: result.name, key: result.key });
    form.reset();
    await keys.reload();
  });
  const revoke = async (k: ApiKey): Promise<void> => {
    if (!confirm(`Revoke the key "${k.name}"? Integrations using it stop working at once.`)) return;
    try { setRevokeError(null); await api.delete(`/api-keys/${encodeURIComponent(k.id)}`); await keys.reload(); } catch (e) { setRevokeError(toApiError(e)); }
  };
  return (
    <Page title="API keys">
      {created && <SecretOnce label={`New key "${created.name}"`} value={created.key} onDone={() => setCreated(null)} />}
      <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="new-key-h">
        <h2 id="new-key-h">Create a key</h2>
        <ErrorBanner error={form.error} shownFields={['name', 'scopes', 'expiresAt', 'isSandbox', 'allowedCidrs']} />
        <div className="row">
          <Field label="Name" name="name" error={form.error} hint="Where the key is used, e.g. “checkout service”">{(p) => <input {...p} value={form.values.name} onChange={(e) => form.set('name', e.target.value)} />}</Field>
          <Field label="Expires (optional)" name="expiresAt" error={form.error}>{(p) => <input {...p} type="datetime-local" value={form.values.expiresAt} onChange={(e) => form.set('expiresAt', e.target.value)} />}</Field>
        </div>
        <Field label="Allowed addresses (optional)" name="allowedCidrs" error={form.error}
          hint="Client addresses the key may be used from, one range per line (e.g. 203.0.113.0/24, 2001:db8::/32; at most 20). Empty: any address.">
          {(p) => <textarea {...p} rows={2} value={form.values.allowedCidrs} onChange={(e) => form.set('allowedCidrs', e.target.value)} />}
        </Field>
        <label className="inline"><input type="checkbox" checked={form.values.isSandbox} onChange={(e) => form.set('isSandbox', e.target.checked)} /> Sandbox key (messages are not delivered nor charged)</label>
        <fieldset>
          <legend>Scopes (none chosen: the defaults)</legend>
          {SCOPES.map((s) => <label key={s} className="inline"><input type="checkbox" checked={form.values.scopes.includes(s)} onChange={(e) => form.set('scopes', e.target.checked ? [...form.values.scopes, s] : form.values.scopes.filter((x) => x !== s))} /> <code>{s}</code></label>)}
          {form.error?.fieldErrors['scopes'] && <p className="field-error">{form.error.fieldErrors['scopes']!.join('. ')}</p>}
        </fieldset>
        <button type="submit" disabled={form.submitting}>Create key</button>
      </form>
      <h2>Keys</h2>
      <ErrorBanner error={revokeError ?? keys.error} />
      {keys.loading && !keys.data && <Loading />}
      {keys.data?.length === 0 && <Empty title="No API keys yet">Create one above, then send it as the <code>X-API-Key</code> header from your servers.</Empty>}
      {keys.data && keys.data.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Mode</th><th scope="col">Scopes</th><th scope="col">State</th><th scope="col">Allowed from</th><th scope="col">Last used</th><th scope="col">Created</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>{keys.data.map((k) => (
            <tr key={k.id}>
              <td>{k.name}</td><td><code>{k.prefix}…</code></td><td>{k.isSandbox ? 'sandbox' : 'live'}</td><td>{(k.scopes ?? []).join(', ')}</td>
              <td><Badge value={k.state ?? (k.revokedAt ? 'revoked' : 'active')} /></td><td><AllowedAddresses apiKey={k} onSaved={keys.reload} /></td>
              <td><Time value={k.lastUsedAt} />{k.lastUsedIp && <><br /><small data-testid="last-used-ip">from <code>{k.lastUsedIp}</code></small></>}</td><td><Time value={k.createdAt} /></td>
              <td>{!k.revokedAt && <button type="button" className="danger" onClick={() => void revoke(k)} aria-label={`Revoke ${k.name}`}>Revoke</button>}{k.revokedAt && str(null)}</td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
    </Page>
  );
}
