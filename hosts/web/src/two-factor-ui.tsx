import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useState, type ReactNode } from 'react';
import { api } from './api.ts';
import { CopyButton, ErrorBanner, Field, useForm } from './ui.tsx';

/** Shared by the sign-in second step (pages/two-factor-step.tsx) and the Security page (docs/security.md, "Two-factor sign-in"). */

/** Registers a passkey in the browser with creation options from the server; answers the browser's JSON. */
export function createPasskey(options: unknown): Promise<unknown> {
  return startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
}

/** Asserts a passkey in the browser with request options from the server. */
export function assertPasskey(options: unknown): Promise<unknown> {
  return startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
}

/** Recovery codes, shown once after the first factor is enrolled (or after regenerating). */
export function RecoveryCodes({ codes, onDone, doneLabel = 'I have stored them' }: { codes: string[]; onDone: () => void; doneLabel?: string }): ReactNode {
  return (
    <div className="banner success secret" role="status" data-testid="recovery-codes">
      <p><strong>Your recovery codes</strong> — store them somewhere safe now: they are shown only this once. Each code signs you in once if you lose your authenticator.</p>
      <ul className="recovery-codes">{codes.map((c) => <li key={c}><code data-testid="recovery-code">{c}</code></li>)}</ul>
      <p><CopyButton text={codes.join('\n')} label="Copy all" /> <button type="button" onClick={onDone}>{doneLabel}</button></p>
    </div>
  );
}

/**
 * Setting up an authenticator app: the secret as text and as an otpauth URI (what a QR code would hold), then a
 * current code to confirm. `confirm` posts the code and answers what the server answered.
 */
export function TotpSetup({ secret, otpauthUri, confirm }: { secret: string; otpauthUri: string; confirm: (code: string) => Promise<void> }): ReactNode {
  const form = useForm({ code: '' });
  return (
    <div className="card totp-setup" data-testid="totp-setup">
      <p>Add this account to your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Aegis …): enter the key below, or open the link on the phone that holds the app. The key is shown only now.</p>
      <p>Setup key: <code data-testid="totp-secret">{secret}</code> <CopyButton text={secret} label="Copy key" /></p>
      <p><a href={otpauthUri} data-testid="totp-uri">{otpauthUri}</a></p>
      <form onSubmit={form.submit(async (v) => confirm(v.code))} noValidate>
        <ErrorBanner error={form.error} shownFields={['code']} />
        <Field label="Code from the app" name="code" error={form.error} hint="Six digits">{(p) => <input {...p} inputMode="numeric" autoComplete="one-time-code" value={form.values.code} onChange={(e) => form.set('code', e.target.value)} />}</Field>
        <button type="submit" disabled={form.submitting}>Confirm</button>
      </form>
    </div>
  );
}

/** Starts a TOTP enrolment (session or sign-in path) and shows the setup until confirmed. */
export function TotpEnrolButton({ start, confirm, label = 'Set up an authenticator app' }: {
  start: () => Promise<{ secret: string; otpauthUri: string }>; confirm: (code: string) => Promise<void>; label?: string;
}): ReactNode {
  const [setup, setSetup] = useState<{ secret: string; otpauthUri: string } | null>(null);
  const form = useForm({});
  if (setup) return <TotpSetup secret={setup.secret} otpauthUri={setup.otpauthUri} confirm={confirm} />;
  return (
    <div>
      <ErrorBanner error={form.error} />
      <button type="button" disabled={form.submitting} onClick={() => void form.submit(async () => setSetup(await start()))()}>{label}</button>
    </div>
  );
}

export const twoFactorApi = {
  status: () => api.get<TwoFactorStatus>('/auth/two-factor'),
};

export interface TwoFactorStatus {
  enabled: boolean;
  totp: { enabled: boolean; pending: boolean };
  passkeys: Array<{ id: string; name: string; createdAt: string; lastUsedAt: string | null }>;
  recoveryCodesLeft: number;
  required: { byOrganization: boolean; byPlatform: boolean };
}
