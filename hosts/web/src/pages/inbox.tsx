import { useState, type ReactNode } from 'react';
import { api } from '../api.ts';
import { CopyButton, ErrorBanner, Field, Loading, Notice, Page, Requires, SecretOnce, Time, toApiError, useAsync, useForm } from '../ui.tsx';
import type { ApiError } from '../api.ts';
import { useSession } from '../session.tsx';

interface InboxSettings { configured: boolean; appId: string | null; secretHint: string | null; createdAt: string | null; rotatedAt: string | null }

/** The in-app inbox (docs/inbox.md): the application id, the secret (shown once), the embed snippet, and a try-out link. */
export function InboxPage(): ReactNode {
  return (
    <Page title="In-app inbox">
      <Requires needs={['GET /inbox/settings', 'POST /inbox/settings/secret', 'POST /inbox/settings/subscriber-hash']} feature="The in-app inbox">
        <InboxSettingsView />
      </Requires>
    </Page>
  );
}

function InboxSettingsView(): ReactNode {
  const settings = useAsync(() => api.get<InboxSettings>('/inbox/settings'));
  const [secret, setSecret] = useState<string | null>(null);
  const [rotateError, setRotateError] = useState<ApiError | null>(null);
  const [example, setExample] = useState<string | null>(null);
  const form = useForm({ subscriberId: '' });
  const { timezone } = useSession();
  const rotate = async (): Promise<void> => {
    if (settings.data?.configured && !confirm('Rotate the inbox secret? Every subscriber hash made with the current secret stops working at once.')) return;
    try {
      setRotateError(null);
      const result = await api.post<InboxSettings & { secret: string }>('/inbox/settings/secret');
      setSecret(result.secret);
      await settings.reload();
    } catch (e) { setRotateError(toApiError(e)); }
  };
  const tryIt = form.submit(async (v) => {
    const result = await api.post<{ appId: string; subscriberId: string; subscriberHash: string }>('/inbox/settings/subscriber-hash', { subscriberId: v.subscriberId });
    setExample(`/inbox/example?${new URLSearchParams({ appId: result.appId, subscriberId: result.subscriberId, subscriberHash: result.subscriberHash, timeZone: timezone })}`);
  });
  if (settings.loading && !settings.data) return <Loading />;
  const s = settings.data;
  const origin = location.origin;
  const snippet = `<script src="${origin}/inbox/v1/inbox.js"></script>\n<nkra-inbox app-id="${s?.appId ?? 'app_…'}" subscriber-id="USER_ID" subscriber-hash="HASH_FROM_YOUR_BACKEND" time-zone="${timezone}"></nkra-inbox>`;
  const backend = `import { createHmac } from 'node:crypto';\nconst subscriberHash = createHmac('sha256', process.env.NKRA_INBOX_SECRET).update(user.id).digest('hex');`;
  return (
    <>
      {secret && <SecretOnce label="Inbox secret" value={secret} onDone={() => setSecret(null)} />}
      <ErrorBanner error={rotateError ?? settings.error} />
      <section className="card" aria-labelledby="inbox-credentials-h">
        <h2 id="inbox-credentials-h">Credentials</h2>
        {s?.configured ? (
          <dl className="facts">
            <dt>Application id (public)</dt><dd><code data-testid="inbox-app-id">{s.appId}</code> <CopyButton text={s.appId ?? ''} /></dd>
            <dt>Secret</dt><dd><code>{s.secretHint}</code> (kept on your backend; rotated <Time value={s.rotatedAt} />)</dd>
          </dl>
        ) : <Notice>No inbox secret yet. Create one: your backend signs each user's id with it, so a browser only ever reads its own user's feed.</Notice>}
        <button type="button" onClick={() => void rotate()}>{s?.configured ? 'Rotate secret' : 'Create secret'}</button>
      </section>
      <section className="card" aria-labelledby="inbox-embed-h">
        <h2 id="inbox-embed-h">Embed the bell</h2>
        <p>Put the component in your web app. Your backend computes <code>subscriberHash</code>, the HMAC-SHA256 of the user's id with the secret:</p>
        <pre data-testid="inbox-snippet"><code>{snippet}</code></pre>
        <CopyButton text={snippet} label="Copy the snippet" />
        <pre><code>{backend}</code></pre>
        <p>Send to the bell with <code>{'{ "channel": "IN_APP", "to": "USER_ID", "body": "…" }'}</code>, or put <code>IN_APP</code> in an event's channels and trigger it with <code>subscriberId</code>.</p>
      </section>
      {s?.configured && (
        <form className="card" onSubmit={tryIt} noValidate aria-labelledby="inbox-try-h">
          <h2 id="inbox-try-h">Try the bell</h2>
          <ErrorBanner error={form.error} shownFields={['subscriberId']} />
          <Field label="Subscriber id" name="subscriberId" error={form.error} hint="Any id of one of your users, e.g. user-42">{(p) => <input {...p} value={form.values.subscriberId} onChange={(e) => form.set('subscriberId', e.target.value)} />}</Field>
          <button type="submit" disabled={form.submitting}>Open the example page</button>
          {example && <p><a href={example} target="_blank" rel="noopener">Open the bell of {form.values.subscriberId}</a></p>}
        </form>
      )}
    </>
  );
}
