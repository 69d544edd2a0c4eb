import { useState, type ReactNode } from 'react';
import { api, asList } from '../api.ts';
import { Badge, Empty, ErrorBanner, Field, Loading, Notice, Page, ROLES, Select, Time, str, useAsync, useForm } from '../ui.tsx';

interface Member { id: string; email: string; firstName?: string; lastName?: string; role: string; joinedAt?: string }

export function TeamPage(): ReactNode {
  const members = useAsync(async () => asList<Member>(await api.get('/organizations/members')));
  const form = useForm({ email: '', role: 'VIEWER' });
  const [added, setAdded] = useState<string | null>(null);
  const onSubmit = form.submit(async (v) => {
    await api.post('/organizations/invite', v);
    setAdded(v.email);
    form.reset();
    await members.reload();
  });
  return (
    <Page title="Team">
      <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="invite-h">
        <h2 id="invite-h">Invite a member</h2>
        <p className="hint">The person must have registered an account first; they then see this organization when they sign in.</p>
        <ErrorBanner error={form.error} shownFields={['email', 'role']} />
        <div className="row">
          <Field label="Email" name="email" error={form.error}>{(p) => <input {...p} type="email" value={form.values.email} onChange={(e) => form.set('email', e.target.value)} />}</Field>
          <Field label="Role" name="role" error={form.error}>{(p) => <Select {...p} options={ROLES} value={form.values.role} onChange={(r) => form.set('role', r)} />}</Field>
        </div>
        <button type="submit" disabled={form.submitting}>Invite</button>
        {added && <Notice kind="success">{added} was added.</Notice>}
      </form>
      <h2>Members</h2>
      {members.loading && !members.data ? <Loading /> : <ErrorBanner error={members.error} />}
      {members.data && members.data.length === 0 && <Empty title="No members yet">Invite your colleagues above.</Empty>}
      {members.data && members.data.length > 0 && (
        <div className="table-wrap"><table>
          <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Joined</th></tr></thead>
          <tbody>{members.data.map((m) => <tr key={m.id}><td>{str(m.firstName, '')} {str(m.lastName, '')}</td><td>{m.email}</td><td><Badge value={m.role} /></td><td><Time value={m.joinedAt} /></td></tr>)}</tbody>
        </table></div>
      )}
    </Page>
  );
}
