import { useState, type ReactNode } from 'react';
import { api } from '../api.ts';
import { qs } from '../format.ts';
import { Link } from '../router.tsx';
import { Badge, Empty, ErrorBanner, Field, Loading, Notice, Page, Requires, Select, Time, useAsync, useForm } from '../ui.tsx';
import { DeliveryBadge } from '../delivery-badge.tsx';

interface Conversation {
  id: string; contactId: string; channel: string; address: string; lastInboundAt: string; lastMessageAt: string; lastMessagePreview: string;
  unreadCount: number; whatsappWindowOpen: boolean | null; whatsappWindowClosesAt: string | null;
}
interface ThreadItem { direction: 'INBOUND' | 'OUTBOUND'; id: string; body: string; status: string; localOnly?: boolean; at: string }
interface Detail extends Conversation {
  contact: { firstName: string | null; lastName: string | null; phone: string | null } | null;
  messages: ThreadItem[]; nextBefore: string | null;
}
interface Page_ { items: Conversation[]; nextCursor: string | null }

/** Conversations (docs/conversations.md): what contacts wrote in, by contact and channel, newest first. */
export function ConversationsPage(): ReactNode {
  const [channel, setChannel] = useState('');
  const [unread, setUnread] = useState(false);
  const list = useAsync(async () => api.get<Page_>(`/conversations${qs({ channel: channel || undefined, unread: unread ? 'true' : undefined, limit: 50 })}`), [channel, unread]);
  return (
    <Page title="Conversations">
      <Requires needs={['GET /conversations', 'GET /conversations/{id}', 'POST /conversations/{id}/reply']} feature="Conversations">
        <p>Messages contacts sent to your numbers (SMS and WhatsApp). STOP and START are handled for you; replies are charged like any message.</p>
        <div className="row">
          <Field label="Channel" name="channel">{(p) => <Select {...p} options={['SMS', 'WHATSAPP']} allowEmpty="All channels" value={channel} onChange={setChannel} />}</Field>
          <label className="inline"><input type="checkbox" checked={unread} onChange={(e) => setUnread(e.target.checked)} /> Unread only</label>
        </div>
        <ErrorBanner error={list.error} />
        {list.loading && !list.data && <Loading />}
        {list.data?.items.length === 0 && <Empty title="No conversations yet">When a contact replies to one of your numbers, the conversation appears here.</Empty>}
        {list.data && list.data.items.length > 0 && (
          <div className="table-wrap"><table>
            <thead><tr><th scope="col">Contact</th><th scope="col">Channel</th><th scope="col">Last message</th><th scope="col">When</th><th scope="col">Unread</th></tr></thead>
            <tbody>{list.data.items.map((c) => (
              <tr key={c.id} data-testid="conversation-row">
                <td><Link to={`/app/conversations/${c.id}`}>{c.address}</Link></td>
                <td><Badge value={c.channel} /></td>
                <td>{c.lastMessagePreview}</td>
                <td><Time value={c.lastMessageAt} /></td>
                <td>{c.unreadCount > 0 ? <strong>{c.unreadCount}</strong> : '—'}</td>
              </tr>
            ))}</tbody>
          </table></div>
        )}
      </Requires>
    </Page>
  );
}

/** One conversation: the thread, oldest at the top, and a reply box on the channel the contact used. */
export function ConversationPage({ id }: { id: string }): ReactNode {
  const detail = useAsync(async () => {
    const loaded = await api.get<Detail>(`/conversations/${encodeURIComponent(id)}`);
    if (loaded.unreadCount > 0) await api.post(`/conversations/${encodeURIComponent(id)}/read`, {});
    return loaded;
  }, [id]);
  const form = useForm({ body: '' });
  const [note, setNote] = useState<string | null>(null);
  const onSubmit = form.submit(async (v) => {
    setNote(null); // a notice is about the last submission only
    await api.post(`/conversations/${encodeURIComponent(id)}/reply`, { body: v.body });
    setNote('Reply queued.');
    form.reset();
    await detail.reload();
  });
  const d = detail.data;
  const name = d?.contact ? [d.contact.firstName, d.contact.lastName].filter(Boolean).join(' ') : '';
  return (
    <Page title={d ? `Conversation with ${name || d.address}` : 'Conversation'} actions={<Link to="/app/conversations">All conversations</Link>}>
      <ErrorBanner error={detail.error} />
      {detail.loading && !d && <Loading />}
      {d && (
        <>
          <p><Badge value={d.channel} /> {d.address}{name && ` · ${name}`}</p>
          {d.channel === 'WHATSAPP' && (d.whatsappWindowOpen
            ? <Notice kind="info">WhatsApp window open until <Time value={d.whatsappWindowClosesAt} />: free-form replies allowed.</Notice>
            : <Notice kind="warning">The 24-hour WhatsApp window is closed: only an approved WhatsApp template can be sent (a free-form reply is refused with WHATSAPP_WINDOW_CLOSED).</Notice>)}
          <ol className="thread" aria-label="Messages">
            {[...d.messages].reverse().map((m) => (
              <li key={m.id} data-testid="thread-item" className={m.direction === 'INBOUND' ? 'inbound' : 'outbound'}>
                <span className="hint">{m.direction === 'INBOUND' ? 'Contact' : 'You'} · <Time value={m.at} />{m.direction === 'OUTBOUND' && <> · <DeliveryBadge log={{ status: m.status, localOnly: m.localOnly }} /></>}</span>
                <div>{m.body}</div>
              </li>
            ))}
          </ol>
          {note && <Notice kind="success">{note}</Notice>}
          <form className="card" onSubmit={onSubmit} noValidate aria-label="Reply">
            <ErrorBanner error={form.error} shownFields={['body']} />
            <Field label={`Reply by ${d.channel === 'WHATSAPP' ? 'WhatsApp' : 'SMS'}`} name="body" error={form.error}>
              {(p) => <textarea {...p} rows={3} maxLength={1600} value={form.values.body} onChange={(e) => form.set('body', e.target.value)} />}
            </Field>
            <button type="submit" disabled={form.submitting || form.values.body.trim() === ''}>Send reply</button>
          </form>
        </>
      )}
    </Page>
  );
}
