import { useEffect, useState, type ReactNode } from 'react';
import { api, ApiError } from '../api.ts';
import { useSession } from '../session.tsx';
import { CATEGORIES, ErrorBanner, Loading, Notice, Page, Requires, toApiError, useAsync } from '../ui.tsx';

interface SendWindow { country: string; category: string; days: number[]; opensAt: string; closesAt: string }
/** A row being edited: `key` keeps React's identity while rows are added and removed. */
interface Row extends SendWindow { key: number }
type RowErrors = Partial<Record<'row' | 'country' | 'category' | 'days' | 'opensAt' | 'closesAt', string>>;

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Categories a window may hold: every one but TRANSACTIONAL and OTP (docs/consent.md). */
const WINDOW_CATEGORIES = CATEGORIES.filter((c) => c !== 'TRANSACTIONAL' && c !== 'OTP');
const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const MAX_WINDOWS = 500;
let nextKey = 1;

/** The server's rules, checked first so each mistake shows next to its field (the API reports most of them only as `windows`). */
export function validateWindows(rows: readonly SendWindow[]): RowErrors[] {
  const seen = new Map<string, number>();
  return rows.map((w, i) => {
    const e: RowErrors = {};
    if (!/^[A-Za-z]{2}$/.test(w.country.trim())) e.country = 'must be a two-letter ISO country code, e.g. GH';
    if (!WINDOW_CATEGORIES.includes(w.category as (typeof WINDOW_CATEGORIES)[number])) e.category = 'must be a category people can opt out of';
    if (!CLOCK.test(w.opensAt)) e.opensAt = 'must be a time HH:MM';
    if (!CLOCK.test(w.closesAt)) e.closesAt = 'must be a time HH:MM';
    else if (CLOCK.test(w.opensAt) && w.closesAt <= w.opensAt) e.closesAt = 'must be after the opening time (a window within one day)';
    const k = `${w.country.trim().toUpperCase()}/${w.category}`;
    if (seen.has(k)) e.row = `${k} is given twice (row ${seen.get(k)! + 1} too)`;
    else seen.set(k, i);
    return e;
  });
}

/** The API's field errors named `windows[3].closesAt` / `windows[3]` as per-row errors; the others stay for the banner. */
function rowErrorsOf(error: ApiError, count: number): { rows: RowErrors[]; rest: ApiError } {
  const rows: RowErrors[] = Array.from({ length: count }, () => ({}));
  const rest: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(error.fieldErrors)) {
    const m = /^windows\[(\d+)\](?:\.(\w+))?$/.exec(field);
    const row = m ? rows[Number(m[1])] : undefined;
    if (row && messages?.length) row[(m![2] ?? 'row') as keyof RowErrors] = messages.join('. ');
    else if (messages) rest[field] = messages;
  }
  return { rows, rest: new ApiError(error.status, error.code, error.message, { ...error.details, fieldErrors: rest }) };
}

export function AdminSendWindowsPage(): ReactNode {
  const session = useSession();
  return (
    <Page title="Send windows">
      {!session.isAdmin ? <Notice kind="warning">Only platform administrators see this page.</Notice> : (
        <Requires needs={['GET /admin/send-windows', 'PUT /admin/send-windows']} feature="Send windows"><SendWindows /></Requires>
      )}
    </Page>
  );
}

function SendWindows(): ReactNode {
  const windows = useAsync(async () => (await api.get<{ windows: SendWindow[] }>('/admin/send-windows')).windows);
  const [rows, setRows] = useState<Row[] | null>(null);
  const [errors, setErrors] = useState<RowErrors[]>([]);
  const [error, setError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => { if (windows.data) setRows(windows.data.map((w) => ({ ...w, key: nextKey++ }))); }, [windows.data]);
  if (!rows) return windows.loading ? <Loading label="Loading the send windows" /> : <ErrorBanner error={windows.error} />;

  const update = (i: number, patch: Partial<SendWindow>): void => { setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r))); setSaved(null); };
  const save = async (): Promise<void> => {
    setError(null); setSaved(null);
    const local = validateWindows(rows);
    setErrors(local);
    if (local.some((e) => Object.keys(e).length > 0)) { setError(new ApiError(0, '', 'Some windows need fixing (see the marked fields).', {})); return; }
    setSaving(true);
    try {
      const body = { windows: rows.map(({ country, category, days, opensAt, closesAt }) => ({ country: country.trim().toUpperCase(), category, days, opensAt, closesAt })) };
      const result = await api.put<{ windows: SendWindow[] }>('/admin/send-windows', body);
      windows.setData(result.windows);
      setSaved(`Saved ${result.windows.length} window${result.windows.length === 1 ? '' : 's'}: every process applies them within 10 seconds.`);
    } catch (e) {
      const err = toApiError(e);
      const { rows: fromServer, rest } = rowErrorsOf(err, rows.length);
      setErrors(fromServer);
      setError(rest);
    } finally { setSaving(false); }
  };

  return (
    <>
      <p>Hours in which messages of a category may reach recipients of a country, in the recipient's local time (opens inclusive, closes exclusive).
        A message outside its window is accepted and charged, then held as SCHEDULED until the next opening. Transactional messages and codes are never held.</p>
      <ErrorBanner error={error} />
      {saved && <Notice kind="success">{saved}</Notice>}
      {rows.length === 0 && <p className="hint">No windows: messages go out at any hour (organizations' quiet hours still apply).</p>}
      {rows.length > 0 && (
        <div className="table-wrap"><table data-testid="send-windows">
          <caption className="sr-only">Send windows, one per country and category</caption>
          <thead><tr><th scope="col">Country</th><th scope="col">Category</th><th scope="col">Days</th><th scope="col">Opens at</th><th scope="col">Closes at</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>{rows.map((r, i) => <WindowRow key={r.key} row={r} index={i} errors={errors[i] ?? {}} onChange={(patch) => update(i, patch)}
            onRemove={() => { setRows(rows.filter((_, j) => j !== i)); setErrors(errors.filter((_, j) => j !== i)); setSaved(null); }} />)}</tbody>
        </table></div>
      )}
      <div className="actions">
        <button type="button" className="secondary" disabled={rows.length >= MAX_WINDOWS}
          onClick={() => { setRows([...rows, { key: nextKey++, country: '', category: 'MARKETING', days: [1, 2, 3, 4, 5, 6], opensAt: '08:00', closesAt: '19:00' }]); setSaved(null); }}>Add a window</button>
        <button type="button" disabled={saving} onClick={() => void save()}>{saving ? 'Saving…' : 'Save send windows'}</button>
      </div>
    </>
  );
}

function WindowRow({ row, index, errors, onChange, onRemove }: { row: Row; index: number; errors: RowErrors; onChange: (patch: Partial<SendWindow>) => void; onRemove: () => void }): ReactNode {
  const n = index + 1;
  const id = (field: string): string => `sw-${row.key}-${field}`;
  const invalid = (field: keyof RowErrors) => (errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': id(`${field}-err`) } : {});
  const message = (field: keyof RowErrors): ReactNode => (errors[field] ? <p id={id(`${field}-err`)} className="field-error" data-field-error={`windows[${index}].${field}`}>{errors[field]}</p> : null);
  return (
    <tr data-testid="send-window-row" className={Object.keys(errors).length ? 'invalid' : undefined}>
      <td>
        <input aria-label={`Window ${n} country`} value={row.country} maxLength={2} size={3} onChange={(e) => onChange({ country: e.target.value.toUpperCase() })} {...invalid('country')} />
        {message('country')}{message('row')}
      </td>
      <td>
        <select aria-label={`Window ${n} category`} value={row.category} onChange={(e) => onChange({ category: e.target.value })} {...invalid('category')}>
          {WINDOW_CATEGORIES.map((c) => <option key={c} value={c}>{c}</option>)}
        </select>
        {message('category')}
      </td>
      <td>
        <fieldset className="days" {...(errors.days ? { 'aria-describedby': id('days-err') } : {})}>
          <legend className="sr-only">Window {n} days</legend>
          {DAY_NAMES.map((d, day) => (
            <label key={d} className="inline" title={d}>
              <input type="checkbox" aria-label={`Window ${n} ${d}`} checked={row.days.includes(day)}
                onChange={(e) => onChange({ days: e.target.checked ? [...row.days, day].sort((a, b) => a - b) : row.days.filter((x) => x !== day) })} />
              <span aria-hidden="true">{d.slice(0, 2)}</span>
            </label>
          ))}
        </fieldset>
        {message('days')}
        {row.days.length === 0 && <small className="hint">No day: such messages go at once.</small>}
      </td>
      <td><input type="time" aria-label={`Window ${n} opens at`} value={row.opensAt} onChange={(e) => onChange({ opensAt: e.target.value })} {...invalid('opensAt')} />{message('opensAt')}</td>
      <td><input type="time" aria-label={`Window ${n} closes at`} value={row.closesAt} onChange={(e) => onChange({ closesAt: e.target.value })} {...invalid('closesAt')} />{message('closesAt')}</td>
      <td><button type="button" className="secondary small" onClick={onRemove} aria-label={`Remove window ${n}`}>Remove</button></td>
    </tr>
  );
}
