import { useEffect, useState, type ReactNode } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.tsx';
import { DailyChart, type DayCount } from '../svg-charts.tsx';
import { ErrorBanner, Field, Loading, Notice, Page, Requires, Time, useAsync, useForm } from '../ui.tsx';

interface ConsentStats { since: string; optedOut: number; byCategory: Array<{ category: string; channel: string; count: number }>; daily: DayCount[]; suppressed: number }
interface QuietHours { start: string; end: string }

/** PATCH /organizations/current needs organization:write (docs/permissions.md): owners and admins; the other roles see quiet hours read-only. */
export const ORGANIZATION_WRITE_ROLES = ['TENANT_OWNER', 'TENANT_ADMIN'];
/** The channels of the preference grid, in the order the API lists them (docs/consent.md). */
const CHANNEL_ORDER = ['SMS', 'WHATSAPP', 'VOICE', 'EMAIL'];

/** Consent (docs/consent.md): opt-out statistics, the organization's quiet hours, how opt-out links work. */
export function ConsentPage(): ReactNode {
  return (
    <Page title="Consent">
      <Requires needs={['GET /consent/stats']} feature="Consent statistics">
        <Explanation />
        <StatsSection />
        <QuietHoursSection />
      </Requires>
    </Page>
  );
}

function Explanation(): ReactNode {
  return (
    <section aria-labelledby="consent-how-h">
      <p>
        People choose what they get from you per category and channel. Transactional messages and verification codes (OTP) always go;
        every other category can be opted out of, and a message to someone who opted out is rejected at no cost (<code>RECIPIENT_OPTED_OUT</code>).
        A contact's choices can be changed from its page under Contacts.
      </p>
      <details className="card">
        <summary id="consent-how-h">How opt-out links in marketing messages work (the hosted opt-out page)</summary>
        <ul>
          <li>Every <strong>MARKETING</strong> message on SMS, WhatsApp or email carries a short opt-out link (where the text places <code>{'{{optOutUrl}}'}</code>, otherwise appended; its length counts in the price preview). Marketing emails also carry one-click <code>List-Unsubscribe</code> headers, so mail apps show their own unsubscribe button.</li>
          <li>The link opens a page without login or scripts that names your organization and the masked address, with an <strong>Unsubscribe</strong> button (no more marketing on that channel) and <strong>Choose what you get</strong>: a checkbox per category.</li>
          <li>Opening the link changes nothing (mail scanners open links); only the recipient's submission records the choice, which appears in the statistics below, emits a <code>contact.opted_out</code> webhook event and is audited.</li>
          <li>STOP replies to two-way numbers and the suppression list (Compliance page) stop everything to an address, whatever the category.</li>
        </ul>
      </details>
    </section>
  );
}

function StatsSection(): ReactNode {
  const stats = useAsync(async () => api.get<ConsentStats>('/consent/stats'));
  const s = stats.data;
  if (!s) return stats.loading ? <Loading label="Loading the opt-out statistics" /> : <ErrorBanner error={stats.error} />;
  const categories = [...new Set(s.byCategory.map((r) => r.category))].sort();
  const channels = [...new Set(s.byCategory.map((r) => r.channel))].sort((a, b) => rank(a) - rank(b));
  const count = (category: string, channel: string): number => s.byCategory.find((r) => r.category === category && r.channel === channel)?.count ?? 0;
  const recent = s.daily.reduce((n, d) => n + d.count, 0);
  return (
    <section aria-labelledby="consent-stats-h">
      <h2 id="consent-stats-h">Opt-outs</h2>
      <div className="cards">
        <section className="card stat" aria-labelledby="consent-opted-h"><h3 id="consent-opted-h">Opted out (category and channel)</h3><p className="big-number" data-testid="consent-opted-out">{s.optedOut}</p><small className="hint">choices in force</small></section>
        <section className="card stat" aria-labelledby="consent-recent-h"><h3 id="consent-recent-h">Opt-outs in the last 30 days</h3><p className="big-number" data-testid="consent-recent">{recent}</p><small className="hint">since <Time value={s.since} /></small></section>
        <section className="card stat" aria-labelledby="consent-supp-h"><h3 id="consent-supp-h">Suppression entries</h3><p className="big-number" data-testid="consent-suppressed">{s.suppressed}</p><small className="hint">addresses nothing is sent to</small></section>
      </div>
      <h3>Opt-outs per day</h3>
      <DailyChart points={s.daily} label="Opt-outs per day" unit="opt-outs" />
      <h3 id="consent-grid-h">By category and channel</h3>
      {categories.length === 0 ? <p className="hint">Nobody has opted out of a category yet.</p> : (
        <div className="table-wrap"><table data-testid="consent-by-category" aria-labelledby="consent-grid-h">
          <thead><tr><th scope="col">Category</th>{channels.map((c) => <th key={c} scope="col">{c}</th>)}<th scope="col">Total</th></tr></thead>
          <tbody>{categories.map((cat) => (
            <tr key={cat}>
              <th scope="row">{cat}</th>
              {channels.map((ch) => <td key={ch}>{count(cat, ch)}</td>)}
              <td>{channels.reduce((n, ch) => n + count(cat, ch), 0)}</td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
    </section>
  );
}

const rank = (channel: string): number => { const i = CHANNEL_ORDER.indexOf(channel); return i < 0 ? CHANNEL_ORDER.length : i; };

function QuietHoursSection(): ReactNode {
  const { role, impersonating } = useSession();
  // An impersonating platform administrator acts as TENANT_ADMIN (IMPERSONATION_ROLE in core).
  const canEdit = impersonating || (role !== null && ORGANIZATION_WRITE_ROLES.includes(role));
  const org = useAsync(async () => api.get<Record<string, unknown>>('/organizations/current'));
  const current = (org.data?.['quietHours'] ?? null) as QuietHours | null;
  const form = useForm({ start: '21:00', end: '07:00' });
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => { if (current) form.setValues({ start: current.start, end: current.end }); }, [current?.start, current?.end]); // eslint-disable-line react-hooks/exhaustive-deps
  const save = (quietHours: QuietHours | null) => form.submit(async () => {
    setSaved(null);
    org.setData(await api.patch<Record<string, unknown>>('/organizations/current', { quietHours }));
    setSaved(quietHours ? `Quiet hours saved: ${quietHours.start} to ${quietHours.end}.` : 'Quiet hours cleared.');
  });
  // The API names nested fields by the top-level key: quietHours.
  const timeField = (name: 'start' | 'end', label: string) => (
    <Field label={label} name={name === 'start' ? 'quietHours' : 'quietHours.end'} error={form.error}>{(p) => <input {...p} name={name} type="time" required value={form.values[name]} onChange={(e) => form.set(name, e.target.value)} />}</Field>
  );
  return (
    <section className="card" aria-labelledby="consent-quiet-h">
      <h2 id="consent-quiet-h">Quiet hours</h2>
      <p className="hint">In the recipient's local night (the contact's time zone, else its country's, else the organization's), messages wait until the end of quiet hours instead of going out.
        Transactional messages, verification codes and ALERT messages are never held. Send windows set by the platform (for example Ghana marketing SMS, Monday to Saturday 08:00 to 19:00) apply as well.</p>
      {!org.data && (org.loading ? <Loading /> : <ErrorBanner error={org.error} />)}
      {org.data && (
        <>
          <p data-testid="quiet-hours">{current ? <>Now: <strong>{current.start}</strong> to <strong>{current.end}</strong> (recipient's local time)</> : 'Now: no quiet hours (messages go out at any hour, within the send windows).'}</p>
          {!canEdit && <p className="hint" data-testid="quiet-hours-read-only">Only an owner or an admin of the organization can change quiet hours.</p>}
          {canEdit && (
            <form onSubmit={save({ start: form.values.start, end: form.values.end })} noValidate aria-label="Quiet hours">
              <ErrorBanner error={form.error} shownFields={['quietHours']} />
              <div className="row">{timeField('start', 'Quiet from')}{timeField('end', 'Quiet until')}</div>
              <div className="actions">
                <button type="submit" disabled={form.submitting}>Save quiet hours</button>
                {current && <button type="button" className="secondary" disabled={form.submitting} onClick={() => void save(null)()}>Clear quiet hours</button>}
              </div>
            </form>
          )}
          {saved && <Notice kind="success">{saved}</Notice>}
        </>
      )}
    </section>
  );
}
