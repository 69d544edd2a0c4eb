import { useState, type ReactNode } from 'react';
import { api } from '../api.ts';
import { createPasskey, RecoveryCodes, TotpEnrolButton, assertPasskey } from '../two-factor-ui.tsx';
import { ErrorBanner, Field, useForm } from '../ui.tsx';

/** What POST /auth/login answers for a user with two-factor, or required to enrol (docs/security.md, "Two-factor sign-in"). */
export interface TwoFactorChallenge {
  status: 'required' | 'enrolment_required';
  challengeToken: string;
  expiresAt: string;
  methods: string[];
  reason?: 'organization' | 'platform';
}

/** The normal login answer the second step ends with. */
export interface SignedIn { token: string; deviceToken?: string; organizations?: Array<{ id: string }>; recoveryCodes?: string[] | null }

/** The sign-in's second step: prove a factor, or enrol one when the organization or the platform requires it. */
export function TwoFactorStep({ challenge, deviceToken, onSignedIn, onCancel }: {
  challenge: TwoFactorChallenge; deviceToken: string | undefined; onSignedIn: (result: SignedIn) => Promise<void>; onCancel: () => void;
}): ReactNode {
  return (
    <div data-testid="two-factor-step">
      {challenge.status === 'required'
        ? <SecondFactor challenge={challenge} deviceToken={deviceToken} onSignedIn={onSignedIn} />
        : <Enrolment challenge={challenge} deviceToken={deviceToken} onSignedIn={onSignedIn} />}
      <p><button type="button" className="link" onClick={onCancel}>Start over</button></p>
    </div>
  );
}

function SecondFactor({ challenge, deviceToken, onSignedIn }: { challenge: TwoFactorChallenge; deviceToken: string | undefined; onSignedIn: (r: SignedIn) => Promise<void> }): ReactNode {
  const [useRecovery, setUseRecovery] = useState(false);
  const form = useForm({ code: '' });
  const base = { challengeToken: challenge.challengeToken, ...(deviceToken ? { deviceToken } : {}) };
  const submit = form.submit(async (v) => onSignedIn(await api.post<SignedIn>('/auth/login/two-factor', useRecovery ? { ...base, recoveryCode: v.code } : { ...base, code: v.code })));
  const withPasskey = form.submit(async () => {
    const { options } = await api.post<{ options: unknown }>('/auth/login/two-factor/passkey-options', { challengeToken: challenge.challengeToken });
    const passkey = await assertPasskey(options);
    await onSignedIn(await api.post<SignedIn>('/auth/login/two-factor', { ...base, passkey }));
  });
  return (
    <>
      <p>Your account is protected by two-factor sign-in.</p>
      <ErrorBanner error={form.error} shownFields={['code', 'recoveryCode']} />
      {challenge.methods.includes('passkey') && <p><button type="button" disabled={form.submitting} onClick={() => void withPasskey()}>Use a passkey</button></p>}
      <form onSubmit={submit} noValidate>
        <Field label={useRecovery ? 'Recovery code' : 'Code from your authenticator app'} name="code" error={form.error}>
          {(p) => <input {...p} autoComplete="one-time-code" inputMode={useRecovery ? 'text' : 'numeric'} value={form.values.code} onChange={(e) => form.set('code', e.target.value)} />}
        </Field>
        <button type="submit" disabled={form.submitting}>{form.submitting ? 'Checking…' : 'Verify'}</button>
      </form>
      <p><button type="button" className="link" onClick={() => { setUseRecovery((r) => !r); form.set('code', ''); }}>{useRecovery ? 'Use a code from the app instead' : 'Use a recovery code instead'}</button></p>
    </>
  );
}

function Enrolment({ challenge, deviceToken, onSignedIn }: { challenge: TwoFactorChallenge; deviceToken: string | undefined; onSignedIn: (r: SignedIn) => Promise<void> }): ReactNode {
  const [done, setDone] = useState<SignedIn | null>(null);
  const form = useForm({});
  const base = { challengeToken: challenge.challengeToken, ...(deviceToken ? { deviceToken } : {}) };
  const finish = async (result: SignedIn): Promise<void> => { if (result.recoveryCodes) setDone(result); else await onSignedIn(result); };
  if (done?.recoveryCodes) return <RecoveryCodes codes={done.recoveryCodes} doneLabel="Continue to the dashboard" onDone={() => void onSignedIn(done)} />;
  const passkey = form.submit(async () => {
    const { options } = await api.post<{ options: unknown }>('/auth/login/two-factor/enrol/passkey-options', { challengeToken: challenge.challengeToken });
    const response = await createPasskey(options);
    await finish(await api.post<SignedIn>('/auth/login/two-factor/enrol/passkey', { ...base, name: 'Passkey', response }));
  });
  return (
    <div data-testid="two-factor-enrolment">
      <p>{challenge.reason === 'platform' ? 'Platform administrators must use two-factor sign-in.' : 'Your organization requires two-factor sign-in.'} Set up a second factor to continue.</p>
      <ErrorBanner error={form.error} />
      <TotpEnrolButton
        start={() => api.post<{ secret: string; otpauthUri: string }>('/auth/login/two-factor/enrol/totp', { challengeToken: challenge.challengeToken })}
        confirm={async (code) => finish(await api.post<SignedIn>('/auth/login/two-factor/enrol/totp/confirm', { ...base, code }))} />
      <p><button type="button" className="secondary" disabled={form.submitting} onClick={() => void passkey()}>Use a passkey instead</button></p>
    </div>
  );
}
