import { useEffect, useState, type ReactNode } from 'react';
import { api, type ApiError } from '../api.ts';
import { Badge, ErrorBanner } from '../ui.tsx';

/** A template's locale variant as the API shows it (docs/templates.md, "Locales"). */
export interface TemplateVariant { locale: string; body: string; subject: string | null; status: string; reviewComment: string | null }
interface LocaleTemplate { id: string; name: string; channel: string; body: string; language?: string; countryCode?: string; variants?: TemplateVariant[] }
interface Ucs2Character { index: number; char: string; codePoint: string; suggestion?: string | null }
interface LocaleCost {
  locale: string; encoding?: 'GSM-7' | 'UCS-2'; segments: number; characters?: number; price: number; ucs2Characters?: Ucs2Character[]; ucs2CharacterCount?: number;
  transliteration?: { text: string; encoding: string; segments: number; complete: boolean } | null;
}

/** The text with the characters forcing UCS-2 marked (by their UTF-16 index from the API). */
function Highlighted({ text, marks }: { text: string; marks: Ucs2Character[] }): ReactNode {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const m of marks) {
    if (m.index < at) continue;
    parts.push(text.slice(at, m.index));
    parts.push(<mark key={m.index} className="ucs2" title={`${m.codePoint} forces UCS-2${m.suggestion ? `; GSM-7: ${m.suggestion}` : ''}`}>{m.char}</mark>);
    at = m.index + m.char.length;
  }
  parts.push(text.slice(at));
  return <p className="message-text bubble" data-testid="ucs2-highlight">{parts}</p>;
}

/**
 * Edits a template's variants side by side (the template's own text first): each column shows its
 * SMS encoding, segments and price per message as you type, with the characters forcing UCS-2
 * highlighted; GSM-7 spellings are suggested only when the box is ticked, and used only when the
 * tenant clicks "Use suggestion" and then saves.
 */
export function LocaleVariantsEditor({ template, onChanged }: { template: LocaleTemplate; onChanged: (t: LocaleTemplate) => void }): ReactNode {
  const [drafts, setDrafts] = useState<Record<string, string>>(() => Object.fromEntries((template.variants ?? []).map((v) => [v.locale, v.body])));
  const [newLocale, setNewLocale] = useState('');
  const [suggest, setSuggest] = useState(false);
  const [costs, setCosts] = useState<Record<string, LocaleCost>>({});
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const own = template.language ?? 'en';
  const columns = [{ locale: own, body: template.body, own: true }, ...Object.entries(drafts).map(([locale, body]) => ({ locale, body, own: false }))];
  const key = JSON.stringify([columns.map((c) => [c.locale, c.body]), suggest]);

  useEffect(() => {
    const texts = columns.filter((c) => c.body.trim() !== '');
    if (texts.length === 0) return undefined;
    const timer = setTimeout(() => {
      api.post<{ locales: LocaleCost[] }>('/templates/cost-preview', { channel: template.channel, countryCode: template.countryCode ?? 'GH', variants: texts.map((c) => ({ locale: c.locale, body: c.body })), suggestTransliteration: suggest })
        .then((r) => setCosts(Object.fromEntries(r.locales.map((l) => [l.locale, l])))).catch((e: ApiError) => setError(e));
    }, 250);
    return () => clearTimeout(timer);
  }, [key]); // eslint-disable-line react-hooks/exhaustive-deps

  async function save(locale: string): Promise<void> {
    setError(null);
    try {
      const updated = await api.put<LocaleTemplate>(`/templates/${template.id}/variants/${encodeURIComponent(locale)}`, { body: drafts[locale] ?? '' });
      setSaved(locale); onChanged(updated);
    } catch (e) { setError(e as ApiError); }
  }
  async function remove(locale: string): Promise<void> {
    setError(null);
    try {
      const updated = await api.delete<LocaleTemplate>(`/templates/${template.id}/variants/${encodeURIComponent(locale)}`);
      const next = { ...drafts }; delete next[locale]; setDrafts(next); onChanged(updated);
    } catch (e) { setError(e as ApiError); }
  }
  const statusOf = (locale: string) => template.variants?.find((v) => v.locale.toLowerCase() === locale.toLowerCase());

  return (
    <section className="card" aria-labelledby="locales-h">
      <h2 id="locales-h">Locales of “{template.name}”</h2>
      <ErrorBanner error={error} />
      {saved && <p role="status">Saved {saved}{statusOf(saved)?.status === 'PENDING_APPROVAL' ? ': waiting for a platform administrator’s approval' : ''}.</p>}
      <div className="row">
        <label className="stacked">New locale (BCP 47: tw, ee, gaa, fr, en-GH)<input value={newLocale} onChange={(e) => setNewLocale(e.target.value)} /></label>
        <button type="button" disabled={!newLocale.trim() || drafts[newLocale.trim()] !== undefined} onClick={() => { setDrafts({ ...drafts, [newLocale.trim()]: '' }); setNewLocale(''); }}>Add locale</button>
        <label><input type="checkbox" checked={suggest} onChange={(e) => setSuggest(e.target.checked)} /> Suggest GSM-7 spellings</label>
      </div>
      <div className="locale-columns" style={{ display: 'grid', gridTemplateColumns: `repeat(${columns.length}, minmax(14rem, 1fr))`, gap: '1rem', overflowX: 'auto' }}>
        {columns.map((c) => {
          const cost = costs[c.locale];
          const variant = statusOf(c.locale);
          return (
            <div key={c.locale} data-testid={`locale-${c.locale}`} aria-label={`Locale ${c.locale}`} role="group">
              <h3>{c.locale}{c.own ? ' (template default)' : ''} {variant && <Badge value={variant.status} />}</h3>
              {c.own ? <p className="message-text">{c.body}</p>
                : <textarea aria-label={`Text in ${c.locale}`} rows={6} value={c.body} onChange={(e) => setDrafts({ ...drafts, [c.locale]: e.target.value })} />}
              {cost && (
                <>
                  <p data-testid="locale-cost">{cost.encoding ?? ''} · {cost.segments} segment{cost.segments === 1 ? '' : 's'} · GHS {cost.price.toFixed(2)} per message</p>
                  {cost.encoding === 'UCS-2' && (
                    <>
                      <p className="hint">{cost.ucs2CharacterCount} character{cost.ucs2CharacterCount === 1 ? '' : 's'} force UCS-2 (70 characters per segment):</p>
                      <Highlighted text={c.body} marks={cost.ucs2Characters ?? []} />
                    </>
                  )}
                  {cost.transliteration && !c.own && (
                    <p data-testid="suggestion">Suggestion ({cost.transliteration.encoding}, {cost.transliteration.segments} segment{cost.transliteration.segments === 1 ? '' : 's'}{cost.transliteration.complete ? '' : ', some characters have no GSM-7 spelling'}): <q>{cost.transliteration.text}</q>{' '}
                      <button type="button" className="link" onClick={() => setDrafts({ ...drafts, [c.locale]: cost.transliteration!.text })}>Use suggestion</button></p>
                  )}
                </>
              )}
              {!c.own && (
                <p><button type="button" onClick={() => void save(c.locale)} disabled={!c.body.trim()}>Save {c.locale}</button>{' '}
                  {variant && <button type="button" className="link" onClick={() => void remove(c.locale)}>Remove {c.locale}</button>}</p>
              )}
            </div>
          );
        })}
      </div>
    </section>
  );
}
