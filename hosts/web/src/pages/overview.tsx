import type { ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, asList } from '../api.ts';
import { Link } from '../router.tsx';
import { OutboxBanner } from '../outbox-banner.tsx';
import { WorkflowFailureBanner } from '../workflow-failure-banner.tsx';
import { useSession } from '../session.tsx';
import { formatTime, percent as pct, toSeries } from '../format.ts';
import { SEND_CHANNELS as CHANNELS, Empty, ErrorBanner, Loading, Notice, Page, ghs, str, useAsync, useRoutes } from '../ui.tsx';

type Row = Record<string, unknown>;
const COLORS: Record<string, string> = { SMS: '#2563eb', WHATSAPP: '#16a34a', EMAIL: '#9333ea', PUSH: '#ea580c', VOICE: '#0891b2', total: '#111827' };

function change(v: unknown): string {
  if (typeof v !== 'number') return 'no figure for last month';
  return `${v > 0 ? '▲ +' : v < 0 ? '▼ ' : ''}${v.toFixed(1)}% vs the same days last month`;
}

/** Month to date against the same days of the previous month (messages, spend, delivery rate). */
function Trends({ trends }: { trends: Row }): ReactNode {
  const cur = (trends['currentMonth'] ?? {}) as Row;
  const prev = (trends['previousMonth'] ?? {}) as Row;
  return (
    <div className="table-wrap"><table>
      <caption>Month to date</caption>
      <thead><tr><th scope="col"></th><th scope="col">This month</th><th scope="col">Last month, same days</th><th scope="col">Change</th></tr></thead>
      <tbody>
        <tr><th scope="row">Messages</th><td>{str(cur['messages'])}</td><td>{str(prev['messages'])}</td><td>{change(trends['messagesChangePercent'])}</td></tr>
        <tr><th scope="row">Spend</th><td>{ghs(cur['spend'])}</td><td>{ghs(prev['spend'])}</td><td>{change(trends['spendChangePercent'])}</td></tr>
        <tr><th scope="row">Delivery rate</th><td>{pct(cur['deliveryRate'])}</td><td>{pct(prev['deliveryRate'])}</td><td></td></tr>
      </tbody>
    </table></div>
  );
}

export function OverviewPage(): ReactNode {
  const session = useSession();
  const routes = useRoutes();
  const hasAnalytics = routes?.has('GET /analytics/overview') ?? false;
  const overview = useAsync(async () => (hasAnalytics ? api.get<Row>('/analytics/overview') : null), [hasAnalytics]);
  const recs = useAsync(async () => (routes?.has('GET /analytics/recommendations') ? asList<Row | string>(await api.get('/analytics/recommendations')) : []), [routes]);
  const o = overview.data;
  const series = o ? toSeries(o) : [];
  const channels = CHANNELS.filter((c) => series.some((d) => Number(d[c] ?? 0) > 0));
  const totals = (o?.['totals'] ?? o ?? {}) as Row;
  const trends = (o?.['trends'] ?? o?.['monthOverMonth'] ?? null) as Row | null;
  const spend = totals['spend'] ?? totals['totalSpend'] ?? totals['cost'];
  const messages = totals['messages'] ?? totals['totalMessages'] ?? totals['total'] ?? series.reduce((n, d) => n + CHANNELS.reduce((m, c) => m + Number(d[c] ?? 0), 0), 0);
  // Fresh on every visit (the session's copy is from sign-in): the balance moves with every send.
  const current = useAsync(async () => api.get<Record<string, unknown> & { wallet?: { balance?: number } }>('/organizations/current'), []);
  const org = current.data ?? session.organization;
  return (
    <Page title="Overview">
      <OutboxBanner />
      <WorkflowFailureBanner />
      {org && org['onboardingComplete'] !== true && <Notice kind="info">Finish <Link to="/app/onboarding">setting up your organization</Link> (details and the compliance acknowledgement) before you go live.</Notice>}
      <div className="cards">
        <section className="card stat"><h2>Wallet</h2><p className="big-number" data-testid="overview-balance">{ghs(org?.wallet?.balance)}</p><Link to="/app/billing">Top up</Link></section>
        <section className="card stat"><h2>Messages, 30 days</h2><p className="big-number" data-testid="overview-messages">{o ? str(messages) : '—'}</p></section>
        <section className="card stat"><h2>Delivery rate</h2><p className="big-number">{o ? pct(totals['deliveryRate']) : '—'}</p>{o && totals['deliveryRate'] == null && <p className="hint">No delivery outcome yet</p>}{o && Number(totals['outbox'] ?? 0) > 0 && <p className="hint" data-testid="overview-outbox">{str(totals['outbox'])} written to the outbox, not delivered</p>}</section>
        <section className="card stat"><h2>Spend, 30 days</h2><p className="big-number">{o ? ghs(spend && typeof spend === 'object' ? (spend as Row)['total'] ?? (spend as Row)['amount'] : spend) : '—'}</p></section>
      </div>
      {routes && !hasAnalytics && <Notice kind="warning">Analytics are not available on this server yet; the charts appear once they are.</Notice>}
      {hasAnalytics && (
        <section className="card" aria-labelledby="vol-h">
          <h2 id="vol-h">Volume per channel, last 30 days</h2>
          <ErrorBanner error={overview.error} />
          {overview.loading && !o && <Loading />}
          {o && channels.length === 0 && <Empty title="No messages in the last 30 days"><p><Link to="/app/send">Send your first message</Link> or create an <Link to="/app/api-keys">API key</Link> for your servers.</p></Empty>}
          {channels.length > 0 && (
            <div className="chart" role="img" aria-label={`Messages per day per channel over the last 30 days: ${channels.join(', ')}`}>
              <ResponsiveContainer width="100%" height={280}>
                <BarChart data={series}><CartesianGrid strokeDasharray="3 3" vertical={false} /><XAxis dataKey="date" tickFormatter={(d: string) => formatTime(`${d}T00:00:00Z`, 'UTC', 'day')} minTickGap={12} /><YAxis allowDecimals={false} width={40} /><Tooltip labelFormatter={(d) => formatTime(`${String(d)}T00:00:00Z`, 'UTC', 'day')} /><Legend />
                  {channels.map((c) => <Bar key={c} dataKey={c} stackId="volume" fill={COLORS[c]} isAnimationActive={false} />)}
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
          {trends && <Trends trends={trends} />}
        </section>
      )}
      {(recs.data?.length ?? 0) > 0 && (
        <section className="card" aria-labelledby="rec-h">
          <h2 id="rec-h">Recommendations</h2>
          <ul className="recommendations">{recs.data!.slice(0, 4).map((r, i) => <li key={i}>{typeof r === 'string' ? r : <><strong>{str(r['title'] ?? r['kind'] ?? r['type'], '')}</strong> {str(r['detail'] ?? r['message'] ?? r['description'] ?? r['text'], '')}</>}</li>)}</ul>
        </section>
      )}
      <section className="card" aria-labelledby="start-h">
        <h2 id="start-h">Getting started</h2>
        <ol className="checklist">
          <li><Link to="/app/api-keys">Create an API key</Link> for your servers</li>
          <li><Link to="/app/templates">Write a template</Link> with variables</li>
          <li><Link to="/app/events">Define an event</Link> your code triggers by name</li>
          <li><Link to="/app/send">Send a test message</Link> and follow it in the <Link to="/app/logs">delivery logs</Link></li>
        </ol>
      </section>
    </Page>
  );
}
