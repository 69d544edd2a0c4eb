import { useState, type ReactNode } from 'react';
import { api, qs } from '../api.ts';
import type { ApiError } from '../api.ts';
import { navigate, useLocation } from '../router.tsx';
import { Empty, ErrorBanner, Loading, Notice, Page, Requires, Select, Time, toApiError, useAsync } from '../ui.tsx';

/** The actions of docs/audit-log.md (tests/http/org-audit-coverage.test.ts keeps this list complete). */
export const AUDIT_ACTIONS = [
  'organization.updated', 'member.invited', 'member.role_changed', 'member.removed',
  'api_key.created', 'api_key.updated', 'api_key.revoked', 'template.created', 'template.updated', 'template.checked',
  'provider.health_checked', 'provider.updated', 'vendor_account.created', 'vendor_account.updated', 'vendor_account.deleted', 'vendor_account.tested',
  'sender_id.requested', 'sender_id.deleted', 'webhook.created', 'webhook.updated', 'webhook.deleted', 'webhook.tested', 'webhook.secret_rotated',
  'webhook.delivery_replayed', 'message.sent_from_dashboard', 'message.cancelled_from_dashboard', 'verify.settings_updated', 'export.created',
  'consent.changed', 'contact.created', 'contact.updated', 'contact.deleted', 'contact.opted_out', 'contact.import_started',
  'suppression.added', 'suppression.removed', 'keyword.created', 'keyword.deleted', 'event.created', 'event.updated', 'event.deactivated', 'workflow.failures_acknowledged',
  'segment.created', 'campaign.created', 'campaign.sent', 'campaign.cancelled', 'campaign.paused', 'campaign.resumed',
  'billing.top_up_started', 'billing.payment_verified', 'inbox.secret_rotated', 'inbox.subscriber_hash_created', 'conversation.replied',
  'impersonation.started', 'impersonation.ended', 'two_factor.enabled', 'two_factor.disabled', 'two_factor.recovery_codes_regenerated',
  'passkey.added', 'passkey.removed', 'sso.configured', 'sso.updated', 'sso.removed', 'sso.domain_verified', 'sso.member_provisioned',
] as const;

interface Actor { type: 'member' | 'api_key' | 'platform_staff'; userId?: string; email?: string | null; apiKeyId?: string; name?: string | null }
interface Entry {
  id: string; seq: number; occurredAt: string; action: string; clientAddress: string | null; actor: Actor;
  target: { type: string; id: string | null }; changes: Record<string, { before: unknown; after: unknown }>;
}
interface AuditPage { items: Entry[]; nextCursor: string | null }
interface Verification { valid: boolean; checked: number; firstSeq: number | null; lastSeq: number | null; brokenAt: { seq: number; reason: string } | null }

const FILTERS = ['actorId', 'action', 'targetType', 'targetId', 'from', 'to'] as const;

function actorLabel(a: Actor): string {
  if (a.type === 'api_key') return `API key ${a.name ?? a.apiKeyId ?? ''}`;
  if (a.type === 'platform_staff') return `Platform staff ${a.email ?? a.userId ?? ''}`;
  return a.email ?? a.userId ?? 'member';
}

const show = (v: unknown): string => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

/** Dates of the filter form become the API's ISO times (the start of that day, UTC; `to` is the day after). */
function apiFilters(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of FILTERS) {
    const value = query.get(f);
    if (!value) continue;
    if (f === 'from') out[f] = `${value}T00:00:00Z`;
    else if (f === 'to') out[f] = new Date(Date.parse(`${value}T00:00:00Z`) + 86_400_000).toISOString();
    else out[f] = value;
  }
  return out;
}

export function AuditLogPage(): ReactNode {
  const { query } = useLocation();
  const current = Object.fromEntries(FILTERS.map((f) => [f, query.get(f) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const [draft, setDraft] = useState(current);
  const [older, setOlder] = useState<{ items: Entry[]; nextCursor: string | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [verification, setVerification] = useState<Verification | null>(null);
  const filters = apiFilters(query);
  const page = useAsync(async () => { setOlder(null); return api.get<AuditPage>(`/audit-log${qs({ ...filters, limit: 50 })}`); }, [query.toString()]);
  const items = [...(page.data?.items ?? []), ...(older?.items ?? [])];
  const nextCursor = older ? older.nextCursor : page.data?.nextCursor ?? null;

  const apply = (next: Record<string, string>): void => navigate(`/app/audit-log${qs(next)}`);
  const loadOlder = async (): Promise<void> => {
    if (!nextCursor) return;
    setBusy(true);
    try {
      const more = await api.get<AuditPage>(`/audit-log${qs({ ...filters, limit: 50, cursor: nextCursor })}`);
      setOlder({ items: [...(older?.items ?? []), ...more.items], nextCursor: more.nextCursor });
    } catch (e) { setError(toApiError(e)); } finally { setBusy(false); }
  };
  const exportFile = async (): Promise<void> => {
    setBusy(true); setError(null); setNote(null);
    try {
      const file = await api.download(`/audit-log/export${qs(filters)}`);
      const url = URL.createObjectURL(file.blob);
      const a = document.createElement('a');
      a.href = url; a.download = file.filename; document.body.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setNote(file.truncated ? 'Exported the newest 10,000 matching entries (more matched: narrow the filters).' : `Downloaded ${file.filename}.`);
    } catch (e) { setError(toApiError(e)); } finally { setBusy(false); }
  };
  const verify = async (): Promise<void> => {
    setBusy(true); setError(null);
    try { setVerification(await api.get<Verification>('/audit-log/verify')); } catch (e) { setError(toApiError(e)); } finally { setBusy(false); }
  };

  return (
    <Page title="Audit log" actions={<>
      <button type="button" className="secondary" onClick={() => void verify()} disabled={busy}>Verify the chain</button>
      <button type="button" className="secondary" onClick={() => void exportFile()} disabled={busy}>Export NDJSON</button>
    </>}>
      <Requires needs={['GET /audit-log']} feature="The audit log">
        <p className="hint">Every change made by members, API keys and platform staff in this organization, newest first. Secrets are never shown.</p>
        <form className="filters" aria-label="Filters" onSubmit={(e) => { e.preventDefault(); apply(draft); }}>
          <label>Action <Select options={AUDIT_ACTIONS} value={draft.action} allowEmpty="Any action" onChange={(v) => setDraft({ ...draft, action: v })} /></label>
          <label>Actor id <input name="actorId" value={draft.actorId} onChange={(e) => setDraft({ ...draft, actorId: e.target.value })} /></label>
          <label>Target type <input name="targetType" value={draft.targetType} onChange={(e) => setDraft({ ...draft, targetType: e.target.value })} /></label>
          <label>Target id <input name="targetId" value={draft.targetId} onChange={(e) => setDraft({ ...draft, targetId: e.target.value })} /></label>
          <label>From <input type="date" name="from" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} /></label>
          <label>To <input type="date" name="to" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} /></label>
          <button type="submit">Apply</button>
          <button type="button" className="secondary" onClick={() => { setDraft(Object.fromEntries(FILTERS.map((f) => [f, ''])) as typeof draft); apply({}); }}>Clear</button>
        </form>
        <ErrorBanner error={error ?? page.error} />
        {note && <Notice kind="success">{note}</Notice>}
        {verification && (verification.valid
          ? <Notice kind="success">Chain intact: {verification.checked} entries checked{verification.firstSeq && verification.firstSeq > 1 ? ` (from #${verification.firstSeq}; older ones removed by retention)` : ''}.</Notice>
          : <Notice kind="error">Chain broken at entry #{verification.brokenAt?.seq} ({verification.brokenAt?.reason}): the log was changed outside the service.</Notice>)}
        {page.loading && !page.data && <Loading label="Loading the audit log" />}
        {page.data && items.length === 0 && <Empty title="No entries match" />}
        {items.length > 0 && (
          <div className="table-wrap"><table>
            <caption className="sr-only">Audit log entries, newest first</caption>
            <thead><tr><th scope="col">#</th><th scope="col">Time</th><th scope="col">Actor</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Changes</th><th scope="col">Address</th></tr></thead>
            <tbody>{items.map((e) => (
              <tr key={e.id}>
                <td>{e.seq}</td><td><Time value={e.occurredAt} /></td><td>{actorLabel(e.actor)}</td><td><code>{e.action}</code></td>
                <td>{e.target.type}{e.target.id ? <> <code>{e.target.id}</code></> : null}</td>
                <td><ul className="changes">{Object.entries(e.changes).slice(0, 8).map(([field, c]) => (
                  <li key={field}><strong>{field}</strong>: {show(c.before)} → {show(c.after)}</li>
                ))}</ul></td>
                <td>{e.clientAddress ?? '—'}</td>
              </tr>
            ))}</tbody>
          </table></div>
        )}
        {nextCursor && <button type="button" className="secondary" onClick={() => void loadOlder()} disabled={busy}>Load older entries</button>}
      </Requires>
    </Page>
  );
}
