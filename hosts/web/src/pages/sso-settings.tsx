import { useEffect, useState, type ReactNode } from 'react';
import { api } from '../api.ts';
import { Badge, CopyButton, Empty, ErrorBanner, Field, Loading, Notice, Page, Requires, Select, Time, toApiError, useAsync, useForm } from '../ui.tsx';

interface Domain { id: string; domain: string; verified: boolean; verifiedAt: string | null; txtRecord: { name: string; value: string } }
interface Connection { issuerUrl: string; clientId: string; slug: string | null; scopes: string[]; defaultRole: string; ssoOnly: boolean; updatedAt: string }
interface Settings { redirectUri: string; connection: Connection | null; domains: Domain[] }

const JIT_ROLES = ['TENANT_ADMIN', 'CAMPAIGN_MANAGER', 'COMPLIANCE_REVIEWER', 'DEVELOPER', 'VIEWER'] as const;

/** Single sign-on settings for owners and admins (docs/security.md, "Single sign-on"). */
export function SsoSettingsPage(): ReactNode {
  return (
    <Page title="Single sign-on">
      <Requires needs={['GET /organizations/sso']} feature="Single sign-on"><SsoSettings /></Requires>
    </Page>
  );
}

function SsoSettings(): ReactNode {
  const settings = useAsync(() => api.get<Settings>('/organizations/sso'));
  if (!settings.data) return settings.error ? <ErrorBanner error={settings.error} /> : <Loading />;
  return (
    <>
      <ConnectionForm settings={settings.data} onSaved={settings.reload} />
      <Domains domains={settings.data.domains} onChanged={settings.reload} />
    </>
  );
}

function ConnectionForm({ settings, onSaved }: { settings: Settings; onSaved: () => Promise<void> }): ReactNode {
  const c = settings.connection;
  const initial = { issuerUrl: c?.issuerUrl ?? '', clientId: c?.clientId ?? '', clientSecret: '', slug: c?.slug ?? '', scopes: (c?.scopes ?? ['openid', 'email', 'profile']).join(' '), defaultRole: c?.defaultRole ?? 'VIEWER', ssoOnly: c?.ssoOnly ?? false };
  const form = useForm(initial);
  const [saved, setSaved] = useState(false);
  useEffect(() => { form.setValues(initial); /* eslint-disable-next-line react-hooks/exhaustive-deps */ }, [c?.updatedAt]);
  const onSubmit = form.submit(async (v) => {
    setSaved(false);
    await api.put('/organizations/sso', {
      issuerUrl: v.issuerUrl.trim(), clientId: v.clientId.trim(), ...(v.clientSecret ? { clientSecret: v.clientSecret } : {}),
      slug: v.slug.trim() || null, scopes: v.scopes.split(/[\s,]+/).filter(Boolean), defaultRole: v.defaultRole, ssoOnly: v.ssoOnly,
    });
    form.set('clientSecret', ''); // write-only: gone from the page once stored
    setSaved(true);
    await onSaved();
  });
  const text = (name: 'issuerUrl' | 'clientId' | 'slug' | 'scopes', label: string, hint?: string) => (
    <Field label={label} name={name} error={form.error} {...(hint ? { hint } : {})}>{(p) => <input {...p} value={form.values[name]} onChange={(e) => form.set(name, e.target.value)} />}</Field>
  );
  return (
    <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="sso-connection-h">
      <h2 id="sso-connection-h">OpenID Connect provider</h2>
      <p className="hint">Register this redirect URI at your identity provider: <code data-testid="redirect-uri">{settings.redirectUri}</code> <CopyButton text={settings.redirectUri} /></p>
      <ErrorBanner error={form.error} shownFields={['issuerUrl', 'clientId', 'clientSecret', 'slug', 'scopes', 'defaultRole']} />
      {text('issuerUrl', 'Issuer URL', 'For example https://login.example.com/realms/acme')}
      {text('clientId', 'Client ID')}
      <Field label="Client secret" name="clientSecret" error={form.error} hint={c ? 'Stored encrypted and never shown. Leave empty to keep the current one.' : 'Stored encrypted and never shown again.'}>
        {(p) => <input {...p} type="password" autoComplete="off" value={form.values.clientSecret} onChange={(e) => form.set('clientSecret', e.target.value)} />}
      </Field>
      {text('slug', 'Organization name for sign-in (optional)', 'Members may type this instead of their email on the sign-in page.')}
      {text('scopes', 'Scopes', 'openid and email are always requested.')}
      <Field label="Role of new members" name="defaultRole" error={form.error} hint="Given to people who sign in with SSO for the first time.">
        {(p) => <Select {...p} options={JIT_ROLES} value={form.values.defaultRole} onChange={(r) => form.set('defaultRole', r)} />}
      </Field>
      <p><label className="inline"><input type="checkbox" checked={form.values.ssoOnly} onChange={(e) => form.set('ssoOnly', e.target.checked)} /> SSO only: members with a verified domain cannot sign in with a password</label></p>
      <button type="submit" disabled={form.submitting}>Save SSO settings</button>
      {saved && <Notice kind="success">SSO settings saved.</Notice>}
    </form>
  );
}

function Domains({ domains, onChanged }: { domains: Domain[]; onChanged: () => Promise<void> }): ReactNode {
  const form = useForm({ domain: '' });
  const [rowError, setRowError] = useState<{ id: string; error: unknown } | null>(null);
  const onSubmit = form.submit(async (v) => { await api.post('/organizations/sso/domains', v); form.reset(); await onChanged(); });
  const act = async (id: string, call: () => Promise<unknown>) => {
    setRowError(null);
    try { await call(); await onChanged(); } catch (error) { setRowError({ id, error }); }
  };
  return (
    <section className="card" aria-labelledby="sso-domains-h">
      <h2 id="sso-domains-h">Email domains</h2>
      <p className="hint">People whose email is in a verified domain sign in through your provider. Prove each domain with a DNS TXT record, then press Verify.</p>
      <form onSubmit={onSubmit} noValidate className="row">
        <Field label="Domain" name="domain" error={form.error}>{(p) => <input {...p} placeholder="example.com" value={form.values.domain} onChange={(e) => form.set('domain', e.target.value)} />}</Field>
        <button type="submit" disabled={form.submitting}>Add domain</button>
      </form>
      <ErrorBanner error={form.error} shownFields={['domain']} />
      {domains.length === 0 ? <Empty title="No domains yet">Add the domain of your work email addresses.</Empty> : (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Domain</th><th scope="col">Status</th><th scope="col">TXT record</th><th scope="col">Actions</th></tr></thead>
          <tbody>{domains.map((d) => (
            <tr key={d.id} aria-label={d.domain}>
              <td>{d.domain}</td>
              <td data-testid="domain-status">{d.verified ? <><Badge value="VERIFIED" /> <Time value={d.verifiedAt} /></> : <Badge value="UNVERIFIED" />}</td>
              <td><code data-testid="txt-name">{d.txtRecord.name}</code><br /><code data-testid="txt-value">{d.txtRecord.value}</code> <CopyButton text={d.txtRecord.value} /></td>
              <td>
                {!d.verified && <button type="button" onClick={() => void act(d.id, () => api.post(`/organizations/sso/domains/${d.id}/verify`))} aria-label={`Verify ${d.domain}`}>Verify</button>}{' '}
                <button type="button" className="secondary" onClick={() => void act(d.id, () => api.delete(`/organizations/sso/domains/${d.id}`))} aria-label={`Remove ${d.domain}`}>Remove</button>
                {rowError?.id === d.id && <ErrorBanner error={toApiError(rowError.error)} />}
              </td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
    </section>
  );
}
