import { useState, type ReactNode } from 'react';
import { api, asList } from '../api.ts';
import { Link } from '../router.tsx';
import { WorkflowPanel } from './workflow-editor.tsx';
import { WorkflowFailureBanner } from '../workflow-failure-banner.tsx';
import { Badge, SEND_CHANNELS as CHANNELS, Empty, ErrorBanner, Field, Loading, Notice, Page, Requires, Time, placeholders, str, useAsync, useForm, useRoutes } from '../ui.tsx';

type Event = Record<string, unknown> & { id: string; name: string; slug: string };
interface Template { id: string; name: string; channel: string; body: string; variables?: string[] }

/** Ordered channel list with keyboard-operable move up / down / remove buttons. */
function PriorityEditor({ value, onChange, label }: { value: string[]; onChange: (v: string[]) => void; label: string }): ReactNode {
  const move = (i: number, d: number): void => { const next = [...value]; const [x] = next.splice(i, 1); next.splice(i + d, 0, x!); onChange(next); };
  const unused = CHANNELS.filter((c) => !value.includes(c));
  return (
    <fieldset>
      <legend>{label}</legend>
      {value.length === 0 && <p className="hint">No channel yet: add one.</p>}
      <ol className="priority">
        {value.map((c, i) => (
          <li key={c}>
            <span>{i + 1}. {c}</span>
            <button type="button" className="icon" onClick={() => move(i, -1)} disabled={i === 0} aria-label={`Move ${c} up`}>↑</button>
            <button type="button" className="icon" onClick={() => move(i, 1)} disabled={i === value.length - 1} aria-label={`Move ${c} down`}>↓</button>
            <button type="button" className="icon" onClick={() => onChange(value.filter((x) => x !== c))} aria-label={`Remove ${c}`}>✕</button>
          </li>
        ))}
      </ol>
      {unused.length > 0 && <p>Add: {unused.map((c) => <button key={c} type="button" className="secondary small" onClick={() => onChange([...value, c])} aria-label={`Add ${c} to ${label}`}>+ {c}</button>)}</p>}
    </fieldset>
  );
}

export function EventsPage(): ReactNode {
  return (
    <Page title="Notification events" actions={<Link to="/app/workflow-runs/failed">Failed workflow runs</Link>}>
      <WorkflowFailureBanner />
      <Requires needs={['GET /events', 'POST /events']} feature="Notification events"><Events /></Requires>
    </Page>
  );
}

function Events(): ReactNode {
  const routes = useRoutes();
  const events = useAsync(async () => asList<Event>(await api.get('/events')));
  const templates = useAsync(async () => asList<Template>(await api.get('/templates')));
  const blank = { name: '', slug: '', description: '', templateId: '', channelPriority: ['SMS'] as string[], fallback: [] as string[], isActive: true };
  const form = useForm(blank);
  const [editing, setEditing] = useState<Event | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const canEdit = routes?.has('PATCH /events/{id}') ?? false;

  const onSubmit = form.submit(async (v) => {
    setSaved(null); // a notice is about the last submission only: never next to a new attempt's error
    const body: Record<string, unknown> = { name: v.name, slug: v.slug, channelPriority: v.channelPriority, fallbackRules: { channels: v.fallback }, isActive: v.isActive };
    if (v.description.trim()) body['description'] = v.description;
    if (v.templateId) body['templateId'] = v.templateId;
    if (editing) await api.patch(`/events/${encodeURIComponent(editing.id)}`, body); else await api.post('/events', body);
    setSaved(`Event “${v.name}” ${editing ? 'updated' : 'created'}. Trigger it with POST /events/trigger and "event": "${v.slug}".`);
    setEditing(null);
    form.setValues(blank);
    await events.reload();
  });
  const edit = (e: Event): void => {
    setEditing(e);
    const fb = (e['fallbackRules'] as { channels?: string[] } | null)?.channels ?? [];
    form.setValues({ name: e.name, slug: e.slug, description: str(e['description'], ''), templateId: str(e['templateId'], ''), channelPriority: (e['channelPriority'] as string[]) ?? ['SMS'], fallback: fb, isActive: e['isActive'] !== false });
  };

  return (
    <>
      {saved && <Notice kind="success">{saved}</Notice>}
      <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="ev-h">
        <h2 id="ev-h">{editing ? `Edit “${editing.name}”` : 'New event'}</h2>
        <ErrorBanner error={form.error} shownFields={['name', 'slug', 'description', 'templateId', 'channelPriority', 'fallbackRules']} />
        <div className="row">
          <Field label="Name" name="name" error={form.error}>{(p) => <input {...p} value={form.values.name} onChange={(e) => { form.set('name', e.target.value); if (!editing) form.set('slug', e.target.value.toLowerCase().replace(/[^a-z0-9._-]+/g, '.').replace(/^\.+|\.+$/g, '')); }} />}</Field>
          <Field label="Slug" name="slug" error={form.error} hint="lowercase letters, digits, dot, underscore, hyphen">{(p) => <input {...p} value={form.values.slug} onChange={(e) => form.set('slug', e.target.value)} />}</Field>
        </div>
        <Field label="Description" name="description" error={form.error}>{(p) => <input {...p} value={form.values.description} onChange={(e) => form.set('description', e.target.value)} />}</Field>
        <Field label="Template" name="templateId" error={form.error}>{(p) => (
          <select {...p} value={form.values.templateId} onChange={(e) => form.set('templateId', e.target.value)}>
            <option value="">No template</option>
            {(templates.data ?? []).map((t) => <option key={t.id} value={t.id}>{t.name} ({t.channel})</option>)}
          </select>
        )}</Field>
        <div className="row">
          <PriorityEditor label="Channel priority" value={form.values.channelPriority} onChange={(v) => form.set('channelPriority', v)} />
          <PriorityEditor label="Fallback channels" value={form.values.fallback} onChange={(v) => form.set('fallback', v)} />
        </div>
        {(form.error?.fieldErrors['channelPriority'] || form.error?.fieldErrors['fallbackRules']) && <p className="field-error">{[...(form.error.fieldErrors['channelPriority'] ?? []), ...(form.error.fieldErrors['fallbackRules'] ?? [])].join('. ')}</p>}
        <label className="inline"><input type="checkbox" checked={form.values.isActive} onChange={(e) => form.set('isActive', e.target.checked)} /> Active</label>
        <div className="actions">
          <button type="submit" disabled={form.submitting}>{editing ? 'Save event' : 'Create event'}</button>
          {editing && <button type="button" className="secondary" onClick={() => { setEditing(null); form.setValues(blank); }}>Cancel</button>}
        </div>
      </form>
      <h2>Events</h2>
      <ErrorBanner error={events.error} />
      {events.loading && !events.data && <Loading />}
      {events.data?.length === 0 && <Empty title="No events yet">Create an event such as <code>order.shipped</code>; your integration triggers it by slug and Nkra picks the channel and template.</Empty>}
      {events.data?.map((e) => <EventRow key={e.id} event={e} templates={templates.data ?? []} onEdit={canEdit ? () => edit(e) : null} />)}
    </>
  );
}

function EventRow({ event, templates, onEdit }: { event: Event; templates: Template[]; onEdit: (() => void) | null }): ReactNode {
  const linked = (event['template'] as Template | undefined) ?? templates.find((t) => t.id === event['templateId']);
  const vars = linked ? (linked.variables?.length ? linked.variables : placeholders(linked.body)) : [];
  const [open, setOpen] = useState(false);
  const form = useForm({ to: '', subscriberId: '', variables: {} as Record<string, string> });
  const [result, setResult] = useState<Record<string, unknown> | null>(null);
  const fb = (event['fallbackRules'] as { channels?: string[] } | null)?.channels ?? [];
  // IN_APP reaches a subscriber (the tenant's id of the person, docs/inbox.md), not a phone or an address.
  const inApp = [...((event['channelPriority'] as string[] | undefined) ?? []), ...fb].includes('IN_APP');
  const onTrigger = form.submit(async (v) => {
    setResult(null);
    setResult(await api.post<Record<string, unknown>>('/events/trigger', {
      event: event.slug, ...(v.to.trim() ? { to: v.to.trim() } : {}), ...(v.subscriberId.trim() ? { subscriberId: v.subscriberId.trim() } : {}),
      variables: v.variables, idempotencyKey: `dashboard-test-${Date.now()}`,
    }));
  });
  const routes = useRoutes();
  const canHistory = routes?.has('GET /events/{id}/triggers') ?? false;
  const [showHistory, setShowHistory] = useState(false);
  const canWorkflow = routes?.has('PUT /events/{id}/workflow') ?? false;
  const [showWorkflow, setShowWorkflow] = useState(false);
  const history = useAsync(async () => (showHistory && canHistory ? asList<Record<string, unknown>>(await api.get(`/events/${encodeURIComponent(event.id)}/triggers?limit=20`)) : []), [showHistory, canHistory, result]);
  return (
    <article className="card event" aria-labelledby={`ev-${event.id}`}>
      <header className="row-between">
        <h3 id={`ev-${event.id}`}>{event.name} <code>{event.slug}</code> {event['isActive'] === false && <Badge value="inactive" />}</h3>
        <div className="actions">
          {onEdit && <button type="button" className="secondary" onClick={onEdit}>Edit</button>}
          {canHistory && <button type="button" className="secondary" aria-expanded={showHistory} onClick={() => setShowHistory(!showHistory)}>Recent triggers</button>}
          {canWorkflow && <button type="button" className="secondary" aria-expanded={showWorkflow} onClick={() => setShowWorkflow(!showWorkflow)}>Workflow</button>}
          <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>Trigger a test</button>
        </div>
      </header>
      <p>Channels: {((event['channelPriority'] as string[]) ?? []).join(' → ') || '—'}{fb.length ? `; fallback: ${fb.join(' → ')}` : ''} · Template: {linked?.name ?? '—'}</p>
      {showHistory && (history.loading ? <Loading /> : history.error ? <ErrorBanner error={history.error} /> : (history.data?.length ?? 0) === 0 ? <p className="hint">Not triggered yet. Use “Trigger a test” or POST /events/trigger.</p> : (
        <div className="table-wrap"><table>
          <caption className="sr-only">Recent triggers of {event.slug}</caption>
          <thead><tr><th scope="col">Time</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Channel</th></tr></thead>
          <tbody>{history.data!.map((t, i) => <tr key={String(t['id'] ?? i)}><td><Time value={t['createdAt']} /></td><td>{str(t['to'] ?? t['contactId'])}</td><td><Badge value={t['status']} /></td><td>{str(t['channel'])}</td></tr>)}</tbody>
        </table></div>
      ))}
      {showWorkflow && <WorkflowPanel eventId={event.id} templates={templates} />}
      {open && (
        <form onSubmit={onTrigger} noValidate aria-label={`Trigger ${event.slug}`}>
          <ErrorBanner error={form.error} shownFields={['to', 'subscriberId', 'variables']} />
          <Field label="Send the test to" name="to" error={form.error} hint={inApp ? 'A phone number, email address or device token (optional for IN_APP: give a subscriber id)' : 'A phone number, email address or device token'}>{(p) => <input {...p} value={form.values.to} onChange={(e) => form.set('to', e.target.value)} />}</Field>
          {inApp && <Field label="Subscriber id (IN_APP)" name="subscriberId" error={form.error} hint="Your id of the person whose in-app bell receives it, e.g. user-8841">{(p) => <input {...p} value={form.values.subscriberId} onChange={(e) => form.set('subscriberId', e.target.value)} />}</Field>}
          {vars.map((n) => <Field key={n} label={n} name={`variables.${n}`} error={form.error}>{(p) => <input {...p} value={form.values.variables[n] ?? ''} onChange={(e) => form.set('variables', { ...form.values.variables, [n]: e.target.value })} />}</Field>)}
          <button type="submit" disabled={form.submitting}>{form.submitting ? 'Triggering…' : 'Trigger now'}</button>
          {result && (() => {
            const logs = asList<Record<string, unknown>>(result['deliveryLogs']);
            const first = logs[0];
            return (
              <Notice kind="success">
                Triggered{result['workflowRun'] ? ' (workflow run, steps run in the worker)' : ''}: <Badge value={result['status'] ?? 'accepted'} />{result['channel'] ? ` on ${str(result['channel'])}` : ''}
                {Array.isArray(result['plan']) ? ` (plan: ${(result['plan'] as string[]).join(' → ')})` : ''}.{' '}
                {first?.['id'] ? <Link to={`/app/logs/${encodeURIComponent(String(first['id']))}`}>See the message</Link> : 'It appears in the delivery logs.'}
              </Notice>
            );
          })()}
        </form>
      )}
    </article>
  );
}
