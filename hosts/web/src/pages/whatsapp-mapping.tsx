import { useState, type ReactNode } from 'react';
import { api, ApiError } from '../api.ts';
import { Badge, ErrorBanner, Field, Notice, Time, toApiError, useForm } from '../ui.tsx';

type Component = { type: 'header' | 'body'; parameters: string[] } | { type: 'button'; subType: 'url' | 'quick_reply'; index: number; parameters: string[] };
export interface MetaTemplate { name: string; language: string; components: Component[] }
export interface MetaCheck { status: string; metaStatus: string | null; detail: string | null; checkedAt: string }
export interface WhatsappTemplate { id: string; name: string; variables?: string[]; metaTemplate?: MetaTemplate | null; metaCheck?: MetaCheck | null }

const names = (text: string): string[] => text.split(',').map((s) => s.trim()).filter((s) => s !== '');
const joined = (m: MetaTemplate | null | undefined, pick: (c: Component) => boolean): string => m?.components.find(pick)?.parameters.join(', ') ?? '';

/** The Meta column of a WHATSAPP template: the last check's status, or that none is mapped (docs/whatsapp-templates.md). */
export function MetaStatus({ template }: { template: WhatsappTemplate }): ReactNode {
  if (!template.metaTemplate) return <span className="hint">no Meta template</span>;
  return <>{template.metaTemplate.name} ({template.metaTemplate.language}) <Badge value={template.metaCheck?.status ?? 'UNCHECKED'} /></>;
}

/**
 * The Meta template a WHATSAPP template goes as outside the 24-hour window: name, language, the
 * variables filling header, body and the first button (PUT /templates/{id}/meta-template), and the
 * check against the WhatsApp account (POST /templates/{id}/whatsapp-check).
 */
export function WhatsappMappingEditor({ template, onChanged }: { template: WhatsappTemplate; onChanged: (t: WhatsappTemplate) => void }): ReactNode {
  const m = template.metaTemplate;
  const form = useForm({
    name: m?.name ?? '', language: m?.language ?? 'en_US', header: joined(m, (c) => c.type === 'header'), body: joined(m, (c) => c.type === 'body'),
    button: joined(m, (c) => c.type === 'button' && c.index === 0), buttonType: (m?.components.find((c) => c.type === 'button' && c.index === 0) as { subType?: string } | undefined)?.subType ?? 'url',
  });
  const [checking, setChecking] = useState(false);
  const [checkError, setCheckError] = useState<ApiError | null>(null);
  const onSave = form.submit(async (v) => {
    const components: Component[] = [];
    if (names(v.header).length) components.push({ type: 'header', parameters: names(v.header) });
    if (names(v.body).length) components.push({ type: 'body', parameters: names(v.body) });
    if (names(v.button).length) components.push({ type: 'button', subType: v.buttonType === 'quick_reply' ? 'quick_reply' : 'url', index: 0, parameters: names(v.button) });
    onChanged(await api.put<WhatsappTemplate>(`/templates/${template.id}/meta-template`, { metaTemplate: v.name.trim() ? { name: v.name.trim(), language: v.language.trim(), components } : null }));
  });
  const onCheck = async () => {
    setChecking(true);
    setCheckError(null);
    try { onChanged(await api.post<WhatsappTemplate>(`/templates/${template.id}/whatsapp-check`, {})); } catch (e) { setCheckError(toApiError(e)); } finally { setChecking(false); }
  };
  const check = template.metaCheck;
  return (
    <form className="card" onSubmit={onSave} noValidate aria-labelledby={`meta-${template.id}`}>
      <h3 id={`meta-${template.id}`}>Meta template for “{template.name}”</h3>
      <p className="hint">Outside WhatsApp’s 24-hour window only an approved Meta template is delivered. Variables: {(template.variables ?? []).join(', ') || 'none'}.</p>
      <ErrorBanner error={form.error} shownFields={['metaTemplate']} />
      <div className="row">
        <Field label="Meta template name" name="metaName" error={form.error} hint="Leave empty to remove the mapping">{(p) => <input {...p} value={form.values.name} onChange={(e) => form.set('name', e.target.value)} />}</Field>
        <Field label="Language code" name="metaLanguage" error={form.error}>{(p) => <input {...p} value={form.values.language} onChange={(e) => form.set('language', e.target.value)} />}</Field>
      </div>
      <Field label="Header parameters" name="metaHeader" hint="Variables for {{1}}, {{2}}..., comma-separated">{(p) => <input {...p} value={form.values.header} onChange={(e) => form.set('header', e.target.value)} />}</Field>
      <Field label="Body parameters" name="metaBody" hint="Variables in Meta’s order, comma-separated">{(p) => <input {...p} value={form.values.body} onChange={(e) => form.set('body', e.target.value)} />}</Field>
      <div className="row">
        <Field label="First button parameter" name="metaButton" hint="A URL or copy-code button's variable (code for passcodes)">{(p) => <input {...p} value={form.values.button} onChange={(e) => form.set('button', e.target.value)} />}</Field>
        <Field label="Button type" name="metaButtonType">{(p) => (
          <select {...p} value={form.values.buttonType} onChange={(e) => form.set('buttonType', e.target.value)}><option value="url">url / copy code</option><option value="quick_reply">quick reply</option></select>
        )}</Field>
      </div>
      <button type="submit" disabled={form.submitting}>Save mapping</button>{' '}
      <button type="button" disabled={checking || !m} onClick={() => void onCheck()}>Check with Meta</button>
      <ErrorBanner error={checkError} />
      {check && (
        <Notice kind={check.status === 'APPROVED' ? 'success' : 'warning'}>
          Meta: <Badge value={check.status} />{check.detail ? ` ${check.detail}` : ''} (checked <Time value={check.checkedAt} />)
          {check.status !== 'APPROVED' && ' Messages outside the 24-hour window are refused until a check finds it approved.'}
        </Notice>
      )}
    </form>
  );
}
