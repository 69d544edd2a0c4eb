import { useEffect, useRef, useState, type ReactNode } from 'react';
import { api } from '../api.ts';
import { Link, navigate } from '../router.tsx';
import { useSession } from '../session.tsx';
import { ErrorBanner, Field, Loading, toApiError, useForm } from '../ui.tsx';
import type { ApiError } from '../api.ts';

/**
 * The sign-in page's "Sign in with SSO": a link (not a button, so the password form keeps the page's only
 * "Sign in" button) to the SSO page below.
 */
export function SsoSignIn(): ReactNode {
  return <p><Link to="/sso" className="button secondary">Sign in with SSO</Link></p>;
}

/** /sso: a work email (its verified domain) or the organization's SSO name, then off to the identity provider. */
export function SsoSignInPage(): ReactNode {
  const form = useForm({ who: '' });
  const onSubmit = form.submit(async ({ who }) => {
    const value = who.trim();
    const started = await api.post<{ authorizationUrl: string }>('/auth/sso/start', value.includes('@') ? { email: value } : { organization: value });
    window.location.assign(started.authorizationUrl);
  });
  return (
    <SsoCard>
      <form onSubmit={onSubmit} noValidate>
        <ErrorBanner error={form.error} shownFields={['email', 'organization']} />
        <Field label="Work email or organization" name="email" error={form.error} hint="Your organization's identity provider signs you in.">
          {(p) => <input {...p} type="text" autoComplete="email" value={form.values.who} onChange={(e) => form.set('who', e.target.value)} />}
        </Field>
        <button type="submit" disabled={form.submitting}>{form.submitting ? 'Redirecting…' : 'Continue with SSO'}</button>
      </form>
      <p><Link to="/sign-in">Sign in with a password instead</Link></p>
    </SsoCard>
  );
}

function SsoCard({ children }: { children: ReactNode }): ReactNode {
  return (
    <section className="card auth-card" aria-labelledby="page-title">
      <p className="brand-large">Nkra</p>
      <h1 id="page-title" tabIndex={-1}>Single sign-on</h1>
      {children}
    </section>
  );
}

/** /sso/callback: where the identity provider sends the browser back; exchanges its answer for a dashboard session. */
export function SsoCallbackPage(): ReactNode {
  const session = useSession();
  const [error, setError] = useState<ApiError | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (sent.current) return; // one exchange: the code and the sign-in cookie are single-use
    sent.current = true;
    const params = Object.fromEntries(new URLSearchParams(location.search));
    history.replaceState(null, '', '/sso/callback'); // the code leaves the address bar and the history
    void (async () => {
      try {
        const result = await api.post<{ token: string; deviceToken?: string; organizationId: string }>('/auth/sso/callback', params);
        try { if (result.deviceToken) localStorage.setItem('nkra.deviceToken', result.deviceToken); } catch { /* private mode */ }
        await session.signIn(result.token, result.organizationId);
        navigate('/app', { replace: true });
      } catch (e) {
        setError(toApiError(e));
      }
    })();
  }, [session]);
  return <SsoCard>{error ? <><ErrorBanner error={error} /><p><Link to="/sso">Try again</Link> or <Link to="/sign-in">sign in with a password</Link></p></> : <Loading label="Signing you in" />}</SsoCard>;
}
