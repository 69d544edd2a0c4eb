import { useState, type ReactNode } from 'react';
import { api } from '../api.ts';
import type { ApiError } from '../api.ts';
import { Badge, Empty, ErrorBanner, Field, Loading, Notice, Page, Select, Time, toApiError, useAsync, useForm } from '../ui.tsx';
import { SenderIdsSection } from './sender-ids.tsx';

interface VendorAccount { id: string; name: string; vendor: string; channel: string; priority: number; active: boolean; countries: string[]; platformFallback: boolean; hasCredentials: boolean; createdAt: string;
  /** This account's own callback URL, to paste into the vendor's dashboard; null for a vendor without callbacks (docs/providers.md, "Callback URLs"). */
  callbackUrl: string | null }
interface VendorAccountList { items: VendorAccount[]; supportedVendors: Record<string, string>; feePerMessage: number; currency: string; limit: number }

/** What each vendor needs, as `key=value` lines (docs/providers.md lists every vendor's credentials and settings). */
const EXAMPLES: Record<string, { credentials: string; settings: string }> = {
  'arkesel-sms': { credentials: 'apiKey=', settings: 'senderId=' }, 'hubtel-sms': { credentials: 'clientId=\nclientSecret=', settings: 'from=' },
  'mnotify-sms': { credentials: 'apiKey=', settings: 'senderId=' }, 'termii-sms': { credentials: 'apiKey=', settings: 'senderId=' },
};

function pairs(text: string): Record<string, string> {
  return Object.fromEntries(text.split('\n').map((l) => l.trim()).filter(Boolean).map((l) => [l.slice(0, l.indexOf('=') < 0 ? l.length : l.indexOf('=')).trim(), l.includes('=') ? l.slice(l.indexOf('=') + 1).trim() : '']));
}

/** Sending setup: the organization's sender IDs and its own vendor accounts. */
export function SendingPage(): ReactNode {
  return (
    <Page title="Sending setup">
      <SenderIdsSection />
      <VendorAccountsSection />
    </Page>
  );
}

function VendorAccountsSection(): ReactNode {
  const list = useAsync(async () => api.get<VendorAccountList>('/vendor-accounts'));
  const form = useForm({ name: '', vendor: 'arkesel-sms', countries: 'GH', credentials: EXAMPLES['arkesel-sms']!.credentials, settings: EXAMPLES['arkesel-sms']!.settings, ratePerSecond: '', platformFallback: true });
  const [note, setNote] = useState<string | null>(null);
  // The test's outcome is its own box: green only when the vendor accepted (issue 35).
  const [tested, setTested] = useState<{ kind: 'success' | 'warning' | 'error'; text: string } | null>(null);
  const [actionError, setActionError] = useState<ApiError | null>(null);
  const onSubmit = form.submit(async (v) => {
    setNote(null); setTested(null); setActionError(null); // a notice is about the last submission only
    const saved = await api.post<VendorAccount>('/vendor-accounts', {
      name: v.name, vendor: v.vendor, countries: v.countries.split(',').map((c) => c.trim()).filter(Boolean),
      credentials: pairs(v.credentials), settings: { ...pairs(v.settings), ...(v.ratePerSecond.trim() ? { ratePerSecond: v.ratePerSecond.trim() } : {}) }, platformFallback: v.platformFallback,
    });
    setNote(`“${saved.name}” added: your ${saved.channel} sends to ${saved.countries.join(', ')} go through it first.`);
    form.reset();
    await list.reload();
  });
  const act = async (work: () => Promise<unknown>, message: (r: unknown) => string): Promise<void> => {
    try { setActionError(null); setTested(null); const r = await work(); setNote(message(r)); await list.reload(); } catch (e) { setActionError(toApiError(e)); }
  };
  const test = (a: VendorAccount): void => {
    const to = prompt(`Send a test message through “${a.name}” to:`, a.channel === 'EMAIL' ? '' : '+233');
    if (!to) return;
    void (async () => {
      setActionError(null); setNote(null); setTested(null);
      try {
        const result = await api.post<{ accepted: boolean; retryable?: boolean; errorCode?: string; errorMessage?: string }>(`/vendor-accounts/${encodeURIComponent(a.id)}/test-message`, { to });
        const why = `${result.errorCode ?? ''} ${result.errorMessage ?? ''}`.trim();
        // A retryable failure (network error, timeout, the vendor down) never reached a decision: not a refusal.
        setTested(result.accepted ? { kind: 'success', text: `The vendor accepted the test message to ${to}.` }
          : result.retryable ? { kind: 'warning', text: `The test did not reach the vendor: ${why}. Nothing was refused; check the network or try again.` }
            : { kind: 'error', text: `The vendor refused the test message: ${why}.` });
      } catch (e) { setActionError(toApiError(e)); }
    })();
  };
  const vendors = Object.keys(list.data?.supportedVendors ?? { 'arkesel-sms': 'SMS' });
  return (
    <section aria-labelledby="vendor-accounts-h">
      <h2 id="vendor-accounts-h">Your own vendor accounts</h2>
      <p>Bring your own Arkesel, Hubtel, mNotify, Termii … account: your sends on its routes go through it first, and the platform charges
        {list.data ? ` ${list.data.currency} ${list.data.feePerMessage.toFixed(2)}` : ' a small fee'} per message instead of its price (the vendor bills you).</p>
      <p>Vendors that report back (Twilio, Africa’s Talking, Meta WhatsApp, SendGrid) need the account’s own <strong>callback URL</strong> in their dashboard:
        only that account’s secret is accepted there (Arkesel and Twilio delivery reports are requested with it automatically).</p>
      {note && <Notice kind="success">{note}</Notice>}
      {tested && <div data-testid="vendor-test-result"><Notice kind={tested.kind}>{tested.text}</Notice></div>}
      <ErrorBanner error={actionError ?? list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data?.items.length === 0 && <Empty title="No own accounts">Your messages use the platform’s providers.</Empty>}
      {list.data && list.data.items.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Name</th><th scope="col">Vendor</th><th scope="col">Routes</th><th scope="col">State</th><th scope="col">Platform fallback</th><th scope="col">Callback URL</th><th scope="col">Added</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>{list.data.items.map((a) => (
            <tr key={a.id} data-testid="vendor-account-row">
              <td>{a.name}</td><td><code>{a.vendor}</code> <Badge value={a.channel} /></td><td>{a.countries.join(', ')} · priority {a.priority}</td>
              <td><Badge value={a.active ? 'active' : 'inactive'} /></td><td>{a.platformFallback ? 'allowed' : 'never'}</td>
              <td>{a.callbackUrl ? <code className="callback-url" title="Paste this URL into the vendor's dashboard: only this account's secret is accepted there">{a.callbackUrl}</code> : <span title="This vendor is polled or reports nothing">—</span>}</td>
              <td><Time value={a.createdAt} /></td>
              <td className="actions">
                <button type="button" onClick={() => test(a)}>Test</button>
                <button type="button" onClick={() => void act(() => api.patch(`/vendor-accounts/${encodeURIComponent(a.id)}`, { active: !a.active }), () => `“${a.name}” ${a.active ? 'deactivated' : 'activated'}.`)}>{a.active ? 'Deactivate' : 'Activate'}</button>
                <button type="button" className="danger" aria-label={`Remove ${a.name}`}
                  onClick={() => { if (confirm(`Remove “${a.name}” and its credentials?`)) void act(() => api.delete(`/vendor-accounts/${encodeURIComponent(a.id)}`), () => `“${a.name}” removed.`); }}>Remove</button>
              </td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
      <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="new-account-h">
        <h3 id="new-account-h">Add an account</h3>
        <ErrorBanner error={form.error} shownFields={['name', 'vendor', 'countries', 'credentials', 'settings']} />
        <div className="row">
          <Field label="Name" name="name" error={form.error} hint="lowercase, e.g. my-arkesel">{(p) => <input {...p} value={form.values.name} onChange={(e) => form.set('name', e.target.value)} />}</Field>
          <Field label="Vendor" name="vendor" error={form.error}>{(p) => <Select {...p} options={vendors} value={form.values.vendor} onChange={(vendor) => {
            form.set('vendor', vendor);
            if (EXAMPLES[vendor]) { form.set('credentials', EXAMPLES[vendor]!.credentials); form.set('settings', EXAMPLES[vendor]!.settings); }
          }} />}</Field>
          <Field label="Countries" name="countries" error={form.error} hint="ISO codes, comma-separated; * for every destination">{(p) => <input {...p} value={form.values.countries} onChange={(e) => form.set('countries', e.target.value)} />}</Field>
        </div>
        <div className="row">
          <Field label="Credentials (key=value per line; never shown again)" name="credentials" error={form.error}>{(p) => <textarea {...p} rows={3} autoComplete="off" spellCheck={false} value={form.values.credentials} onChange={(e) => form.set('credentials', e.target.value)} />}</Field>
          <Field label="Settings (key=value per line)" name="settings" error={form.error}>{(p) => <textarea {...p} rows={3} spellCheck={false} value={form.values.settings} onChange={(e) => form.set('settings', e.target.value)} />}</Field>
          <Field label="Rate (messages/s)" name="ratePerSecond" error={form.error} hint="Your contract's throughput limit; delivery paces to it. Empty: unpaced.">{(p) => <input {...p} type="number" min={0.01} step="any" value={form.values.ratePerSecond} onChange={(e) => form.set('ratePerSecond', e.target.value)} />}</Field>
        </div>
        <label className="inline"><input type="checkbox" checked={form.values.platformFallback} onChange={(e) => form.set('platformFallback', e.target.checked)} /> When this account fails, let the platform’s providers deliver (charged the platform price)</label>
        <button type="submit" disabled={form.submitting}>Add account</button>
      </form>
    </section>
  );
}
