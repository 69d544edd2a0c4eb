import { useState, type ReactNode } from 'react';
import { api, asList } from '../api.ts';
import { Badge, CopyButton, Empty, ErrorBanner, Field, Loading, Notice, Page, Requires, Time, toApiError, useAsync, useForm } from '../ui.tsx';

interface CustomDomain { domain: string; verified: boolean; verifiedAt: string | null; recordName: string; recordValue: string | null }
interface Settings { trackLinks: boolean; trackEmailOpens: boolean; untrackedTemplateIds: string[]; customDomain: CustomDomain | null; linkBase: string }
interface Rate { templateId?: string; campaignId?: string; locale?: string; messages: number; clickedMessages: number; clicks: number; uniqueClicks: number; clickRate: number }
interface Named { id: string; name: string }

/** Tracked links (docs/links.md): click rates per template, campaign and locale, tracking settings, the custom link domain. */
export function LinksPage(): ReactNode {
  return (
    <Page title="Tracked links">
      <Requires needs={['GET /analytics/clicks']} feature="Click rates"><ClickRates /></Requires>
      <Requires needs={['GET /links/settings']} feature="Tracked-link settings"><LinkSettingsForm /></Requires>
    </Page>
  );
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

function ClickRates(): ReactNode {
  const templates = useAsync(async () => {
    const [rates, names] = await Promise.all([api.get<{ items: Rate[] }>('/analytics/clicks?by=template'), api.get('/templates').then((t) => asList<Named>(t)).catch(() => [])]);
    return { rates: rates.items, names: new Map(names.map((n) => [n.id, n.name])) };
  });
  const campaigns = useAsync(async () => {
    const [rates, names] = await Promise.all([api.get<{ items: Rate[] }>('/analytics/clicks?by=campaign'), api.get('/campaigns').then((c) => asList<Named>(c)).catch(() => [])]);
    return { rates: rates.items, names: new Map(names.map((n) => [n.id, n.name])) };
  });
  const locales = useAsync(async () => ({ rates: (await api.get<{ items: Rate[] }>('/analytics/clicks?by=locale')).items, names: new Map<string, string>() }));
  const table = (label: string, key: 'templateId' | 'campaignId' | 'locale', data: { rates: Rate[]; names: Map<string, string> } | null, testId: string) => (
    <section className="card" aria-label={`Click rate per ${label}`}>
      <h2>Click rate per {label} <span className="hint">(last 30 days)</span></h2>
      {!data ? <Loading /> : data.rates.length === 0 ? <Empty title="No tracked links yet">Messages with links show their clicks here.</Empty> : (
        <div className="table-wrap"><table data-testid={testId}>
          <thead><tr><th scope="col">{label === 'template' ? 'Template' : label === 'campaign' ? 'Campaign' : 'Locale'}</th><th scope="col">Messages with links</th><th scope="col">Clicked</th><th scope="col">Click rate</th><th scope="col">Clicks</th><th scope="col">Unique clicks</th></tr></thead>
          <tbody>{data.rates.map((r) => (
            <tr key={r[key]}><td>{data.names.get(r[key]!) ?? r[key]}</td><td>{r.messages}</td><td>{r.clickedMessages}</td><td data-testid="click-rate">{percent(r.clickRate)}</td><td>{r.clicks}</td><td>{r.uniqueClicks}</td></tr>
          ))}</tbody>
        </table></div>
      )}
    </section>
  );
  return (
    <>
      {templates.error && <ErrorBanner error={templates.error} />}
      {table('template', 'templateId', templates.data, 'template-clicks')}
      {campaigns.error && <ErrorBanner error={campaigns.error} />}
      {table('campaign', 'campaignId', campaigns.data, 'campaign-clicks')}
      {locales.error && <ErrorBanner error={locales.error} />}
      {table('locale', 'locale', locales.data, 'locale-clicks')}
    </>
  );
}

function LinkSettingsForm(): ReactNode {
  const settings = useAsync(() => api.get<Settings>('/links/settings'));
  const templates = useAsync(async () => asList<Named>(await api.get('/templates')).slice(0, 200));
  const [saved, setSaved] = useState(false);
  const [verifyError, setVerifyError] = useState<unknown>(null);
  const form = useForm({ customDomain: '' });
  if (!settings.data) return settings.error ? <ErrorBanner error={settings.error} /> : <Loading />;
  const s = settings.data;
  const change = async (body: Record<string, unknown>) => {
    setSaved(false);
    if (!('customDomain' in body)) settings.setData({ ...s, ...body }); // a toggle follows the click at once; the answer confirms it
    try {
      settings.setData(await api.patch<Settings>('/links/settings', body));
      setSaved(true);
    } catch (error) {
      settings.setData(s); // refused: the toggles as they were
      throw error;
    }
  };
  const onDomain = form.submit(async (v) => { await change({ customDomain: v.customDomain.trim() || null }); form.reset(); });
  const verify = async () => {
    setVerifyError(null);
    try { settings.setData(await api.post<Settings>('/links/settings/domain/verify')); } catch (error) { setVerifyError(error); }
  };
  const untracked = new Set(s.untrackedTemplateIds);
  return (
    <>
      <section className="card" aria-labelledby="tracking-h">
        <h2 id="tracking-h">Tracking</h2>
        <p className="hint">Links in SMS, WhatsApp and email are replaced by short links on <code data-testid="link-base">{s.linkBase}</code> that count clicks (people only: link previews and bots are not counted).</p>
        <p><label className="inline"><input type="checkbox" checked={s.trackLinks} onChange={(e) => void change({ trackLinks: e.target.checked })} /> Track links in messages</label></p>
        <p><label className="inline"><input type="checkbox" checked={s.trackEmailOpens} onChange={(e) => void change({ trackEmailOpens: e.target.checked })} /> Track email opens with a 1x1 image</label></p>
        <p className="hint">Opens are unreliable: Apple Mail loads every image when mail arrives, and many clients block images. Trust click rates.</p>
        {templates.data && templates.data.length > 0 && (
          <fieldset><legend>Templates never tracked</legend>
            {templates.data.map((t) => (
              <label key={t.id} className="inline"><input type="checkbox" checked={untracked.has(t.id)}
                onChange={(e) => void change({ untrackedTemplateIds: e.target.checked ? [...untracked, t.id] : [...untracked].filter((id) => id !== t.id) })} /> {t.name}</label>
            ))}
          </fieldset>
        )}
        {saved && <Notice kind="success">Link settings saved.</Notice>}
      </section>
      <section className="card" aria-labelledby="link-domain-h">
        <h2 id="link-domain-h">Your own link domain</h2>
        <p className="hint">Links can use your own domain (for example go.yourcompany.com.gh). Point it at the link service, publish the TXT record, then press Verify.</p>
        {s.customDomain && (
          <div data-testid="link-domain">
            <p><strong>{s.customDomain.domain}</strong> {s.customDomain.verified ? <><Badge value="VERIFIED" /> <Time value={s.customDomain.verifiedAt} /></> : <Badge value="UNVERIFIED" />}</p>
            <p>TXT record: <code data-testid="link-txt-name">{s.customDomain.recordName}</code> = <code data-testid="link-txt-value">{s.customDomain.recordValue}</code> {s.customDomain.recordValue && <CopyButton text={s.customDomain.recordValue} />}</p>
            {!s.customDomain.verified && <button type="button" onClick={() => void verify()}>Verify domain</button>}
            {verifyError !== null && <ErrorBanner error={toApiError(verifyError)} />}
          </div>
        )}
        <form onSubmit={onDomain} noValidate className="row">
          <Field label="Link domain" name="customDomain" error={form.error}>{(p) => <input {...p} placeholder="go.example.com" value={form.values.customDomain} onChange={(e) => form.set('customDomain', e.target.value)} />}</Field>
          <button type="submit" disabled={form.submitting}>{s.customDomain ? 'Change domain' : 'Set domain'}</button>
        </form>
        <ErrorBanner error={form.error} shownFields={['customDomain']} />
      </section>
    </>
  );
}
