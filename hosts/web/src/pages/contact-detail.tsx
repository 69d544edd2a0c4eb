import { useEffect, useState, type ReactNode } from 'react';
import { api, type ApiError } from '../api.ts';
import { Link } from '../router.tsx';
import { useSession } from '../session.tsx';
import { Badge, ErrorBanner, Field, Loading, Notice, Page, Requires, Time, str, toApiError, useAsync, useForm } from '../ui.tsx';

type Contact = Record<string, unknown> & { id: string };
interface Preference { category: string; channel: string; optedIn: boolean }
interface Preferences { contactId: string; channels: string[]; categories: string[]; exemptCategories: string[]; suppressed: boolean; preferences: Preference[] }

/** PUT /contacts/{id}/preferences and PATCH /contacts/{id} need contacts:write (docs/permissions.md); the other roles see them read-only. */
export const CONTACTS_WRITE_ROLES = ['TENANT_OWNER', 'TENANT_ADMIN', 'CAMPAIGN_MANAGER'];

/** Some IANA zones offered while typing (any IANA name is accepted). */
export const COMMON_TIME_ZONES = ['Africa/Accra', 'Africa/Lagos', 'Africa/Abidjan', 'Africa/Lome', 'Africa/Nairobi', 'Africa/Johannesburg', 'Africa/Cairo', 'Europe/London', 'America/New_York', 'Asia/Dubai'];

export function TimeZoneOptions({ id }: { id: string }): ReactNode {
  return <datalist id={id}>{COMMON_TIME_ZONES.map((z) => <option key={z} value={z} />)}</datalist>;
}

const key = (p: { category: string; channel: string }): string => `${p.category}/${p.channel}`;

/** One contact: its details, its time zone and its preferences per category and channel (docs/consent.md). */
export function ContactDetailPage({ id }: { id: string }): ReactNode {
  const contact = useAsync(async () => api.get<Contact>(`/contacts/${encodeURIComponent(id)}`), [id]);
  const c = contact.data;
  const name = c ? `${str(c['firstName'], '')} ${str(c['lastName'], '')}`.trim() || str(c['phone'] ?? c['email']) : 'Contact';
  return (
    <Page title={name} actions={<Link to="/app/contacts">Back to the contacts</Link>}>
      {contact.loading && !c && <Loading />}
      <ErrorBanner error={contact.error} />
      {c && (
        <>
          <dl className="facts card">
            <dt>Phone</dt><dd>{str(c['phone'])}</dd><dt>Email</dt><dd>{str(c['email'])}</dd><dt>Country</dt><dd>{str(c['countryCode'])}</dd>
            <dt>Status</dt><dd>{c['optedOut'] ? <Badge value="opted out" /> : <Badge value="active" />}</dd>
            <dt>Push token</dt><dd>{c['fcmToken'] ? <code>{str(c['fcmToken'])}</code> : 'none'}</dd>
            {c['pushTokenRemovedAt'] ? <><dt>Push token removed</dt><dd data-testid="push-token-removed"><Time value={c['pushTokenRemovedAt']} /> · {str(c['pushTokenRemovedReason'])}</dd></> : null}
            <dt>Added</dt><dd><Time value={c['createdAt']} /></dd>
          </dl>
          <TimeZoneSection contact={c} onSaved={(next) => contact.setData(next)} />
          <Requires needs={['GET /contacts/{id}/preferences', 'PUT /contacts/{id}/preferences']} feature="Contact preferences">
            <PreferencesSection contactId={c.id} />
          </Requires>
        </>
      )}
    </Page>
  );
}

function useCanWriteContacts(): boolean {
  const { role, impersonating } = useSession();
  // An impersonating platform administrator acts as TENANT_ADMIN (IMPERSONATION_ROLE in core).
  return impersonating || (role !== null && CONTACTS_WRITE_ROLES.includes(role));
}

function TimeZoneSection({ contact, onSaved }: { contact: Contact; onSaved: (c: Contact) => void }): ReactNode {
  const canEdit = useCanWriteContacts();
  const current = typeof contact['timeZone'] === 'string' ? contact['timeZone'] : '';
  const form = useForm({ timeZone: current });
  const [saved, setSaved] = useState<string | null>(null);
  const onSubmit = form.submit(async (v) => {
    setSaved(null);
    const next = await api.patch<Contact>(`/contacts/${encodeURIComponent(contact.id)}`, { timeZone: v.timeZone.trim() || null });
    onSaved(next);
    setSaved(next['timeZone'] ? `Time zone saved: ${str(next['timeZone'])}.` : 'Time zone cleared: the country\'s zone applies.');
  });
  return (
    <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="ct-tz-h">
      <h2 id="ct-tz-h">Local time</h2>
      <p className="hint">Send windows and quiet hours follow the recipient's local time: this time zone, else the country's, else the organization's.</p>
      <ErrorBanner error={form.error} shownFields={['timeZone']} />
      <fieldset disabled={!canEdit}>
        <legend className="sr-only">Time zone</legend>
        <Field label="Time zone" name="timeZone" error={form.error} hint="An IANA name such as Africa/Lagos; empty uses the country's zone">
          {(p) => <input {...p} list="ct-tz-list" value={form.values.timeZone} onChange={(e) => form.set('timeZone', e.target.value)} placeholder="Country default" />}
        </Field>
        <TimeZoneOptions id="ct-tz-list" />
        {canEdit && <button type="submit" disabled={form.submitting}>Save time zone</button>}
      </fieldset>
      {saved && <Notice kind="success">{saved}</Notice>}
    </form>
  );
}

function PreferencesSection({ contactId }: { contactId: string }): ReactNode {
  const canEdit = useCanWriteContacts();
  const prefs = useAsync(async () => api.get<Preferences>(`/contacts/${encodeURIComponent(contactId)}/preferences`), [contactId]);
  const [draft, setDraft] = useState<Map<string, boolean>>(new Map());
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => { if (prefs.data) setDraft(new Map(prefs.data.preferences.map((p) => [key(p), p.optedIn]))); }, [prefs.data]);
  const p = prefs.data;
  if (!p) return prefs.loading ? <Loading label="Loading the preferences" /> : <ErrorBanner error={prefs.error} />;
  const changed = p.preferences.filter((x) => draft.get(key(x)) !== x.optedIn);
  const save = async (): Promise<void> => {
    setSaving(true); setError(null); setSaved(null);
    try {
      const next = await api.put<Preferences>(`/contacts/${encodeURIComponent(contactId)}/preferences`, {
        preferences: changed.map((x) => ({ category: x.category, channel: x.channel, optedIn: draft.get(key(x)) ?? x.optedIn })),
      });
      prefs.setData(next);
      setSaved(`Preferences saved (${changed.length} change${changed.length === 1 ? '' : 's'}).`);
    } catch (e) { setError(toApiError(e)); } finally { setSaving(false); }
  };
  return (
    <section className="card" aria-labelledby="ct-prefs-h">
      <h2 id="ct-prefs-h">Preferences</h2>
      <p className="hint">Ticked: the contact gets that category on that channel. Transactional messages and codes always go. The recipient can change these through the opt-out link of a marketing message.</p>
      {p.suppressed && <Notice kind="warning">This contact's address is on the suppression list: nothing is sent to it, whatever is ticked here (see Compliance).</Notice>}
      {!canEdit && <p className="hint" data-testid="preferences-read-only">Your role can view these preferences but not change them.</p>}
      {p.channels.length === 0 ? <p className="hint">The contact has no phone number or email address, so there is nothing to choose.</p> : (
        <>
          <div className="table-wrap"><table data-testid="preferences-grid">
            <caption>Categories by channel</caption>
            <thead><tr><th scope="col">Category</th>{p.channels.map((ch) => <th key={ch} scope="col">{ch}</th>)}</tr></thead>
            <tbody>
              {p.categories.map((cat) => (
                <tr key={cat}>
                  <th scope="row">{cat}</th>
                  {p.channels.map((ch) => {
                    const k = key({ category: cat, channel: ch });
                    return (
                      <td key={ch}>
                        <input type="checkbox" aria-label={`${cat} on ${ch}`} checked={draft.get(k) ?? true} disabled={!canEdit || saving}
                          onChange={(e) => { const next = new Map(draft); next.set(k, e.target.checked); setDraft(next); setSaved(null); }} />
                      </td>
                    );
                  })}
                </tr>
              ))}
              {p.exemptCategories.map((cat) => (
                <tr key={cat} className="exempt">
                  <th scope="row">{cat} <small className="hint">(always on)</small></th>
                  {p.channels.map((ch) => <td key={ch}><input type="checkbox" aria-label={`${cat} on ${ch} (always on)`} checked disabled readOnly /></td>)}
                </tr>
              ))}
            </tbody>
          </table></div>
          <ErrorBanner error={error} />
          {canEdit && (
            <div className="actions">
              <button type="button" disabled={saving || changed.length === 0} onClick={() => void save()}>{saving ? 'Saving…' : 'Save preferences'}</button>
              <button type="button" className="secondary" disabled={saving || changed.length === 0} onClick={() => setDraft(new Map(p.preferences.map((x) => [key(x), x.optedIn])))}>Undo changes</button>
              <span aria-live="polite" className="hint">{changed.length > 0 ? `${changed.length} unsaved change${changed.length === 1 ? '' : 's'}` : ''}</span>
            </div>
          )}
          {saved && <Notice kind="success">{saved}</Notice>}
        </>
      )}
    </section>
  );
}
