import { useEffect, type ReactNode } from 'react';
import { api, asList } from '../api.ts';
import { Link } from '../router.tsx';
import { useSession } from '../session.tsx';
import { MinuteChart, type MinutePoint } from '../svg-charts.tsx';
import { DeliveryBacklogCard } from '../delivery-backlog.tsx';
import { Badge, Empty, ErrorBanner, Loading, Notice, Page, Requires, Time, percent, str, useAsync } from '../ui.tsx';

type Row = Record<string, unknown>;

export const METRICS_REFRESH_MS = 10_000;

/**
 * Platform administrators: per provider figures of the last hour from GET /admin/provider-metrics
 * (docs/observability.md), a per-minute chart of attempts and failures, and the waiting messages per
 * channel; refreshed every 10 seconds.
 */
export function AdminProviderMetricsPage(): ReactNode {
  const session = useSession();
  return (
    <Page title="Provider metrics">
      {session.isAdmin
        ? <><Requires needs={['GET /admin/delivery-backlog']} feature="Delivery backlog"><DeliveryBacklogCard admin /></Requires><Requires needs={['GET /admin/provider-metrics']} feature="Provider metrics"><Metrics /></Requires></>
        : <Notice kind="warning">Only platform administrators see this page.</Notice>}
    </Page>
  );
}

function Metrics(): ReactNode {
  const metrics = useAsync(async () => api.get<Row>('/admin/provider-metrics?minutes=60'));
  const { reload } = metrics;
  useEffect(() => {
    const timer = setInterval(() => { void reload(); }, METRICS_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const data = metrics.data;
  if (!data) return metrics.loading ? <Loading /> : <ErrorBanner error={metrics.error} />;
  const span = (data['window'] ?? {}) as Row;
  const providers = asList<Row>(data['providers']);
  return (
    <>
      <ErrorBanner error={metrics.error} />
      <p className="hint">Last {str(span['minutes'])} minutes from the delivery attempts of every process; updated <Time value={span['generatedAt']} />, every 10 s.</p>
      <h2>Attempts per minute</h2>
      <MinuteChart points={asList<MinutePoint>(data['series'])} label="Delivery attempts per minute, all providers" />
      <h2>Providers</h2>
      {providers.length === 0 ? <Empty title="No providers">Add one on the Providers page.</Empty> : <ProviderTable providers={providers} circuitScope={str(data['circuitScope'], '')} />}
      <h2>Waiting messages</h2>
      <QueueTable queues={asList<Row>(data['queues'])} />
    </>
  );
}

function ProviderTable({ providers, circuitScope }: { providers: Row[]; circuitScope: string }): ReactNode {
  return (
    <>
    <div className="table-wrap"><table className="metrics" data-testid="provider-metrics">
      <thead><tr>
        <th scope="col">Provider</th><th scope="col" className="num">Requests</th><th scope="col" className="num">Error rate</th>
        <th scope="col" className="num">p50 / p95 / max ms</th><th scope="col">Circuit*</th>
        <th scope="col">Health</th><th scope="col">Top errors</th>
      </tr></thead>
      <tbody>{providers.map((p) => <ProviderRow key={str(p['name'])} p={p} />)}</tbody>
    </table></div>
    <p className="hint">* Circuit breaker {circuitScope}: each worker keeps its own (see their nkra_provider_circuit_state metrics). Latency in milliseconds.</p>
    </>
  );
}

function ProviderRow({ p }: { p: Row }): ReactNode {
  const latency = (p['latencyMs'] ?? {}) as Row;
  const health = (p['health'] ?? null) as Row | null;
  const ms = (v: unknown): string => (typeof v === 'number' ? `${v}` : '—');
  return (
    <tr>
      <th scope="row">
        {p['id'] ? <Link to={`/app/admin/providers/${encodeURIComponent(str(p['id']))}`} aria-label={`Health history of ${str(p['name'])}`}>{str(p['name'])}</Link> : str(p['name'])}
        {' '}<small className="hint">{str(p['channel'], '')} {str(p['vendor'], '')}</small>{p['active'] === false && <> <Badge value="inactive" /></>}
      </th>
      <td className="num">{str(p['attempts'])}{Number(p['failed']) > 0 && <small className="hint"> ({str(p['failed'])} failed)</small>}</td>
      <td className="num">{Number(p['attempts']) > 0 ? percent(p['errorRate']) : '—'}</td>
      <td className="num">{ms(latency['p50'])} / {ms(latency['p95'])} / {ms(latency['max'])}</td>
      <td>{p['circuit'] ? <Badge value={p['circuit']} /> : <span className="hint">not loaded</span>}</td>
      <td>{health ? <><Badge value={health['status']} /><br /><small className="hint"><Time value={health['checkedAt']} /></small></> : <span className="hint">never checked</span>}</td>
      <td>{asList<Row>(p['topErrors']).map((e) => <span key={str(e['code'])} className="chip">{str(e['code'])} × {str(e['count'])}</span>)}</td>
    </tr>
  );
}

function QueueTable({ queues }: { queues: Row[] }): ReactNode {
  return (
    <div className="table-wrap"><table className="metrics" data-testid="queue-metrics">
      <thead><tr><th scope="col">Channel</th><th scope="col" className="num">Queued</th><th scope="col" className="num">Pending</th><th scope="col" className="num">Oldest queued</th></tr></thead>
      <tbody>{queues.map((q) => (
        <tr key={str(q['channel'])}>
          <th scope="row">{str(q['channel'])}</th><td className="num">{str(q['queued'])}</td><td className="num">{str(q['pending'])}</td>
          <td className="num">{q['oldestQueuedAgeSeconds'] === null ? '—' : `${str(q['oldestQueuedAgeSeconds'])} s`}</td>
        </tr>
      ))}</tbody>
    </table></div>
  );
}
