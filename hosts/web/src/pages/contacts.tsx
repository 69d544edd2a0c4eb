import { useEffect, useRef, useState, type ReactNode } from 'react';
import { api, asList, qs, uploadWithProgress, type ApiError } from '../api.ts';
import { Link } from '../router.tsx';
import { TimeZoneOptions } from './contact-detail.tsx';
import { Badge, Empty, ErrorBanner, Field, Loading, Notice, Page, Progress, Requires, Time, str, toApiError, useAsync, useForm, useRoutes } from '../ui.tsx';

type Contact = Record<string, unknown> & { id: string };

export function ContactsPage(): ReactNode {
  return <Page title="Contacts"><Requires needs={['GET /contacts', 'POST /contacts']} feature="Contacts"><Contacts /></Requires></Page>;
}

function Contacts(): ReactNode {
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const contacts = useAsync(async () => asList<Contact>(await api.get(`/contacts${qs({ search: applied })}`)), [applied]);
  useEffect(() => { const t = setTimeout(() => setApplied(search.trim()), 300); return () => clearTimeout(t); }, [search]);
  const form = useForm({ firstName: '', lastName: '', phone: '', email: '', countryCode: 'GH', tags: '', timeZone: '' });
  const [added, setAdded] = useState<string | null>(null);
  const onSubmit = form.submit(async (v) => {
    setAdded(null); // a notice is about the last submission only: never next to a new attempt's error
    const body: Record<string, unknown> = {};
    for (const k of ['firstName', 'lastName', 'phone', 'email', 'countryCode', 'timeZone'] as const) if (v[k].trim()) body[k] = v[k].trim();
    const tags = v.tags.split(',').map((t) => t.trim()).filter(Boolean);
    if (tags.length) body['tags'] = tags;
    await api.post('/contacts', body);
    setAdded(`${v.firstName || v.phone || v.email} was added.`);
    form.reset();
    await contacts.reload();
  });
  const text = (name: 'firstName' | 'lastName' | 'phone' | 'email' | 'countryCode' | 'tags' | 'timeZone', label: string, type = 'text', hint?: string, list?: string) => (
    <Field label={label} name={name} error={form.error} {...(hint ? { hint } : {})}>{(p) => <input {...p} type={type} {...(list ? { list } : {})} value={form.values[name]} onChange={(e) => form.set(name, e.target.value)} />}</Field>
  );
  return (
    <>
      <div className="split">
        <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="ct-h">
          <h2 id="ct-h">Add a contact</h2>
          <ErrorBanner error={form.error} shownFields={['firstName', 'lastName', 'phone', 'email', 'countryCode', 'tags', 'timeZone']} />
          <div className="row">{text('firstName', 'First name')}{text('lastName', 'Last name')}</div>
          <div className="row">{text('phone', 'Phone', 'tel')}{text('email', 'Email', 'email')}</div>
          <div className="row">{text('countryCode', 'Country')}{text('tags', 'Tags', 'text', 'Comma separated, e.g. vip, accra')}</div>
          <div className="row">{text('timeZone', 'Time zone', 'text', 'Optional IANA name, e.g. Africa/Lagos: send windows and quiet hours use it (default: the country\'s)', 'ct-new-tz')}</div>
          <TimeZoneOptions id="ct-new-tz" />
          <button type="submit" disabled={form.submitting}>Add contact</button>
          {added && <Notice kind="success">{added}</Notice>}
        </form>
        <CsvImport onDone={() => void contacts.reload()} />
      </div>
      <h2>Contacts</h2>
      <label className="search">Search <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Name, phone or email" /></label>
      <ErrorBanner error={contacts.error} />
      {contacts.loading && !contacts.data && <Loading />}
      {contacts.data?.length === 0 && <Empty title={applied ? `No contact matches “${applied}”` : 'No contacts yet'}>{applied ? 'Try another search.' : 'Add one above or import a CSV file with a header row (firstName, lastName, phone, email, tags).'}</Empty>}
      {contacts.data && contacts.data.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Name</th><th scope="col">Phone</th><th scope="col">Email</th><th scope="col">Tags</th><th scope="col">Status</th><th scope="col">Added</th><th scope="col"><span className="sr-only">Preferences</span></th></tr></thead>
          <tbody>{contacts.data.map((c) => (
            <tr key={c.id}>
              <td>{str(c['firstName'], '')} {str(c['lastName'], '')}</td><td>{str(c['phone'])}</td><td>{str(c['email'])}</td>
              <td>{Array.isArray(c['tags']) ? (c['tags'] as string[]).map((t) => <span key={t} className="chip">{t}</span>) : '—'}</td>
              <td>{c['optedOut'] || c['optedOutAt'] ? <Badge value="opted out" /> : <Badge value={c['status'] ?? 'active'} />}</td>
              <td><Time value={c['createdAt']} /></td>
              <td><Link to={`/app/contacts/${encodeURIComponent(c.id)}`} aria-label={`Preferences of ${`${str(c['firstName'], '')} ${str(c['lastName'], '')}`.trim() || str(c['phone'] ?? c['email'])}`}>Preferences</Link></td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
    </>
  );
}

type Job = Record<string, unknown>;
const num = (j: Job, ...keys: string[]): number | null => { for (const k of keys) if (typeof j[k] === 'number') return j[k] as number; return null; };

/** Upload (with a progress bar), then follow the import job until it finishes, then the per-row error report. */
function CsvImport({ onDone }: { onDone: () => void }): ReactNode {
  const routes = useRoutes();
  const fileRef = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<{ loaded: number; total: number } | null>(null);
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const pollPath = routes ? ['/contacts/imports/{id}', '/contacts/import/{id}', '/contacts/import-jobs/{id}'].find((p) => routes.has(`GET ${p}`)) : undefined;

  useEffect(() => {
    if (!job || !pollPath || isFinished(job)) return;
    const id = str(job['id'] ?? job['jobId'], '');
    if (!id) return;
    const timer = setTimeout(() => {
      api.get<Job>(pollPath.replace('{id}', encodeURIComponent(id))).then((next) => { setJob(next); if (isFinished(next)) onDone(); }, (e) => setError(toApiError(e)));
    }, 700);
    return () => clearTimeout(timer);
  }, [job, pollPath, onDone]);

  const start = async (): Promise<void> => {
    const file = fileRef.current?.files?.[0];
    setError(null); setJob(null);
    if (!file) { setError(toApiError(new Error('Choose a CSV file first.'))); return; }
    const form = new FormData();
    form.append('file', file, file.name);
    setUpload({ loaded: 0, total: file.size });
    try {
      const result = await uploadWithProgress<Job>('/contacts/import', form, (loaded, total) => setUpload({ loaded, total }));
      setJob(result);
      if (isFinished(result) || !pollPath) onDone();
    } catch (e) { setError(toApiError(e)); } finally { setUpload(null); }
  };

  const progress = (job?.['progress'] && typeof job['progress'] === 'object' ? job['progress'] : job ?? {}) as Job;
  const total = job ? num(progress, 'totalRows', 'total', 'rows') : null;
  const processed = job ? num(progress, 'rowsDone', 'processedRows', 'processed') ?? 0 : 0;
  const rowErrors = job ? asList<Record<string, unknown>>(job['errors'] ?? job['rowErrors'] ?? job['errorReport']) : [];
  return (
    <section className="card" aria-labelledby="imp-h">
      <h2 id="imp-h">Import a CSV</h2>
      <p className="hint">A header row, then one contact per line. Columns: firstName, lastName, phone, email, countryCode, tags.</p>
      <label className="stacked">CSV file <input ref={fileRef} type="file" accept=".csv,text/csv" /></label>
      <button type="button" onClick={() => void start()} disabled={Boolean(upload) || (job !== null && !isFinished(job) && Boolean(pollPath))}>Import</button>
      <ErrorBanner error={error} />
      {upload && <Progress label="Uploading" value={upload.loaded} max={upload.total} />}
      {job && (
        <div aria-live="polite" data-testid="import-status">
          {total !== null && <Progress label={isFinished(job) ? 'Rows processed' : 'Importing'} value={Math.min(processed, total)} max={total} />}
          <p>Import <Badge value={job['status'] ?? 'accepted'} />{' '}
            {num(job, 'created', 'imported') !== null && <>{num(job, 'created', 'imported')} created, </>}
            {num(job, 'updated') !== null && <>{num(job, 'updated')} updated, </>}
            {num(job, 'skipped') !== null && <>{num(job, 'skipped')} skipped, </>}
            {num(job, 'errorCount', 'failed') !== null && <>{num(job, 'errorCount', 'failed')} rows with errors</>}
            {typeof job['failureReason'] === 'string' && <> — {job['failureReason']}</>}
          </p>
          {rowErrors.length > 0 && (
            <div className="table-wrap"><table>
              <caption>Rows that were not imported</caption>
              <thead><tr><th scope="col">Line</th><th scope="col">Problem</th></tr></thead>
              <tbody>{rowErrors.slice(0, 200).map((r, i) => <tr key={i}><td>{str(r['line'] ?? r['row'] ?? r['rowNumber'])}</td><td>{str(r['reason'] ?? r['message'] ?? r['error'] ?? r['errors'])}</td></tr>)}</tbody>
            </table></div>
          )}
        </div>
      )}
    </section>
  );
}

function isFinished(job: Job): boolean {
  const s = String(job['status'] ?? '').toUpperCase();
  return ['COMPLETED', 'COMPLETE', 'DONE', 'FAILED', 'FINISHED', 'SUCCEEDED', 'COMPLETED_WITH_ERRORS'].includes(s) || job['finishedAt'] != null || job['completedAt'] != null;
}
