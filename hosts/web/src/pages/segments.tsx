import { useEffect, useState, type ReactNode } from 'react';
import { api, asList, type ApiError } from '../api.ts';
import { describeRules, toRules, type Condition } from '../format.ts';
import { Empty, ErrorBanner, Field, Loading, Notice, Page, Requires, Time, str, toApiError, useAsync, useForm } from '../ui.tsx';

type Segment = Record<string, unknown> & { id: string; name: string };

const FIELDS: Record<string, { label: string; ops: string[]; values?: string[]; type?: string }> = {
  firstName: { label: 'First name', ops: ['equals', 'contains', 'startsWith'] },
  lastName: { label: 'Last name', ops: ['equals', 'contains', 'startsWith'] },
  phone: { label: 'Phone', ops: ['equals', 'startsWith', 'contains'] },
  email: { label: 'Email', ops: ['equals', 'contains', 'startsWith'] },
  countryCode: { label: 'Country', ops: ['equals'] },
  tags: { label: 'Tag', ops: ['contains', 'notContains'] },
  createdAt: { label: 'Added', ops: ['after', 'before'], type: 'date' },
  address: { label: 'Has address', ops: ['exists'], values: ['phone', 'email', 'fcmToken'] },
  optedOut: { label: 'Opted out', ops: ['equals'], values: ['false', 'true'] },
};

export function RuleBuilder({ match, conditions, onChange }: { match: 'all' | 'any'; conditions: Condition[]; onChange: (m: 'all' | 'any', c: Condition[]) => void }): ReactNode {
  const update = (i: number, patch: Partial<Condition>): void => onChange(match, conditions.map((c, n) => {
    if (n !== i) return c;
    const next = { ...c, ...patch };
    if (patch.field) { const def = FIELDS[patch.field]!; next.op = def.ops[0]!; next.value = def.values?.[0] ?? ''; }
    return next;
  }));
  return (
    <fieldset className="rules">
      <legend>Contacts matching
        <select aria-label="Match" value={match} onChange={(e) => onChange(e.target.value as 'all' | 'any', conditions)}>
          <option value="all">all</option><option value="any">any</option>
        </select> of these conditions</legend>
      {conditions.map((c, i) => {
        const def = FIELDS[c.field]!;
        return (
          <div className="rule" key={i}>
            <select aria-label={`Condition ${i + 1} field`} value={c.field} onChange={(e) => update(i, { field: e.target.value })}>{Object.entries(FIELDS).map(([k, f]) => <option key={k} value={k}>{f.label}</option>)}</select>
            <select aria-label={`Condition ${i + 1} operator`} value={c.op} onChange={(e) => update(i, { op: e.target.value })}>{def.ops.map((o) => <option key={o}>{o}</option>)}</select>
            {def.values
              ? <select aria-label={`Condition ${i + 1} value`} value={c.value} onChange={(e) => update(i, { value: e.target.value })}>{def.values.map((o) => <option key={o}>{o}</option>)}</select>
              : <input aria-label={`Condition ${i + 1} value`} type={def.type ?? 'text'} value={c.value} onChange={(e) => update(i, { value: e.target.value })} placeholder={def.type ? '' : 'value (commas: any of)'} />}
            <button type="button" className="icon" aria-label={`Remove condition ${i + 1}`} onClick={() => onChange(match, conditions.filter((_, n) => n !== i))}>✕</button>
          </div>
        );
      })}
      <button type="button" className="secondary small" onClick={() => onChange(match, [...conditions, { field: 'tags', op: 'contains', value: '' }])}>+ Add a condition</button>
    </fieldset>
  );
}

export function SegmentsPage(): ReactNode {
  return <Page title="Segments"><Requires needs={['GET /segments', 'POST /segments', 'POST /segments/preview']} feature="Segments"><Segments /></Requires></Page>;
}

function Segments(): ReactNode {
  const segments = useAsync(async () => asList<Segment>(await api.get('/segments')));
  const form = useForm({ name: '', description: '', isDynamic: true, match: 'all' as 'all' | 'any', conditions: [{ field: 'tags', op: 'contains', value: '' }] as Condition[] });
  const [preview, setPreview] = useState<Record<string, unknown> | null>(null);
  const [previewError, setPreviewError] = useState<ApiError | null>(null);
  const [counting, setCounting] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const rules = toRules(form.values.match, form.values.conditions);
  const rulesKey = JSON.stringify(rules);

  useEffect(() => {
    const timer = setTimeout(() => {
      setCounting(true);
      api.post<Record<string, unknown>>('/segments/preview', { rules }).then((p) => { setPreview(p); setPreviewError(null); }, (e) => setPreviewError(toApiError(e))).finally(() => setCounting(false));
    }, 350);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rulesKey]);

  const onSubmit = form.submit(async (v) => {
    const body: Record<string, unknown> = { name: v.name, rules, isDynamic: v.isDynamic };
    if (v.description.trim()) body['description'] = v.description;
    await api.post('/segments', body);
    setCreated(v.name);
    form.reset();
    await segments.reload();
  });
  const count = preview ? (preview['count'] ?? preview['total'] ?? preview['matching'] ?? preview['contactCount']) : null;
  const sample = asList<Record<string, unknown>>(preview?.['sample'] ?? preview?.['samples'] ?? preview?.['items'] ?? preview?.['contacts']);
  return (
    <>
      {created && <Notice kind="success">Segment “{created}” saved. Use it in a campaign.</Notice>}
      <div className="split">
        <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="sg-h">
          <h2 id="sg-h">New segment</h2>
          <ErrorBanner error={form.error} shownFields={['name', 'description', 'rules']} />
          <Field label="Name" name="name" error={form.error}>{(p) => <input {...p} value={form.values.name} onChange={(e) => form.set('name', e.target.value)} />}</Field>
          <Field label="Description" name="description" error={form.error}>{(p) => <input {...p} value={form.values.description} onChange={(e) => form.set('description', e.target.value)} />}</Field>
          <RuleBuilder match={form.values.match} conditions={form.values.conditions} onChange={(m, c) => form.setValues({ ...form.values, match: m, conditions: c })} />
          {form.error?.fieldErrors['rules'] && <p className="field-error" data-field-error="rules">{form.error.fieldErrors['rules']!.join('. ')}</p>}
          <label className="inline"><input type="checkbox" checked={form.values.isDynamic} onChange={(e) => form.set('isDynamic', e.target.checked)} /> Dynamic (re-evaluated at each send)</label>
          <button type="submit" disabled={form.submitting}>Save segment</button>
        </form>
        <aside className="card" aria-labelledby="sg-prev-h" aria-live="polite">
          <h2 id="sg-prev-h">Matching contacts</h2>
          {previewError && <ErrorBanner error={previewError} />}
          <p className="big-number" data-testid="segment-count">{counting && count === null ? '…' : str(count, '0')}</p>
          {sample.length > 0 ? <ul className="sample">{sample.slice(0, 10).map((c, i) => <li key={i}>{str(c['firstName'], '')} {str(c['lastName'], '')} {str(c['phone'] ?? c['email'], '')}</li>)}</ul> : <p className="hint">No matching contact to show.</p>}
        </aside>
      </div>
      <h2>Segments</h2>
      <ErrorBanner error={segments.error} />
      {segments.loading && !segments.data && <Loading />}
      {segments.data?.length === 0 && <Empty title="No segments yet">Build one above from contact fields and tags; campaigns send to segments.</Empty>}
      {segments.data && segments.data.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Name</th><th scope="col">Contacts</th><th scope="col">Rules</th><th scope="col">Created</th></tr></thead>
          <tbody>{segments.data.map((s) => <tr key={s.id}><td>{s.name}</td><td>{str(s['contactCount'] ?? s['count'])}</td><td data-testid="segment-rules"><span className="clip" title={JSON.stringify(s['rules'])}>{describeRules(s['rules'])}</span></td><td><Time value={s['createdAt']} /></td></tr>)}</tbody>
        </table></div>
      )}
    </>
  );
}
