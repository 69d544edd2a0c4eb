import type { ReactNode } from 'react';
import { api, asList } from '../api.ts';
import { Link } from '../router.tsx';
import { useSession } from '../session.tsx';
import { Sparkline } from '../svg-charts.tsx';
import { Badge, Empty, ErrorBanner, Loading, Notice, Page, Time, str, useAsync } from '../ui.tsx';

type Row = Record<string, unknown>;

/** Platform administrators: one provider's last health checks (GET /providers/{id}) as a latency sparkline and a table. */
export function AdminProviderHealthPage({ id }: { id: string }): ReactNode {
  const session = useSession();
  const provider = useAsync(async () => api.get<Row>(`/providers/${encodeURIComponent(id)}`), [id]);
  const p = provider.data;
  const title = p ? `Health of ${str(p['name'])}` : 'Provider health';
  if (!session.isAdmin) return <Page title={title}><Notice kind="warning">Only platform administrators see this page.</Notice></Page>;
  const history = asList<Row>(p?.['healthHistory']);
  const oldestFirst = [...history].reverse();
  return (
    <Page title={title} actions={<Link to="/app/admin/providers">All providers</Link>}>
      <ErrorBanner error={provider.error} />
      {provider.loading && !p && <Loading />}
      {p && <p className="hint">{str(p['channel'])} · {str(p['vendor'])}{p['active'] === false ? ' · inactive' : ''} · {history.length === 1 ? 'its only check' : `the last ${history.length} checks, newest first`}; latency over time:</p>}
      {p && history.length === 0 && <Empty title="Never checked">Run a health check on the Providers page.</Empty>}
      {history.length > 0 && (
        <>
          <Sparkline values={oldestFirst.map((h) => Number(h['latencyMs']) || 0)} bad={oldestFirst.map((h) => h['ok'] === false)}
            label={`Health check latency, oldest to newest; ${history.filter((h) => h['ok'] === false).length} of ${history.length} failed`} />
          <div className="table-wrap"><table data-testid="health-history">
            <thead><tr><th scope="col">Checked</th><th scope="col">Status</th><th scope="col" className="num">Latency</th><th scope="col">Detail</th><th scope="col" className="num">Balance</th></tr></thead>
            <tbody>{history.map((h, i) => (
              <tr key={`${str(h['checkedAt'])}-${i}`}>
                <td><Time value={h['checkedAt']} /></td><td><Badge value={h['status']} /></td><td className="num">{str(h['latencyMs'])} ms</td>
                <td>{str(h['detail'], '')}</td><td className="num">{str(h['balance'])}</td>
              </tr>
            ))}</tbody>
          </table></div>
        </>
      )}
    </Page>
  );
}
