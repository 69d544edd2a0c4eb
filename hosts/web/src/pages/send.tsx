import { useEffect, useState, type ReactNode } from 'react';
import { api, asList } from '../api.ts';
import { Link } from '../router.tsx';
import { OutboxBanner } from '../outbox-banner.tsx';
import { Badge, SEND_CHANNELS, ErrorBanner, Field, Notice, Page, Select, Time, ghs, placeholders, str, toApiError, useAsync, useForm } from '../ui.tsx';
import { plural, zonedToIso } from '../format.ts';
import { useSession } from '../session.tsx';
import type { ApiError } from '../api.ts';
import { DeliveryBadge } from '../delivery-badge.tsx';

interface Template { id: string; name: string; channel: string; body: string; subject?: string | null; status?: string; variables?: string[] }
interface Preview { encoding: string | null; characters: number | null; segments: number; perSegment: number | null; unitPrice: number; price: number; priceSource?: 'PLATFORM' | 'OWN_ACCOUNT'; unit: string; body: string; subject: string | null; recipient: string; country: string; network?: string | null }

export function SendPage(): ReactNode {
  const templates = useAsync(async () => asList<Template>(await api.get('/templates')));
  const form = useForm({ channel: 'SMS', to: '', templateId: '', body: '', subject: '', variables: {} as Record<string, string>, countryCode: 'GH', later: false, sendAt: '' });
  const { timezone } = useSession();
  const [preview, setPreview] = useState<Preview | null>(null);
  const [previewError, setPreviewError] = useState<ApiError | null>(null);
  const [sent, setSent] = useState<Record<string, unknown> | null>(null);
  const template = templates.data?.find((t) => t.id === form.values.templateId) ?? null;
  const vars = template ? (template.variables?.length ? template.variables : placeholders(template.body)) : [];

  const body = (v: typeof form.values): Record<string, unknown> => {
    const b: Record<string, unknown> = { channel: v.channel, to: v.to.trim(), countryCode: v.countryCode || 'GH' };
    if (v.templateId) { b['templateId'] = v.templateId; b['variables'] = Object.fromEntries(vars.map((n) => [n, v.variables[n] ?? ''])); } else b['body'] = v.body;
    if ((v.channel === 'EMAIL' || v.channel === 'IN_APP' || v.channel === 'PUSH') && v.subject.trim()) b['subject'] = v.subject.trim();
    return b;
  };
  /** "Send later": the API's `sendAt` (docs/scheduling.md), typed as a wall-clock time in the organization's zone. */
  const sendAt = (v: typeof form.values): Record<string, unknown> => {
    if (!v.later) return {};
    return { sendAt: zonedToIso(v.sendAt, timezone) ?? v.sendAt };
  };

  // Live cost and encoding preview (debounced) whenever the message changes.
  useEffect(() => {
    const v = form.values;
    if (!v.to.trim() || (!v.templateId && !v.body)) { setPreview(null); setPreviewError(null); return; }
    const timer = setTimeout(() => {
      api.post<Preview>('/messages/preview', body(v)).then((p) => { setPreview(p); setPreviewError(null); }, (e) => { setPreview(null); setPreviewError(toApiError(e)); });
    }, 300);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form.values, template?.id]);

  // One idempotency key per message as written: a double click or a retry after a lost answer sends once;
  // any edit makes it a new message with a new key.
  const [sendKey, setSendKey] = useState(newIdempotencyKey);
  useEffect(() => { setSendKey(newIdempotencyKey()); }, [form.values]);
  const onSubmit = form.submit(async (v) => {
    setSent(null);
    setSent(await api.post<Record<string, unknown>>('/messages/send', { ...body(v), ...sendAt(v), idempotencyKey: sendKey }));
  });
  // A notice is about the message as it was sent: editing the form starts a new one.
  const [sentValues, setSentValues] = useState<typeof form.values | null>(null);
  useEffect(() => { if (sent) setSentValues(form.values); }, [sent]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => { if (sent && sentValues && sentValues !== form.values) { setSent(null); setSentValues(null); } }, [form.values]); // eslint-disable-line react-hooks/exhaustive-deps
  // A recipient the preview refuses is said under the Recipient field, not in the preview box.
  const recipientError = form.error?.fieldErrors['to'] ? form.error : previewError?.fieldErrors['to'] ? previewError : null;
  const previewOther = previewError && !(Object.keys(previewError.fieldErrors).length === 1 && previewError.fieldErrors['to']) ? previewError : null;
  const isSms = form.values.channel === 'SMS';
  const channelTemplates = (templates.data ?? []).filter((t) => t.channel === form.values.channel);

  return (
    <Page title="Send a message">
      <OutboxBanner />
      <div className="split">
        <form className="card" onSubmit={onSubmit} noValidate>
          <ErrorBanner error={form.error} shownFields={['channel', 'to', 'templateId', 'body', 'subject', 'variables', 'countryCode', 'sendAt']} />
          <div className="row">
            <Field label="Channel" name="channel" error={form.error}>{(p) => <Select {...p} options={SEND_CHANNELS} value={form.values.channel} onChange={(c) => { form.set('channel', c); form.set('templateId', ''); }} />}</Field>
            <Field label="Country" name="countryCode" error={form.error}>{(p) => <input {...p} value={form.values.countryCode} maxLength={2} onChange={(e) => form.set('countryCode', e.target.value.toUpperCase())} />}</Field>
          </div>
          <Field label="Recipient" name="to" error={recipientError} hint={form.values.channel === 'EMAIL' ? 'An email address' : form.values.channel === 'PUSH' ? 'A device token' : form.values.channel === 'IN_APP' ? 'A subscriber id: your own id of the user (their in-app bell)' : 'A phone number, e.g. 024 123 4567'}>
            {(p) => <input {...p} value={form.values.to} onChange={(e) => form.set('to', e.target.value)} autoComplete="off" />}
          </Field>
          <Field label="Template" name="templateId" error={form.error} hint={channelTemplates.length ? undefined : `No ${form.values.channel} templates yet: write the message below or create one under Templates.`}>
            {(p) => (
              <select {...p} value={form.values.templateId} onChange={(e) => form.set('templateId', e.target.value)}>
                <option value="">No template: write the message</option>
                {channelTemplates.map((t) => <option key={t.id} value={t.id}>{t.name}{t.status && t.status !== 'APPROVED' ? ` (${t.status})` : ''}</option>)}
              </select>
            )}
          </Field>
          {(form.values.channel === 'EMAIL' || form.values.channel === 'IN_APP' || form.values.channel === 'PUSH') && <Field label={form.values.channel === 'PUSH' ? 'Title' : 'Subject'} name="subject" error={form.error}>{(p) => <input {...p} value={form.values.subject} maxLength={998} onChange={(e) => form.set('subject', e.target.value)} />}</Field>}
          {template ? (
            <fieldset>
              <legend>Variables of “{template.name}”</legend>
              {vars.length === 0 && <p className="hint">This template has no variables.</p>}
              {vars.map((n) => <Field key={n} label={n} name={`variables.${n}`} error={form.error}>{(p) => <input {...p} value={form.values.variables[n] ?? ''} onChange={(e) => form.set('variables', { ...form.values.variables, [n]: e.target.value })} />}</Field>)}
              {form.error?.fieldErrors['variables'] && <p className="field-error">{form.error.fieldErrors['variables']!.join('. ')}</p>}
            </fieldset>
          ) : (
            <Field label="Message" name="body" error={form.error}>{(p) => <textarea {...p} rows={5} value={form.values.body} onChange={(e) => form.set('body', e.target.value)} />}</Field>
          )}
          <fieldset className="send-later">
            <legend className="sr-only">When</legend>
            <label className="inline"><input type="checkbox" checked={form.values.later} onChange={(e) => form.set('later', e.target.checked)} /> Send later</label>
            {form.values.later && <Field label={`Send at (${timezone})`} name="sendAt" error={form.error} hint="Up to 35 days ahead; until then it waits under Scheduled, where you can cancel it">{(p) => <input {...p} type="datetime-local" value={form.values.sendAt} onChange={(e) => form.set('sendAt', e.target.value)} />}</Field>}
          </fieldset>
          <button type="submit" disabled={form.submitting}>{form.submitting ? (form.values.later ? 'Scheduling…' : 'Sending…') : form.values.later ? 'Schedule' : 'Send'}</button>
        </form>
        <aside className="card" aria-labelledby="preview-h" aria-live="polite">
          <h2 id="preview-h">Preview and cost</h2>
          {!preview && !previewOther && <p className="hint">{recipientError ? 'Correct the recipient to see the price.' : `Enter a recipient and a message to see ${isSms ? 'its encoding, segments and price' : 'its price'} before you send.`}</p>}
          {previewOther && <ErrorBanner error={previewOther} shownFields={['to']} />}
          {preview && (
            <dl className="facts" data-testid="preview">
              <dt>To</dt><dd>{preview.recipient} ({preview.country})</dd>
              {preview.network && <><dt>Network</dt><dd data-testid="preview-network">{preview.network}</dd></>}
              {preview.encoding && <><dt>Encoding</dt><dd>{preview.encoding}</dd></>}
              {preview.characters !== null && <><dt>Characters</dt><dd>{preview.characters} ({str(preview.perSegment)} per segment)</dd></>}
              {preview.encoding && <><dt>Segments</dt><dd>{plural(preview.segments, 'SMS segment')}</dd></>}
              <dt>Unit price</dt><dd>{ghs(preview.unitPrice)} per {preview.unit}</dd>
              <dt>Total</dt><dd><strong data-testid="preview-price">{ghs(preview.price)}</strong>{preview.priceSource === 'OWN_ACCOUNT' ? ' (the fee for your own vendor account; it bills you for the message)' : ''}</dd>
              {preview.subject && <><dt>Subject</dt><dd>{preview.subject}</dd></>}
              <dt>Text</dt><dd className="message-text">{preview.body}</dd>
            </dl>
          )}
        </aside>
      </div>
      {sent && (
        <Notice kind={sent['status'] === 'REJECTED' || sent['status'] === 'FAILED' || sent['localOnly'] === true ? 'warning' : 'success'}>
          Message <DeliveryBadge log={sent} /> to {str(sent['recipient'])}{sent['status'] === 'SCHEDULED' && typeof sent['scheduledAt'] === 'string' ? <> for <Time value={sent['scheduledAt']} /></> : null}, cost {ghs(sent['cost'])}.{' '}
          {typeof sent['errorCode'] === 'string' && <>Reason: <code>{sent['errorCode']}</code> {str(sent['errorMessage'], '')}. </>}
          <Link to={`/app/logs/${encodeURIComponent(String(sent['id']))}`}>See its delivery log</Link>
        </Notice>
      )}
    </Page>
  );
}

/** 128 random bits as hex (crypto.getRandomValues works on plain-http deployments, where randomUUID does not). */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dashboard-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
