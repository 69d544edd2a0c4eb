import { useMemo, useState, type ReactNode } from 'react';
import { api, asList } from '../api.ts';
import { Badge, CATEGORIES, Empty, ErrorBanner, Field, Loading, Notice, Page, Select, TEMPLATE_CHANNELS, Time, fill, placeholders, str, useAsync, useForm } from '../ui.tsx';
import { ComplianceCheck } from './compliance-check.tsx';
import { LocaleVariantsEditor, type TemplateVariant } from './template-locales.tsx';
import { MetaStatus, WhatsappMappingEditor, type MetaCheck, type MetaTemplate } from './whatsapp-mapping.tsx';

interface Template { id: string; name: string; channel: string; body: string; subject: string | null; category: string; status?: string; reviewComment?: string | null; variables?: string[]; createdAt?: string; language?: string; metaTemplate?: MetaTemplate | null; metaCheck?: MetaCheck | null; countryCode?: string; variants?: TemplateVariant[] }

export function TemplatesPage(): ReactNode {
  const templates = useAsync(async () => asList<Template>(await api.get('/templates')));
  const form = useForm({ name: '', channel: 'SMS', category: 'TRANSACTIONAL', subject: '', body: '', language: 'en', countryCode: 'GH' });
  const [samples, setSamples] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<Template | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [localesOf, setLocalesOf] = useState<string | null>(null);
  const vars = useMemo(() => placeholders(`${form.values.subject} ${form.values.body}`), [form.values.subject, form.values.body]);
  const onSubmit = form.submit(async (v) => {
    const body: Record<string, unknown> = { name: v.name, channel: v.channel, category: v.category, body: v.body, variables: vars, language: v.language || 'en', countryCode: v.countryCode || 'GH' };
    if (v.channel === 'EMAIL' && v.subject.trim()) body['subject'] = v.subject;
    setCreated(await api.post<Template>('/templates', body));
    form.reset();
    setSamples({});
    await templates.reload();
  });
  return (
    <Page title="Templates">
      {created && (
        <Notice kind={created.status === 'PENDING_APPROVAL' ? 'warning' : 'success'}>
          Template “{created.name}” created: <Badge value={created.status} />.
          {created.status === 'PENDING_APPROVAL' && ' Its category needs a platform administrator’s approval before messages can use it.'}
        </Notice>
      )}
      <div className="split">
        <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="tpl-h">
          <h2 id="tpl-h">New template</h2>
          <ErrorBanner error={form.error} shownFields={['name', 'channel', 'category', 'subject', 'body', 'variables', 'language']} />
          <Field label="Name" name="name" error={form.error}>{(p) => <input {...p} value={form.values.name} onChange={(e) => form.set('name', e.target.value)} />}</Field>
          <div className="row">
            <Field label="Channel" name="channel" error={form.error}>{(p) => <Select {...p} options={TEMPLATE_CHANNELS} value={form.values.channel} onChange={(c) => form.set('channel', c)} />}</Field>
            <Field label="Category" name="category" error={form.error} hint="Marketing, fintech, healthcare and insurance templates need approval">{(p) => <Select {...p} options={CATEGORIES} value={form.values.category} onChange={(c) => form.set('category', c)} />}</Field>
            <Field label="Language" name="language" error={form.error}>{(p) => <input {...p} value={form.values.language} onChange={(e) => form.set('language', e.target.value)} />}</Field>
          </div>
          {form.values.channel === 'EMAIL' && <Field label="Subject" name="subject" error={form.error}>{(p) => <input {...p} value={form.values.subject} onChange={(e) => form.set('subject', e.target.value)} />}</Field>}
          <Field label="Body" name="body" error={form.error} hint="Write variables in double braces: {{firstName}}">{(p) => <textarea {...p} rows={6} value={form.values.body} onChange={(e) => form.set('body', e.target.value)} />}</Field>
          <p aria-live="polite" data-testid="detected-variables">Variables detected: {vars.length ? vars.map((n) => <code key={n} className="chip">{n}</code>) : <span className="hint">none</span>}</p>
          {form.error?.fieldErrors['variables'] && <p className="field-error">{form.error.fieldErrors['variables']!.join('. ')}</p>}
          <button type="submit" disabled={form.submitting}>Create template</button>
        </form>
        <aside className="card" aria-labelledby="tpl-prev-h">
          <h2 id="tpl-prev-h">Live preview</h2>
          {vars.length > 0 && (
            <fieldset>
              <legend>Sample values</legend>
              {vars.map((n) => <label key={n} className="stacked">{n}<input value={samples[n] ?? ''} onChange={(e) => setSamples({ ...samples, [n]: e.target.value })} /></label>)}
            </fieldset>
          )}
          {form.values.channel === 'EMAIL' && form.values.subject && <p><strong>{fill(form.values.subject, samples)}</strong></p>}
          <p className="message-text bubble" data-testid="template-preview">{form.values.body ? fill(form.values.body, samples) : <span className="hint">The message appears here as you type.</span>}</p>
          <h3>Compliance check</h3>
          <ComplianceCheck message={fill(form.values.body, samples)} category={form.values.category} />
        </aside>
      </div>
      <h2>Your templates</h2>
      <ErrorBanner error={templates.error} />
      {templates.loading && !templates.data && <Loading />}
      {templates.data?.length === 0 && <Empty title="No templates yet">Create one above; messages, events and campaigns can then use it with variables.</Empty>}
      {templates.data && templates.data.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Name</th><th scope="col">Channel</th><th scope="col">Category</th><th scope="col">Approval</th><th scope="col">Locales</th><th scope="col">WhatsApp (Meta)</th><th scope="col">Body</th><th scope="col">Created</th></tr></thead>
          <tbody>{templates.data.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td><td>{t.channel}</td><td>{t.category}</td>
              <td><Badge value={t.status} />{t.reviewComment ? <small> “{t.reviewComment}”</small> : null}</td>
              <td><button type="button" className="link" aria-label={`Locales of ${t.name}`} onClick={() => setLocalesOf(localesOf === t.id ? null : t.id)}>
                {[t.language ?? 'en', ...(t.variants ?? []).map((v) => v.locale)].join(', ')}</button></td>
              <td>{t.channel === 'WHATSAPP' ? <><MetaStatus template={t} />{' '}<button type="button" className="link" onClick={() => setEditing(editing === t.id ? null : t.id)}>{editing === t.id ? 'Close' : 'Edit'}</button></> : <span className="hint">n/a</span>}</td>
              <td className="message-text clip">{t.body}</td><td><Time value={t.createdAt} /></td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
      {localesOf && templates.data?.find((t) => t.id === localesOf) && (
        <LocaleVariantsEditor key={localesOf} template={templates.data.find((t) => t.id === localesOf)!}
          onChanged={(t) => templates.setData(templates.data!.map((x) => (x.id === t.id ? { ...x, ...t } : x)))} />
      )}
      {editing && templates.data?.find((t) => t.id === editing) && (
        <WhatsappMappingEditor key={editing} template={templates.data.find((t) => t.id === editing)!}
          onChanged={(t) => templates.setData(templates.data!.map((x) => (x.id === t.id ? { ...x, ...t } : x)))} />
      )}
      {str(null, '') /* keeps str imported for future columns */}
    </Page>
  );
}
