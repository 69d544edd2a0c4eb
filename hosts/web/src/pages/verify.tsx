import { useEffect, useState, type ReactNode } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { HourlyRateChart, type HourRate } from '../svg-charts.tsx';
import { Badge, Empty, ErrorBanner, Field, Loading, Notice, Page, Requires, Time, toApiError, useAsync, useForm } from '../ui.tsx';
import type { ApiError } from '../api.ts';

interface Verification { id: string; to: string; channel: string; status: string; checkAttempts: number; sendAttempts: number; createdAt: string }
interface Settings { allowedCountries: string[]; maxStartsPerRecipientPerHour: number; maxStartsPerIpPerHour: number; maxStartsPerHour: number; codeLength: number; expiresInSeconds: number; prefixBlocking: boolean }
interface Conversion { starts: number; approvals: number; conversionRate: number | null }
interface Analytics extends Conversion {
  byChannel: Array<Conversion & { channel: string }>;
  byCountry: Array<Conversion & { country: string }>;
  perHour: HourRate[];
}

/** PUT /verify/settings needs the permission verify:settings (docs/verify.md); other roles see the settings read-only. */
const SETTINGS_ROLES = ['TENANT_OWNER', 'TENANT_ADMIN'];
/** The prefix-blocking rule's level (docs/verify.md): at least 20 starts in an hour and under 10% approved. */
const collapsed = (h: HourRate): boolean => h.starts >= 20 && (h.conversionRate ?? 0) < 10;

/** Verify (docs/verify.md): settings, a try-it form, live conversion and recent verifications. */
export function VerifyPage(): ReactNode {
  return (
    <Page title="Verify">
      <Requires needs={['POST /verify/start', 'POST /verify/check', 'GET /verify', 'GET /verify/analytics', 'GET /verify/settings']} feature="Verify">
        <p>One-time passcodes over SMS, WhatsApp, voice or email, charged per send like any message. Codes are stored only as a keyed hash; passcode messages are stored and shown with the code masked.</p>
        <TryIt />
        <ConversionSection />
        <RecentSection />
        <SettingsSection />
      </Requires>
    </Page>
  );
}

function TryIt(): ReactNode {
  const start = useForm({ to: '', channel: 'SMS' });
  const check = useForm({ code: '' });
  const [current, setCurrent] = useState<Verification | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const onStart = start.submit(async (v) => {
    setResult(null);
    setCurrent(await api.post<Verification>('/verify/start', { to: v.to, channel: v.channel }));
  });
  const onCheck = check.submit(async (v) => {
    const answer = await api.post<{ valid: boolean; status: string; remainingAttempts: number }>('/verify/check', { id: current!.id, code: v.code });
    // The badge shows what the check found (APPROVED, MAX_ATTEMPTS, EXPIRED ...), not the status at start.
    setCurrent((was) => (was ? { ...was, status: answer.status, checkAttempts: was.checkAttempts + 1 } : was));
    setResult(answer.valid ? 'Approved: the code is right.' : `Not approved (${answer.status}); ${answer.remainingAttempts} attempts left.`);
  });
  return (
    <section className="card" aria-labelledby="verify-try-h">
      <h2 id="verify-try-h">Try it</h2>
      <form onSubmit={onStart} noValidate>
        <ErrorBanner error={start.error} shownFields={['to', 'channel']} />
        <div className="row">
          <Field label="Phone number or email" name="to" error={start.error}>{(p) => <input {...p} value={start.values.to} onChange={(e) => start.set('to', e.target.value)} />}</Field>
          <Field label="Channel" name="channel" error={start.error}>{(p) => (
            <select {...p} value={start.values.channel} onChange={(e) => start.set('channel', e.target.value)}>
              {['SMS', 'WHATSAPP', 'VOICE', 'EMAIL'].map((c) => <option key={c}>{c}</option>)}
            </select>
          )}</Field>
        </div>
        <button type="submit" disabled={start.submitting}>Send a code</button>
      </form>
      {current && (
        <form onSubmit={onCheck} noValidate>
          <p data-testid="verify-current">Verification <code>{current.id}</code> to {current.to}: <Badge value={current.status} /></p>
          <ErrorBanner error={check.error} shownFields={['code']} />
          <Field label="Code received" name="code" error={check.error}>{(p) => <input {...p} inputMode="numeric" autoComplete="one-time-code" value={check.values.code} onChange={(e) => check.set('code', e.target.value)} />}</Field>
          <button type="submit" disabled={check.submitting}>Check the code</button>
          {result && <Notice kind={result.startsWith('Approved') ? 'success' : 'warning'}>{result}</Notice>}
        </form>
      )}
    </section>
  );
}

const pct = (rate: number | null) => (rate === null ? '–' : `${rate}%`);

function ConversionSection(): ReactNode {
  const analytics = useAsync(async () => api.get<Analytics>('/verify/analytics?days=7'));
  useEffect(() => { const t = setInterval(() => void analytics.reload(), 10_000); return () => clearInterval(t); }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const data = analytics.data;
  const hours = data?.perHour ?? [];
  return (
    <section aria-labelledby="verify-conv-h">
      <h2 id="verify-conv-h">Conversion, last 7 days</h2>
      <ErrorBanner error={analytics.error} />
      {!data && <Loading />}
      {data && (
        <>
          <p data-testid="verify-conversion">{data.starts} started, {data.approvals} approved: <strong>{pct(data.conversionRate)}</strong></p>
          {hours.length > 0 && <p className="hint">Conversion per hour, the last 48 hours (an hour without starts has no bar).</p>}
          {hours.length > 0 && (
            <HourlyRateChart points={hours} label="Conversion per hour" bad={collapsed}
              legend={{ ok: 'approved / started', bad: 'prefix-blocking level (20+ starts, under 10% approved)' }} />
          )}
          <div className="row">
            <Table title="By channel" column="Channel" rows={data.byChannel.map((c) => [c.channel, c])} />
            <Table title="By country" column="Country" rows={data.byCountry.map((c) => [c.country, c])} />
          </div>
        </>
      )}
    </section>
  );
}

function Table({ title, column, rows }: { title: string; column: string; rows: Array<[string, Conversion]> }): ReactNode {
  return (
    <div className="table-wrap"><table>
      <caption>{title}</caption>
      <thead><tr><th scope="col">{column}</th><th scope="col">Started</th><th scope="col">Approved</th><th scope="col">Conversion</th></tr></thead>
      <tbody>{rows.map(([k, c]) => <tr key={k}><td>{k}</td><td>{c.starts}</td><td>{c.approvals}</td><td>{pct(c.conversionRate)}</td></tr>)}</tbody>
    </table></div>
  );
}

function RecentSection(): ReactNode {
  const list = useAsync(async () => (await api.get<{ items: Verification[] }>('/verify?limit=50')).items);
  useEffect(() => { const t = setInterval(() => void list.reload(), 10_000); return () => clearInterval(t); }, []); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <section aria-labelledby="verify-recent-h">
      <h2 id="verify-recent-h">Recent verifications</h2>
      <ErrorBanner error={list.error} />
      {list.data?.length === 0 && <Empty title="No verifications yet">Start one above or with POST /verify/start.</Empty>}
      {list.data && list.data.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">To</th><th scope="col">Channel</th><th scope="col">Status</th><th scope="col">Sends</th><th scope="col">Checks</th><th scope="col">Started</th></tr></thead>
          <tbody>{list.data.map((v) => (
            <tr key={v.id} data-testid="verification-row"><td>{v.to}</td><td>{v.channel}</td><td><Badge value={v.status} /></td><td>{v.sendAttempts}</td><td>{v.checkAttempts}</td><td><Time value={v.createdAt} /></td></tr>
          ))}</tbody>
        </table></div>
      )}
    </section>
  );
}

function SettingsSection(): ReactNode {
  const { role, impersonating } = useSession();
  // An impersonating platform administrator acts as TENANT_ADMIN (IMPERSONATION_ROLE in core).
  const canEdit = impersonating || (role !== null && SETTINGS_ROLES.includes(role));
  const settings = useAsync(async () => api.get<Settings>('/verify/settings'));
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  // The countries are edited as text and read on save (parsing each keystroke would swallow the comma being typed).
  const [countries, setCountries] = useState('');
  useEffect(() => { if (settings.data) { setDraft(settings.data); setCountries(settings.data.allowedCountries.join(', ')); } }, [settings.data]);
  if (!draft) return settings.error ? <ErrorBanner error={settings.error} /> : <Loading />;
  const save = async (): Promise<void> => {
    try {
      setError(null); setSaved(false);
      const allowedCountries = countries.split(/[\s,]+/).map((c) => c.trim().toUpperCase()).filter(Boolean);
      settings.setData(await api.put<Settings>('/verify/settings', { ...draft, allowedCountries }));
      setSaved(true);
    } catch (e) { setError(toApiError(e)); }
  };
  const num = (key: keyof Settings, label: string) => (
    <label className="stacked">{label}<input type="number" value={Number(draft[key])} onChange={(e) => setDraft({ ...draft, [key]: Number(e.target.value) })} /></label>
  );
  return (
    <section className="card" aria-labelledby="verify-settings-h">
      <h2 id="verify-settings-h">SMS-pumping defence and defaults</h2>
      <ErrorBanner error={error} />
      {saved && <Notice kind="success">Settings saved.</Notice>}
      {!canEdit && <p className="hint" data-testid="verify-settings-read-only">Only an owner or an admin of the organization can change these settings.</p>}
      <fieldset disabled={!canEdit}>
        <legend>Rules and defaults</legend>
        <label className="stacked">Allowed countries (ISO codes, comma-separated)
          <input value={countries} onChange={(e) => setCountries(e.target.value)} />
        </label>
        <div className="row">
          {num('maxStartsPerRecipientPerHour', 'Starts per recipient per hour')}
          {num('maxStartsPerIpPerHour', 'Starts per end-user IP per hour')}
          {num('maxStartsPerHour', 'Starts per hour, whole organization')}
          {num('codeLength', 'Code length')}
          {num('expiresInSeconds', 'Expiry (seconds)')}
        </div>
        <label className="inline"><input type="checkbox" checked={draft.prefixBlocking} onChange={(e) => setDraft({ ...draft, prefixBlocking: e.target.checked })} /> Pause prefixes whose conversion collapses (under 10% of 20+ starts in an hour)</label>
        <button type="button" onClick={() => void save()}>Save settings</button>
      </fieldset>
    </section>
  );
}
