import { useEffect, type ReactNode } from 'react';
import { api, asList } from './api.ts';
import { etaText } from './format.ts';
import { ErrorBanner, str, useAsync } from './ui.tsx';

type Row = Record<string, unknown>;

const REFRESH_MS = 5_000;
const LANE_NAMES: Record<string, string> = { OTP: 'Passcodes (OTP)', TRANSACTIONAL: 'Transactional', MARKETING: 'Marketing' };

const waitText = (seconds: unknown): string => (typeof seconds === 'number' && seconds > 0 ? (seconds < 60 ? `${Math.round(seconds)} s` : etaText(seconds).replace('about ', '')) : '—');

/**
 * Messages waiting for delivery per lane, the last minute's pace and the ETA at that pace
 * (GET /delivery-logs/backlog for the organization, GET /admin/delivery-backlog with the biggest waiting
 * organizations for platform administrators; docs/delivery-logs.md), refreshed every 5 seconds.
 */
export function DeliveryBacklogCard({ admin = false }: { admin?: boolean }): ReactNode {
  const backlog = useAsync(async () => api.get<Row>(admin ? '/admin/delivery-backlog' : '/delivery-logs/backlog'), [admin]);
  const { reload } = backlog;
  useEffect(() => {
    const timer = setInterval(() => { void reload(); }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const b = backlog.data;
  if (!b) return backlog.error ? <ErrorBanner error={backlog.error} /> : null;
  const waiting = Number(b['waiting'] ?? 0);
  const tenants = asList<Row>(b['tenants']);
  return (
    <section className="card" aria-labelledby="backlog-title" data-testid="delivery-backlog">
      <h2 id="backlog-title">{admin ? 'Delivery backlog' : 'Waiting for delivery'}</h2>
      <p data-testid="backlog-summary">
        {waiting === 0
          ? 'Nothing is waiting: new messages go out at once.'
          : `${waiting.toLocaleString()} waiting · ${str(b['drainPerSecond'])} delivered a second over the last minute · `
            + (b['etaSeconds'] === null ? 'no ETA yet (nothing delivered in the last minute)' : `done in ${etaText(b['etaSeconds'])}`)}
      </p>
      {(admin || waiting > 0) && <div className="table-wrap"><table>
        <caption className="sr-only">Waiting messages per lane</caption>
        <thead><tr><th scope="col">Lane</th><th scope="col">Waiting</th><th scope="col">Oldest waiting</th><th scope="col">Delivered last minute</th><th scope="col">ETA</th></tr></thead>
        <tbody>{asList<Row>(b['lanes']).map((l) => (
          <tr key={String(l['lane'])}>
            <td>{LANE_NAMES[String(l['lane'])] ?? str(l['lane'])}</td><td>{Number(l['waiting'] ?? 0).toLocaleString()}</td>
            <td>{waitText(l['oldestWaitingSeconds'])}</td><td>{Number(l['drainedLastMinute'] ?? 0).toLocaleString()}</td>
            <td>{Number(l['waiting'] ?? 0) === 0 ? '—' : etaText(l['etaSeconds'])}</td>
          </tr>
        ))}</tbody>
      </table></div>}
      {admin && tenants.length > 0 && (
        <div className="table-wrap"><table data-testid="backlog-tenants">
          <caption>Organizations with the most waiting</caption>
          <thead><tr><th scope="col">Organization</th><th scope="col">Waiting</th><th scope="col">Oldest waiting</th></tr></thead>
          <tbody>{tenants.map((t) => (
            <tr key={String(t['organizationId'])}><td><code>{str(t['organizationId'])}</code></td><td>{Number(t['waiting'] ?? 0).toLocaleString()}</td><td>{waitText(t['oldestWaitingSeconds'])}</td></tr>
          ))}</tbody>
        </table></div>
      )}
    </section>
  );
}
