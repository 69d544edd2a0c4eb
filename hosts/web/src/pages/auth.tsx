import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, type ApiError } from '../api.ts';
import { Link, navigate, useLocation } from '../router.tsx';
import { useSession } from '../session.tsx';
import { ErrorBanner, Field, Notice, useForm } from '../ui.tsx';
import { SsoSignIn } from './sso-sign-in.tsx';
import { TwoFactorStep, type TwoFactorChallenge } from './two-factor-step.tsx';

interface AuthResult { token: string; deviceToken?: string; organizations?: Array<{ id: string }>; twoFactor?: TwoFactorChallenge }

/** The device token of this browser's last successful login: it lets the owner in while attackers elsewhere are throttled (docs/permissions.md). */
const DEVICE_KEY = 'nkra.deviceToken';
function storedDeviceToken(): string | undefined {
  try { return localStorage.getItem(DEVICE_KEY) ?? undefined; } catch { return undefined; }
}
function storeDeviceToken(token: string | undefined): void {
  try { if (token) localStorage.setItem(DEVICE_KEY, token); } catch { /* private mode: the device stays unknown */ }
}

/** The wait of a throttled sign-in (429 RATE_LIMITED, its retryAfterSeconds = Retry-After), counting down. */
function LoginWait({ error }: { error: ApiError }): ReactNode {
  const seconds = typeof error.details['retryAfterSeconds'] === 'number' ? error.details['retryAfterSeconds'] : 60;
  const until = useMemo(() => Date.now() + seconds * 1000, [error, seconds]);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.ceil((until - now) / 1000));
  return (
    <div className="banner warning" role="alert" data-testid="login-wait">
      <strong>Too many failed sign-in attempts.</strong>{' '}
      {left > 0
        ? <>Try again in <span data-testid="login-wait-time">{Math.floor(left / 60)} min {String(left % 60).padStart(2, '0')} s</span> (at {new Date(until).toLocaleTimeString()}).</>
        : <>You can try again now.</>}
      {' '}Signing in from a device you used before works now, and so does <Link to="/forgot-password">resetting your password</Link>.
    </div>
  );
}

function AuthCard({ title, children }: { title: string; children: ReactNode }): ReactNode {
  return (
    <section className="card auth-card" aria-labelledby="page-title">
      <p className="brand-large">Nkra</p>
      <h1 id="page-title" tabIndex={-1}>{title}</h1>
      {children}
    </section>
  );
}

export function SignInPage(): ReactNode {
  const session = useSession();
  const { query } = useLocation();
  const form = useForm({ email: '', password: '' });
  // Two-factor (docs/security.md): the password step may answer a challenge instead of a session.
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  const finish = async (result: AuthResult): Promise<void> => {
    storeDeviceToken(result.deviceToken);
    await session.signIn(result.token, result.organizations?.[0]?.id ?? null);
    const next = query.get('next');
    navigate(next && next.startsWith('/app') ? next : '/app');
  };
  const onSubmit = form.submit(async (v) => {
    const deviceToken = storedDeviceToken();
    const result = await api.post<AuthResult>('/auth/login', deviceToken ? { ...v, deviceToken } : v);
    if (result.twoFactor) setChallenge(result.twoFactor);
    else await finish(result);
  });
  if (challenge) {
    return (
      <AuthCard title={challenge.status === 'required' ? 'Two-factor sign-in' : 'Set up two-factor sign-in'}>
        <TwoFactorStep challenge={challenge} deviceToken={storedDeviceToken()} onSignedIn={finish} onCancel={() => { setChallenge(null); form.set('password', ''); }} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Sign in">
      <form onSubmit={onSubmit} noValidate>
        {form.error?.code === 'RATE_LIMITED' ? <LoginWait error={form.error} /> : <ErrorBanner error={form.error} shownFields={['email', 'password']} />}
        <Field label="Email" name="email" error={form.error}>{(p) => <input {...p} type="email" autoComplete="email" required value={form.values.email} onChange={(e) => form.set('email', e.target.value)} />}</Field>
        <Field label="Password" name="password" error={form.error}>{(p) => <input {...p} type="password" autoComplete="current-password" required value={form.values.password} onChange={(e) => form.set('password', e.target.value)} />}</Field>
        <button type="submit" disabled={form.submitting}>{form.submitting ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <SsoSignIn />
      <p><Link to="/forgot-password">Forgot your password?</Link></p>
      <p>New to Nkra? <Link to="/sign-up">Create an account</Link></p>
    </AuthCard>
  );
}

export function SignUpPage(): ReactNode {
  const session = useSession();
  const form = useForm({ firstName: '', lastName: '', email: '', password: '', organizationName: '' });
  const onSubmit = form.submit(async (v) => {
    const body: Record<string, string> = { firstName: v.firstName, lastName: v.lastName, email: v.email, password: v.password };
    if (v.organizationName.trim()) body['organizationName'] = v.organizationName.trim();
    const result = await api.post<AuthResult>('/auth/register', body);
    storeDeviceToken(result.deviceToken);
    await session.signIn(result.token, result.organizations?.[0]?.id ?? null);
    navigate(body['organizationName'] ? '/app/onboarding' : '/app');
  });
  const text = (name: 'firstName' | 'lastName' | 'email' | 'password' | 'organizationName', label: string, type = 'text', auto = 'off', hint?: string) => (
    <Field label={label} name={name} error={form.error} {...(hint ? { hint } : {})}>
      {(p) => <input {...p} type={type} autoComplete={auto} value={form.values[name]} onChange={(e) => form.set(name, e.target.value)} />}
    </Field>
  );
  return (
    <AuthCard title="Create your account">
      <form onSubmit={onSubmit} noValidate>
        <ErrorBanner error={form.error} shownFields={['firstName', 'lastName', 'email', 'password', 'organizationName']} />
        <div className="row">{text('firstName', 'First name', 'text', 'given-name')}{text('lastName', 'Last name', 'text', 'family-name')}</div>
        {text('email', 'Email', 'email', 'email')}
        {text('password', 'Password', 'password', 'new-password', 'At least 8 characters, not a common password')}
        {text('organizationName', 'Organization name', 'text', 'organization', 'Creates your organization and its wallet. Leave empty to join one by invitation.')}
        <button type="submit" disabled={form.submitting}>{form.submitting ? 'Creating…' : 'Create account'}</button>
      </form>
      <p>Already have an account? <Link to="/sign-in">Sign in</Link></p>
    </AuthCard>
  );
}

export function ForgotPasswordPage(): ReactNode {
  const form = useForm({ email: '' });
  const [done, setDone] = useState<string | null>(null);
  const onSubmit = form.submit(async (v) => {
    const result = await api.post<{ message?: string }>('/auth/forgot-password', v);
    setDone(result.message ?? 'If an account exists for that address, we sent a reset link.');
  });
  return (
    <AuthCard title="Reset your password">
      {done ? <Notice kind="success">{done}</Notice> : (
        <form onSubmit={onSubmit} noValidate>
          <ErrorBanner error={form.error} shownFields={['email']} />
          <Field label="Email" name="email" error={form.error}>{(p) => <input {...p} type="email" autoComplete="email" value={form.values.email} onChange={(e) => form.set('email', e.target.value)} />}</Field>
          <button type="submit" disabled={form.submitting}>Email me a reset link</button>
        </form>
      )}
      <p><Link to="/sign-in">Back to sign in</Link></p>
    </AuthCard>
  );
}

export function ResetPasswordPage(): ReactNode {
  const { query } = useLocation();
  const token = query.get('token') ?? '';
  const form = useForm({ password: '', confirm: '' });
  const [done, setDone] = useState(false);
  const [mismatch, setMismatch] = useState(false);
  const onSubmit = form.submit(async (v) => {
    setMismatch(v.password !== v.confirm);
    if (v.password !== v.confirm) return;
    await api.post('/auth/reset-password', { token, password: v.password });
    setDone(true);
  });
  return (
    <AuthCard title="Choose a new password">
      {!token && <Notice kind="warning">This page needs the link from the reset email. <Link to="/forgot-password">Request a new link</Link>.</Notice>}
      {done ? <Notice kind="success">Your password was updated. <Link to="/sign-in">Sign in</Link> with the new password.</Notice> : (
        <form onSubmit={onSubmit} noValidate>
          <ErrorBanner error={form.error} shownFields={['password']} />
          <Field label="New password" name="password" error={form.error} hint="At least 8 characters">{(p) => <input {...p} type="password" autoComplete="new-password" value={form.values.password} onChange={(e) => form.set('password', e.target.value)} />}</Field>
          <Field label="Repeat the new password" name="confirm" error={null}>{(p) => <input {...p} type="password" autoComplete="new-password" value={form.values.confirm} onChange={(e) => form.set('confirm', e.target.value)} />}</Field>
          {mismatch && <p className="field-error" role="alert">The two passwords differ.</p>}
          <button type="submit" disabled={form.submitting || !token}>Set password</button>
        </form>
      )}
    </AuthCard>
  );
}
