import { useState, type ReactNode } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { createPasskey, RecoveryCodes, TotpEnrolButton, twoFactorApi } from '../two-factor-ui.tsx';
import { ErrorBanner, Field, Loading, Notice, Page, Time, useAsync, useForm } from '../ui.tsx';

/** The signed-in user's two-factor sign-in (docs/security.md, "Two-factor sign-in"), and the organization's requirement for owners. */
export function SecurityPage(): ReactNode {
  const status = useAsync(() => twoFactorApi.status(), []);
  const [codes, setCodes] = useState<string[] | null>(null);
  const proof = useForm({ proof: '' });
  const passkeyForm = useForm({ name: '' });
  const reload = async (recoveryCodes?: string[] | null): Promise<void> => { if (recoveryCodes) setCodes(recoveryCodes); await status.reload(); };
  const proofBody = (): Record<string, string> => (/^\d{6}$/.test(proof.values.proof.trim()) || /-/.test(proof.values.proof) ? { code: proof.values.proof.trim() } : { password: proof.values.proof });
  const withProof = (action: () => Promise<void>) => proof.submit(async () => { await action(); proof.set('proof', ''); });

  const addPasskey = passkeyForm.submit(async (v) => {
    const { options } = await api.post<{ options: unknown }>('/auth/two-factor/passkeys/options');
    const response = await createPasskey(options);
    const result = await api.post<{ recoveryCodes: string[] | null }>('/auth/two-factor/passkeys', { name: v.name.trim() || 'Passkey', response });
    passkeyForm.set('name', '');
    await reload(result.recoveryCodes);
  });

  if (status.loading && !status.data) return <Page title="Security"><Loading /></Page>;
  const s = status.data;
  return (
    <Page title="Security">
      <ErrorBanner error={status.error} />
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      {s && (
        <>
          <section className="card" aria-labelledby="two-factor-heading">
            <h2 id="two-factor-heading">Two-factor sign-in</h2>
            <p data-testid="two-factor-state">{s.enabled ? 'On: signing in takes your password and a second factor.' : 'Off: signing in takes only your password.'}</p>
            {(s.required.byOrganization || s.required.byPlatform) && !s.enabled && <Notice kind="warning">Two-factor is required for your account: you will be asked to set it up at your next sign-in.</Notice>}

            <h3>Authenticator app</h3>
            {s.totp.enabled
              ? <p data-testid="totp-enabled">Set up.</p>
              : <TotpEnrolButton start={() => api.post('/auth/two-factor/totp')} confirm={async (code) => reload((await api.post<{ recoveryCodes: string[] | null }>('/auth/two-factor/totp/confirm', { code })).recoveryCodes)} />}

            <h3>Passkeys</h3>
            {s.passkeys.length === 0 ? <p>No passkeys yet.</p> : (
              <table><thead><tr><th>Name</th><th>Added</th><th>Last used</th><th /></tr></thead>
                <tbody>{s.passkeys.map((p) => (
                  <tr key={p.id} data-testid="passkey-row"><td>{p.name}</td><td><Time value={p.createdAt} /></td><td><Time value={p.lastUsedAt} /></td>
                    <td><button type="button" className="secondary" disabled={proof.submitting} onClick={() => void withProof(async () => { await api.post(`/auth/two-factor/passkeys/${encodeURIComponent(p.id)}/remove`, proofBody()); await reload(); })()}>Remove</button></td></tr>
                ))}</tbody></table>
            )}
            <form onSubmit={addPasskey} noValidate className="row">
              <ErrorBanner error={passkeyForm.error} shownFields={['name']} />
              <Field label="Passkey name" name="name" error={passkeyForm.error} hint="e.g. Work laptop">{(p) => <input {...p} value={passkeyForm.values.name} onChange={(e) => passkeyForm.set('name', e.target.value)} />}</Field>
              <button type="submit" disabled={passkeyForm.submitting}>Add a passkey</button>
            </form>

            {s.enabled && (
              <>
                <h3>Recovery codes and turning off</h3>
                <p>{s.recoveryCodesLeft} unused recovery code{s.recoveryCodesLeft === 1 ? '' : 's'} left. Removing a passkey, new recovery codes and turning two-factor off take your password or a current code.</p>
                <ErrorBanner error={proof.error} shownFields={['proof']} />
                <Field label="Password or current code" name="proof" error={proof.error}>{(p) => <input {...p} type="password" autoComplete="current-password" value={proof.values.proof} onChange={(e) => proof.set('proof', e.target.value)} />}</Field>
                <p>
                  <button type="button" className="secondary" disabled={proof.submitting} onClick={() => void withProof(async () => reload((await api.post<{ recoveryCodes: string[] }>('/auth/two-factor/recovery-codes', proofBody())).recoveryCodes))()}>New recovery codes</button>{' '}
                  <button type="button" className="danger" disabled={proof.submitting} onClick={() => void withProof(async () => { await api.post('/auth/two-factor/disable', proofBody()); await reload(); })()}>Turn two-factor off</button>
                </p>
              </>
            )}
          </section>
          <OrganizationRequirement />
        </>
      )}
    </Page>
  );
}

/** Owners and administrators require two-factor of every member of the current organization. */
function OrganizationRequirement(): ReactNode {
  const session = useSession();
  const canChange = session.role === 'TENANT_OWNER' || session.role === 'TENANT_ADMIN';
  const requirement = useAsync(() => (session.organizationId ? api.get<{ required: boolean }>('/organizations/current/two-factor') : Promise.resolve(null)), [session.organizationId]);
  const form = useForm({});
  if (!session.organizationId || !requirement.data) return null;
  const toggle = form.submit(async () => { requirement.setData(await api.put<{ required: boolean }>('/organizations/current/two-factor', { required: !requirement.data!.required })); });
  return (
    <section className="card" aria-labelledby="org-two-factor-heading">
      <h2 id="org-two-factor-heading">{session.organization?.name ?? 'Organization'}: two-factor for every member</h2>
      <p data-testid="org-two-factor-state">{requirement.data.required ? 'Required: members without a second factor set one up at their next sign-in.' : 'Not required.'}</p>
      <ErrorBanner error={form.error} />
      {canChange
        ? <label><input type="checkbox" data-testid="require-two-factor" checked={requirement.data.required} disabled={form.submitting} onChange={() => void toggle()} /> Require two-factor sign-in for every member</label>
        : <p>Only owners and administrators can change this.</p>}
    </section>
  );
}
