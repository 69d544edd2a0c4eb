import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, availableRoutes } from './api.ts';
import { useSession } from './session.tsx';
import { formatTime, str } from './format.ts';

export { fill, ghs, percent, placeholders, str } from './format.ts';

export function useFormatTime(): (iso: unknown) => string {
  const { timezone } = useSession();
  return useCallback((iso: unknown) => {
    return formatTime(iso, timezone);
  }, [timezone]);
}

export function Time({ value }: { value: unknown }): ReactNode {
  const fmt = useFormatTime();
  const { timezone } = useSession();
  return typeof value === 'string' ? <time dateTime={value} title={timezone}>{fmt(value)}</time> : <>—</>;
}

/** Loads data on mount and when `deps` change; `reload()` refetches. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[] = []): { data: T | null; error: ApiError | null; loading: boolean; reload: () => Promise<void>; setData: (d: T) => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const current = useRef(0);
  const reload = useCallback(async () => {
    const run = ++current.current;
    setLoading(true);
    try {
      const d = await load();
      if (run === current.current) { setData(d); setError(null); }
    } catch (e) {
      if (run === current.current) setError(toApiError(e));
    } finally {
      if (run === current.current) setLoading(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  useEffect(() => { void reload(); }, [reload]);
  return { data, error, loading, reload, setData };
}

export function toApiError(e: unknown): ApiError {
  return e instanceof ApiError ? e : new ApiError(0, 'CLIENT_ERROR', e instanceof Error ? e.message : String(e), {});
}

/** Form state: values, the last API error (its fieldErrors go next to the fields), a submitting flag. */
export function useForm<V extends Record<string, unknown>>(initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [error, setError] = useState<ApiError | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const set = <K extends keyof V>(key: K, value: V[K]): void => setValues((v) => ({ ...v, [key]: value }));
  const submit = (action: (values: V) => Promise<void>) => async (e?: FormEvent) => {
    e?.preventDefault();
    setSubmitting(true);
    setError(null);
    try { await action(values); } catch (err) { setError(toApiError(err)); } finally { setSubmitting(false); }
  };
  return { values, setValues, set, error, setError, submitting, submit, reset: () => setValues(initial) };
}

/** A labelled control with its API field errors announced next to it. */
export function Field({ label, name, error, hint, children }: { label: string; name: string; error?: ApiError | null; hint?: string; children: (props: { id: string; name: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }) => ReactNode }): ReactNode {
  const id = useId();
  const messages = error?.fieldErrors[name] ?? [];
  const describedBy = [hint ? `${id}-hint` : '', messages.length ? `${id}-err` : ''].filter(Boolean).join(' ');
  return (
    <div className={`field${messages.length ? ' invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, name, ...(messages.length ? { 'aria-invalid': true } : {}), ...(describedBy ? { 'aria-describedby': describedBy } : {}) })}
      {hint && <small id={`${id}-hint`} className="hint">{hint}</small>}
      {messages.length > 0 && <p id={`${id}-err`} className="field-error" data-field-error={name}>{messages.join('. ')}</p>}
    </div>
  );
}

/** The API's message and form-level errors; field errors not shown by a Field are listed too. */
export function ErrorBanner({ error, shownFields = [] }: { error: ApiError | null; shownFields?: string[] }): ReactNode {
  if (!error) return null;
  const other = Object.entries(error.fieldErrors).filter(([k]) => !shownFields.includes(k));
  // The API's VALIDATION_ERROR message repeats its first field error ("website: must be ..."): when every field
  // error is said under its field, the banner only points there instead of saying it a second time (issue 35).
  const saidBelow = error.code === 'VALIDATION_ERROR' && other.length === 0 && error.formErrors.length === 0 && Object.keys(error.fieldErrors).length > 0;
  return (
    <div className="banner error" role="alert">
      <strong>{saidBelow ? 'Some fields need your attention: see below.' : error.message}</strong> {error.code && error.status ? <code>{error.code}</code> : null}
      {error.code === 'INSUFFICIENT_BALANCE' && <> <a href="/app/billing" data-testid="top-up-link">Top up your wallet on the Billing page</a>.</>}
      {(error.formErrors.length > 0 || other.length > 0) && (
        <ul>
          {error.formErrors.map((m) => <li key={m}>{m}</li>)}
          {other.map(([k, v]) => <li key={k}><b>{k}</b>: {(v ?? []).join('. ')}</li>)}
        </ul>
      )}
    </div>
  );
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'success' | 'warning' | 'error'; children: ReactNode }): ReactNode {
  return <div className={`banner ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>{children}</div>;
}

export function Loading({ label = 'Loading' }: { label?: string }): ReactNode {
  return <p className="loading" role="status" aria-live="polite"><span className="spinner" aria-hidden="true" /> {label}…</p>;
}

export function Empty({ title, children }: { title: string; children?: ReactNode }): ReactNode {
  return <div className="empty"><p><strong>{title}</strong></p>{children}</div>;
}

export function Progress({ value, max, label }: { value: number; max: number; label: string }): ReactNode {
  const pct = max > 0 ? Math.round((value / max) * 100) : 0;
  return (
    <div className="progress">
      <label>{label}: {value} / {max} ({pct}%)<progress value={value} max={Math.max(max, 1)} aria-label={label} /></label>
    </div>
  );
}

export function Badge({ value }: { value: unknown }): ReactNode {
  const s = str(value);
  return <span className={`badge badge-${s.toLowerCase().replace(/[^a-z_]/g, '')}`}>{s}</span>;
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }): ReactNode {
  const [copied, setCopied] = useState(false);
  const copy = async (): Promise<void> => {
    try { await navigator.clipboard.writeText(text); } catch {
      const t = document.createElement('textarea'); t.value = text; document.body.append(t); t.select(); document.execCommand('copy'); t.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return <button type="button" className="secondary" onClick={() => void copy()}>{copied ? 'Copied' : label}<span className="sr-only" aria-live="polite">{copied ? ' copied to the clipboard' : ''}</span></button>;
}

/** A secret shown once (API key, webhook signing secret). */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }): ReactNode {
  return (
    <div className="banner success secret" role="status">
      <p><strong>{label}</strong> — copy it now: it is shown only this once.</p>
      <p><code className="secret-value" data-testid="secret">{value}</code> <CopyButton text={value} /></p>
      <button type="button" onClick={onDone}>I have stored it</button>
    </div>
  );
}

export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }): ReactNode {
  const heading = useRef<HTMLHeadingElement>(null);
  // A new page moves focus to its heading, so keyboard and screen-reader users start at the content
  // (here rather than on the route change: lazily loaded pages mount later).
  useEffect(() => {
    document.title = `${title} · Nkra`;
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header"><h1 id="page-title" ref={heading} tabIndex={-1}>{title}</h1>{actions}</header>
      {children}
    </section>
  );
}

/**
 * Renders `children` only when the server offers every route in `needs` (by its OpenAPI document); otherwise
 * explains that this server does not have the feature yet.
 */
export function Requires({ needs, feature, children }: { needs: string[]; feature: string; children: ReactNode }): ReactNode {
  const [state, setState] = useState<'loading' | 'ok' | 'missing'>('loading');
  useEffect(() => {
    void availableRoutes().then((set) => setState(needs.every((n) => set.has(n)) ? 'ok' : 'missing'));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [needs.join(',')]);
  if (state === 'loading') return <Loading />;
  if (state === 'missing') return <Notice kind="warning">{feature} is not available on this server yet (its API is missing from /openapi.json).</Notice>;
  return <>{children}</>;
}

export function useRoutes(): Set<string> | null {
  const [set, setSet] = useState<Set<string> | null>(null);
  useEffect(() => { void availableRoutes().then(setSet); }, []);
  return set;
}

export const CHANNELS = ['SMS', 'WHATSAPP', 'EMAIL', 'PUSH', 'VOICE'] as const;
/** Channels a message can be sent on: the vendor channels plus the in-app inbox (docs/inbox.md). */
export const SEND_CHANNELS = [...CHANNELS, 'IN_APP'] as const;
export const TEMPLATE_CHANNELS = ['SMS', 'WHATSAPP', 'EMAIL', 'PUSH', 'IN_APP', 'VOICE'] as const;
export const CATEGORIES = ['TRANSACTIONAL', 'MARKETING', 'OTP', 'REMINDER', 'ALERT', 'HEALTHCARE', 'INSURANCE', 'LOGISTICS', 'FINTECH', 'ECOMMERCE'] as const;
export const STATUSES = ['QUEUED', 'SENT', 'DELIVERED', 'FAILED', 'PENDING', 'REJECTED', 'SCHEDULED', 'CANCELLED'] as const;
export const ROLES = ['TENANT_OWNER', 'TENANT_ADMIN', 'CAMPAIGN_MANAGER', 'COMPLIANCE_REVIEWER', 'DEVELOPER', 'VIEWER'] as const;

export function Select({ options, value, onChange, allowEmpty, ...rest }: { options: readonly string[]; value: string; onChange: (v: string) => void; allowEmpty?: string; id?: string; name?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }): ReactNode {
  return (
    <select value={value} onChange={(e) => onChange(e.target.value)} {...rest}>
      {allowEmpty !== undefined && <option value="">{allowEmpty}</option>}
      {options.map((o) => <option key={o} value={o}>{o}</option>)}
    </select>
  );
}
