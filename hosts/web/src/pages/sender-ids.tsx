import { useState, type ReactNode } from 'react';
import { api } from '../api.ts';
import type { ApiError } from '../api.ts';
import { Badge, Empty, ErrorBanner, Field, Loading, Notice, Time, toApiError, useAsync, useForm } from '../ui.tsx';

interface SenderId { id: string; name: string; purpose: string; sampleMessage: string; networks: string[]; status: string; reviewComment: string | null; createdAt: string }
interface SenderIdList { items: SenderId[]; defaultSenderId: string | null; limit: number }
const NETWORKS = ['ALL', 'MTN', 'TELECEL', 'AT'];

/** Sender IDs (docs/sender-ids.md): request one, follow its review, choose the default sender. */
export function SenderIdsSection(): ReactNode {
  const list = useAsync(async () => api.get<SenderIdList>('/sender-ids'));
  const form = useForm({ name: '', purpose: '', sampleMessage: '', networks: ['ALL'] as string[] });
  const [note, setNote] = useState<string | null>(null);
  const [actionError, setActionError] = useState<ApiError | null>(null);
  const onSubmit = form.submit(async (v) => {
    setNote(null); setActionError(null); // a notice is about the last submission only
    const saved = await api.post<SenderId>('/sender-ids', { name: v.name, purpose: v.purpose, sampleMessage: v.sampleMessage, networks: v.networks.length ? v.networks : ['ALL'] });
    setNote(`Sender ID “${saved.name}” requested: a platform administrator reviews it. Sandbox keys may use it meanwhile.`);
    form.reset();
    await list.reload();
  });
  const act = async (work: () => Promise<unknown>, message: string): Promise<void> => {
    try { setActionError(null); await work(); setNote(message); await list.reload(); } catch (e) { setActionError(toApiError(e)); }
  };
  const toggleNetwork = (n: string, on: boolean): void => form.set('networks', on ? [...form.values.networks.filter((x) => x !== 'ALL' || n === 'ALL'), n] : form.values.networks.filter((x) => x !== n));
  return (
    <section aria-labelledby="sender-ids-h">
      <h2 id="sender-ids-h">Sender IDs</h2>
      <p>SMS go out only under sender IDs a platform administrator approved, as the networks require. Live sends naming any other are refused (422 SENDER_ID_NOT_APPROVED) and not charged.</p>
      {note && <Notice kind="success">{note}</Notice>}
      <ErrorBanner error={actionError ?? list.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <p>Default sender: <strong data-testid="default-sender">{list.data.defaultSenderId ?? 'the provider’s own'}</strong></p>
      )}
      {list.data?.items.length === 0 && <Empty title="No sender IDs yet">Request one below; until then SMS use the provider’s default sender.</Empty>}
      {list.data && list.data.items.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Networks</th><th scope="col">Purpose</th><th scope="col">Requested</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>{list.data.items.map((s) => (
            <tr key={s.id} data-testid="sender-id-row">
              <td><code>{s.name}</code></td>
              <td><Badge value={s.status} />{s.reviewComment && <div className="hint">{s.reviewComment}</div>}</td>
              <td>{s.networks.join(', ')}</td><td>{s.purpose}</td><td><Time value={s.createdAt} /></td>
              <td className="actions">
                {s.status === 'APPROVED' && list.data!.defaultSenderId !== s.name && (
                  <button type="button" onClick={() => void act(() => api.patch('/organizations/current', { defaultSenderId: s.name }), `“${s.name}” is now the default sender.`)}>Make default</button>
                )}
                <button type="button" className="danger" aria-label={`Delete ${s.name}`}
                  onClick={() => { if (confirm(`Delete the sender ID “${s.name}”? Sends naming it are refused from then on.`)) void act(() => api.delete(`/sender-ids/${encodeURIComponent(s.id)}`), `“${s.name}” deleted.`); }}>Delete</button>
              </td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
      <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="new-sender-h">
        <h3 id="new-sender-h">Request a sender ID</h3>
        <ErrorBanner error={form.error} shownFields={['name', 'purpose', 'sampleMessage', 'networks']} />
        <div className="row">
          <Field label="Sender ID" name="name" error={form.error} hint="3 to 11 letters, digits or spaces, with a letter">{(p) => <input {...p} maxLength={11} value={form.values.name} onChange={(e) => form.set('name', e.target.value)} />}</Field>
          <Field label="Purpose" name="purpose" error={form.error} hint="What the messages are for">{(p) => <input {...p} value={form.values.purpose} onChange={(e) => form.set('purpose', e.target.value)} />}</Field>
        </div>
        <Field label="Sample message" name="sampleMessage" error={form.error}>{(p) => <textarea {...p} rows={2} value={form.values.sampleMessage} onChange={(e) => form.set('sampleMessage', e.target.value)} />}</Field>
        <fieldset>
          <legend>Networks</legend>
          {NETWORKS.map((n) => <label key={n} className="inline"><input type="checkbox" checked={form.values.networks.includes(n)} onChange={(e) => toggleNetwork(n, e.target.checked)} /> {n}</label>)}
        </fieldset>
        <button type="submit" disabled={form.submitting}>Request sender ID</button>
      </form>
    </section>
  );
}
