import { useState, type ReactNode } from 'react';
import { api, asList } from '../api.ts';
import { Badge, ErrorBanner, Loading, Notice, Time, str, toApiError, useAsync } from '../ui.tsx';
import type { ApiError } from '../api.ts';

/** One step as edited: the fields of every type (docs/workflows.md), only those of `type` are sent. */
interface Draft {
  type: 'send' | 'delay' | 'digest' | 'throttle' | 'branch' | 'wait';
  channels: string; templateId: string; seconds: string; windowSeconds: string; itemVariable: string; lookBack: boolean;
  limit: string; path: string; op: string; value: string; elseEnd: boolean; waitFor: string; event: string; timeoutSeconds: string;
}
const TYPES = ['send', 'delay', 'digest', 'throttle', 'branch', 'wait'] as const;
/** The waits besides a later trigger (docs/workflows.md): read, reply and click watch the latest send step's message. */
const WAIT_LABELS: Record<string, string> = {
  delivery: 'the delivery report', read: 'a read in the in-app inbox', reply: 'a reply from the recipient', click: 'a click on a tracked link',
};
const OPS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'exists', 'contains'];
const blank = (type: Draft['type'] = 'send'): Draft => ({
  type, channels: '', templateId: '', seconds: '3600', windowSeconds: '3600', itemVariable: '', lookBack: true, limit: '1', path: 'payload.', op: 'eq', value: '',
  elseEnd: true, waitFor: 'trigger', event: '', timeoutSeconds: '86400',
});

function fromStep(s: Record<string, any>): Draft {
  const d = blank(s['type']);
  if (s['type'] === 'send') Object.assign(d, { channels: (s['channels'] ?? []).join(', '), templateId: s['templateId'] ?? '' });
  if (s['type'] === 'delay') d.seconds = String(s['seconds'] ?? '');
  if (s['type'] === 'digest') Object.assign(d, { windowSeconds: String(s['windowSeconds']), itemVariable: s['itemVariable'] ?? '', lookBack: !!s['lookBack'] });
  if (s['type'] === 'throttle') Object.assign(d, { limit: String(s['limit']), windowSeconds: String(s['windowSeconds']) });
  if (s['type'] === 'branch') Object.assign(d, { path: s['if']?.path ?? '', op: s['if']?.op ?? 'eq', value: String(s['if']?.value ?? ''), elseEnd: s['else'] === 'end' });
  if (s['type'] === 'wait') Object.assign(d, { waitFor: s['for'], event: s['event'] ?? '', timeoutSeconds: String(s['timeoutSeconds']) });
  return d;
}

function toStep(d: Draft): Record<string, unknown> {
  switch (d.type) {
    case 'send': {
      const channels = d.channels.split(',').map((c) => c.trim().toUpperCase()).filter(Boolean);
      return { type: 'send', ...(channels.length ? { channels } : {}), ...(d.templateId ? { templateId: d.templateId } : {}) };
    }
    case 'delay': return { type: 'delay', seconds: Number(d.seconds) };
    case 'digest': return { type: 'digest', windowSeconds: Number(d.windowSeconds), lookBack: d.lookBack, ...(d.itemVariable ? { itemVariable: d.itemVariable } : {}) };
    case 'throttle': return { type: 'throttle', limit: Number(d.limit), windowSeconds: Number(d.windowSeconds) };
    case 'branch': return { type: 'branch', if: { path: d.path, op: d.op, ...(d.op === 'exists' ? {} : { value: d.value }) }, then: 'next', else: d.elseEnd ? 'end' : 'next' };
    case 'wait': return { type: 'wait', for: d.waitFor, ...(d.waitFor === 'trigger' ? { event: d.event } : {}), timeoutSeconds: Number(d.timeoutSeconds), onEvent: 'end', onTimeout: 'next' };
  }
}

/** What the step list will do, in words: the preview shown before saving. */
function describeStep(d: Draft, templates: Array<{ id: string; name: string }>): string {
  const template = templates.find((t) => t.id === d.templateId)?.name ?? 'the event\'s template';
  switch (d.type) {
    case 'send': return `Send ${template} on ${d.channels.trim() || 'the event\'s channels'}`;
    case 'delay': return `Wait ${d.seconds} s`;
    case 'digest': return `Collect triggers for ${d.windowSeconds} s into one message${d.lookBack ? ' (the first goes at once)' : ''}`;
    case 'throttle': return `At most ${d.limit} per recipient every ${d.windowSeconds} s; the rest stop here`;
    case 'branch': return `Go on only if ${d.path} ${d.op} ${d.op === 'exists' ? '' : `"${d.value}"`}`.trim() + (d.elseEnd ? '; otherwise stop' : '; otherwise go on too');
    case 'wait': return d.waitFor === 'trigger' ? `Wait up to ${d.timeoutSeconds} s for ${d.event || '?'}: if it comes, stop; otherwise go on`
      : `Wait up to ${d.timeoutSeconds} s for ${WAIT_LABELS[d.waitFor] ?? d.waitFor}: if it comes, stop; otherwise go on`;
  }
}

/** Checks made before sending (the server checks everything again). */
function problems(steps: Draft[]): string[] {
  const out: string[] = [];
  if (steps.length === 0) out.push('Add at least one step.');
  if (steps.length > 20) out.push('At most 20 steps.');
  steps.forEach((d, i) => {
    const n = (v: string) => Number.isInteger(Number(v)) && Number(v) > 0;
    if (d.type === 'delay' && !n(d.seconds)) out.push(`Step ${i + 1}: the delay needs a whole number of seconds.`);
    if ((d.type === 'digest' || d.type === 'throttle') && !n(d.windowSeconds)) out.push(`Step ${i + 1}: the window needs a whole number of seconds.`);
    if (d.type === 'branch' && !/^(payload|contact|steps)\.\S+/.test(d.path)) out.push(`Step ${i + 1}: the condition path starts with payload., contact. or steps.`);
    if (d.type === 'wait' && d.waitFor === 'trigger' && !d.event) out.push(`Step ${i + 1}: name the event to wait for.`);
    if (d.type === 'wait' && ['read', 'reply', 'click'].includes(d.waitFor) && !steps.slice(0, i).some((s) => s.type === 'send')) out.push(`Step ${i + 1}: a wait for a ${d.waitFor} needs a send step before it.`);
  });
  return out;
}

export function WorkflowPanel({ eventId, templates }: { eventId: string; templates: Array<{ id: string; name: string }> }): ReactNode {
  const workflow = useAsync(async () => {
    const w = await api.get<Record<string, any>>(`/events/${encodeURIComponent(eventId)}/workflow`);
    setSteps((w['steps'] as Array<Record<string, any>>).map(fromStep));
    return w;
  }, [eventId]);
  const [steps, setSteps] = useState<Draft[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [run, setRun] = useState<string | null>(null);
  const runs = useAsync(async () => asList<Record<string, unknown>>(await api.get(`/events/${encodeURIComponent(eventId)}/workflow/runs?limit=10`)), [eventId, saved]);
  const local = problems(steps);
  const change = (i: number, patch: Partial<Draft>) => setSteps(steps.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  const move = (i: number, d: number) => { const next = [...steps]; const [x] = next.splice(i, 1); next.splice(i + d, 0, x!); setSteps(next); };
  const save = async () => {
    setError(null);
    try {
      const v = await api.put<Record<string, unknown>>(`/events/${encodeURIComponent(eventId)}/workflow`, { steps: steps.map(toStep) });
      setSaved(`Saved as version ${str(v['version'])}. New triggers run it; running instances keep their version.`);
      await workflow.reload();
    } catch (e) { setError(toApiError(e)); }
  };
  if (workflow.loading && !workflow.data) return <Loading />;
  return (
    <section aria-label="Workflow" className="workflow">
      <h4>Workflow {workflow.data?.['implicit'] ? '(one step: the event itself)' : `version ${str(workflow.data?.['version'])}`}</h4>
      <ErrorBanner error={workflow.error ?? error} />
      {saved && <Notice kind="success">{saved}</Notice>}
      <ol className="steps">
        {steps.map((d, i) => (
          <li key={i} aria-label={`Step ${i + 1}`}>
            <label>Step {i + 1} type <select value={d.type} onChange={(e) => change(i, { ...blank(e.target.value as Draft['type']) })}>{TYPES.map((t) => <option key={t}>{t}</option>)}</select></label>
            {d.type === 'send' && <>
              <label>Channels <input value={d.channels} placeholder="event's channels" onChange={(e) => change(i, { channels: e.target.value })} /></label>
              <label>Template <select value={d.templateId} onChange={(e) => change(i, { templateId: e.target.value })}><option value="">Event's template</option>{templates.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}</select></label>
            </>}
            {d.type === 'delay' && <label>Seconds <input value={d.seconds} inputMode="numeric" onChange={(e) => change(i, { seconds: e.target.value })} /></label>}
            {(d.type === 'digest' || d.type === 'throttle') && <label>Window (s) <input value={d.windowSeconds} inputMode="numeric" onChange={(e) => change(i, { windowSeconds: e.target.value })} /></label>}
            {d.type === 'digest' && <>
              <label>Item variable <input value={d.itemVariable} onChange={(e) => change(i, { itemVariable: e.target.value })} /></label>
              <label className="inline"><input type="checkbox" checked={d.lookBack} onChange={(e) => change(i, { lookBack: e.target.checked })} /> First goes at once</label>
            </>}
            {d.type === 'throttle' && <label>Limit <input value={d.limit} inputMode="numeric" onChange={(e) => change(i, { limit: e.target.value })} /></label>}
            {d.type === 'branch' && <>
              <label>Path <input value={d.path} onChange={(e) => change(i, { path: e.target.value })} /></label>
              <label>Operator <select value={d.op} onChange={(e) => change(i, { op: e.target.value })}>{OPS.map((o) => <option key={o}>{o}</option>)}</select></label>
              <label>Value <input value={d.value} onChange={(e) => change(i, { value: e.target.value })} /></label>
            </>}
            {d.type === 'wait' && <>
              <label>Wait for <select value={d.waitFor} onChange={(e) => change(i, { waitFor: e.target.value })}><option value="trigger">a later trigger</option>{Object.entries(WAIT_LABELS).map(([value, label]) => <option key={value} value={value}>{label}</option>)}</select></label>
              {d.waitFor === 'trigger' && <label>Event slug <input value={d.event} onChange={(e) => change(i, { event: e.target.value })} /></label>}
              <label>Timeout (s) <input value={d.timeoutSeconds} inputMode="numeric" onChange={(e) => change(i, { timeoutSeconds: e.target.value })} /></label>
            </>}
            <button type="button" className="icon" onClick={() => move(i, -1)} disabled={i === 0} aria-label={`Move step ${i + 1} up`}>↑</button>
            <button type="button" className="icon" onClick={() => move(i, 1)} disabled={i === steps.length - 1} aria-label={`Move step ${i + 1} down`}>↓</button>
            <button type="button" className="icon" onClick={() => setSteps(steps.filter((_, j) => j !== i))} aria-label={`Remove step ${i + 1}`}>✕</button>
          </li>
        ))}
      </ol>
      <p><button type="button" className="secondary small" onClick={() => setSteps([...steps, blank('delay')])}>+ Add step</button></p>
      <div aria-label="Preview" className="preview">
        <strong>Preview</strong>
        <ol>{steps.map((d, i) => <li key={i}>{describeStep(d, templates)}</li>)}</ol>
      </div>
      {local.length > 0 && <ul className="field-error" aria-label="Problems">{local.map((p) => <li key={p}>{p}</li>)}</ul>}
      <button type="button" onClick={() => void save()} disabled={local.length > 0}>Save workflow</button>
      <h4>Recent runs</h4>
      {(runs.data?.length ?? 0) === 0 ? <p className="hint">No runs yet.</p> : (
        <div className="table-wrap"><table>
          <caption className="sr-only">Recent workflow runs</caption>
          <thead><tr><th scope="col">Started</th><th scope="col">Version</th><th scope="col">Status</th><th scope="col">Timeline</th></tr></thead>
          <tbody>{runs.data!.map((r) => (
            <tr key={String(r['id'])}><td><Time value={r['createdAt']} /></td><td>{str(r['version'])}</td><td><Badge value={r['status']} /></td>
              <td><button type="button" className="secondary small" onClick={() => setRun(String(r['id']))}>Show timeline</button></td></tr>
          ))}</tbody>
        </table></div>
      )}
      {run && <RunTimeline runId={run} />}
    </section>
  );
}

/** A run's timeline (GET /workflow-runs/{id}): each step's status, outcome, wait, message and cost. */
export function RunTimeline({ runId }: { runId: string }): ReactNode {
  const run = useAsync(async () => api.get<Record<string, any>>(`/workflow-runs/${encodeURIComponent(runId)}`), [runId]);
  if (run.loading && !run.data) return <Loading />;
  if (run.error) return <ErrorBanner error={run.error} />;
  const r = run.data!;
  return (
    <div className="card" aria-label="Run timeline">
      <p>Run <code>{runId}</code>: <Badge value={r['status']} /> · version {str(r['version'])} · cost {str(r['cost'])} pesewas
        {r['error'] ? ` · ${str(r['error'].code)}: ${str(r['error'].message)}` : ''}
        {' '}<button type="button" className="secondary small" onClick={() => void run.reload()}>Refresh</button></p>
      <div className="table-wrap"><table>
        <caption className="sr-only">Steps of the run</caption>
        <thead><tr><th scope="col">Step</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Outcome</th><th scope="col">Resumes</th><th scope="col">Message</th></tr></thead>
        <tbody>{(r['timeline'] as Array<Record<string, any>>).map((s) => (
          <tr key={s['index']}><td>{s['index'] + 1}</td><td>{s['type']}</td><td><Badge value={s['status']} /></td><td>{str(s['outcome'])}</td>
            <td>{s['resumeAt'] ? <Time value={s['resumeAt']} /> : '—'}</td>
            <td>{s['message'] ? `${s['message'].channel} ${s['message'].status} (${s['message'].cost} pesewas)` : '—'}</td></tr>
        ))}</tbody>
      </table></div>
    </div>
  );
}
