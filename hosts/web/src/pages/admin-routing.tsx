import { useState, type FormEvent, type ReactNode } from 'react';
import { api, asList } from '../api.ts';
import { useSession } from '../session.tsx';
import { Badge, Empty, ErrorBanner, Loading, Notice, Page, Time, str, toApiError, useAsync } from '../ui.tsx';
import type { ApiError } from '../api.ts';

/** What a stored shift did to the network's traffic (learning, or an administrator's pin). */
const SHIFT_LABELS: Record<string, string> = { away: 'shifted away', back: 'came back', pinned: 'pinned here', unpinned: 'pin lifted' };

type Row = Record<string, unknown>;

const pct = (x: unknown) => (typeof x === 'number' ? `${(x * 100).toFixed(1)}%` : '—');
const secs = (x: unknown) => (typeof x === 'number' ? `${Math.round(x / 1000)} s` : '—');

/**
 * Platform administrators: network routes (providers, price, pin per country and network), what learning
 * holds now (degraded providers per network), the shifts it made and the last hour per provider and
 * network (GET /admin/routing; docs/routing.md).
 */
export function AdminRoutingPage(): ReactNode {
  const session = useSession();
  const overview = useAsync(async () => api.get<Row>('/admin/routing'), []);
  const [form, setForm] = useState({ country: 'GH', network: 'MTN', providers: '', pricePerUnit: '', pinned: '' });
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  if (!session.isAdmin) return <Page title="Network routing"><Notice kind="warning">Only platform administrators see this page.</Notice></Page>;
  const data = overview.data;
  const routes = asList<Row>(data?.['routes']);
  const learning = asList<Row>(data?.['learning']);
  const shifts = asList<Row>(data?.['shifts']);
  const performance = asList<Row>(data?.['performance']);
  const plans = asList<Row>(data?.['networks']);
  const networks = asList<Row>(plans.find((p) => p['country'] === form.country)?.['networks']).map((n) => str(n['network']));

  async function save(event: FormEvent): Promise<void> {
    event.preventDefault();
    setError(null); setSaved(null);
    try {
      const route = await api.put<Row>('/admin/network-routes', {
        channel: 'SMS', country: form.country, network: form.network, providers: form.providers.split(',').map((p) => p.trim()).filter(Boolean),
        pricePerUnit: form.pricePerUnit.trim() === '' ? null : Number(form.pricePerUnit), pinned: form.pinned.trim() === '' ? null : form.pinned.trim(),
      });
      setSaved(`Saved the ${str(route['country'])} ${str(route['network'])} route`);
      await overview.reload();
    } catch (e) { setError(toApiError(e)); }
  }

  return (
    <Page title="Network routing">
      <ErrorBanner error={overview.error} />
      {overview.loading && !data && <Loading />}
      <h2>Routes per network (SMS)</h2>
      {data && routes.length === 0 && <Empty title="No network routes">Every network follows its country's providers and price.</Empty>}
      {routes.length > 0 && (
        <div className="table-wrap"><table data-testid="network-routes">
          <thead><tr><th scope="col">Country</th><th scope="col">Network</th><th scope="col">Providers, in order</th><th scope="col" className="num">Price (GHS)</th><th scope="col">Pinned</th><th scope="col" /></tr></thead>
          <tbody>{routes.map((r) => (
            <tr key={str(r['id'])}>
              <td>{str(r['country'])}</td><td>{str(r['network'])}</td><td>{asList<string>(r['providers']).join(', ') || '—'}</td>
              <td className="num">{r['pricePerUnit'] === null ? 'country price' : `${str(r['pricePerUnit'])} / ${str(r['unit'])}`}</td><td>{str(r['pinned'], '—')}</td>
              <td><button type="button" className="link" onClick={() => { void api.delete(`/admin/network-routes/${str(r['id'])}`).then(() => overview.reload()).catch((e: unknown) => setError(toApiError(e))); }}>Delete</button></td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
      <form onSubmit={(e) => { void save(e); }} className="inline-form" aria-label="Save a network route">
        <label htmlFor="route-country">Country</label>
        <select id="route-country" value={form.country} onChange={(e) => setForm({ ...form, country: e.target.value, network: '' })}>
          {plans.map((p) => <option key={str(p['country'])} value={str(p['country'])}>{str(p['country'])}</option>)}</select>
        <label htmlFor="route-network">Network</label>
        <select id="route-network" value={form.network} onChange={(e) => setForm({ ...form, network: e.target.value })}>
          <option value="">Choose</option>{networks.map((n) => <option key={n} value={n}>{n}</option>)}</select>
        <label htmlFor="route-providers">Providers (comma-separated)</label>
        <input id="route-providers" name="providers" value={form.providers} onChange={(e) => setForm({ ...form, providers: e.target.value })} />
        <label htmlFor="route-price">Price per segment (GHS)</label>
        <input id="route-price" name="pricePerUnit" inputMode="decimal" value={form.pricePerUnit} onChange={(e) => setForm({ ...form, pricePerUnit: e.target.value })} />
        <label htmlFor="route-pinned">Pin provider</label>
        <input id="route-pinned" name="pinned" value={form.pinned} onChange={(e) => setForm({ ...form, pinned: e.target.value })} />
        <button type="submit">Save route</button>
      </form>
      <ErrorBanner error={error} />
      {saved && <Notice kind="success">{saved}</Notice>}

      <h2>Learning now</h2>
      {data && learning.filter((s) => s['degraded'] === true).length === 0 && <p className="hint">No provider is shifted away from any network.</p>}
      <ul data-testid="route-learning">{learning.filter((s) => s['degraded'] === true).map((s) => (
        <li key={`${str(s['provider'])}-${str(s['country'])}-${str(s['network'])}`}><Badge value="degraded" /> {str(s['provider'])} for {str(s['country'])} {str(s['network'])} since <Time value={s['since']} />: {str(s['reason'])}</li>
      ))}</ul>

      <h2>Shifts</h2>
      {data && shifts.length === 0 && <p className="hint">No shifts yet.</p>}
      {shifts.length > 0 && (
        <div className="table-wrap"><table data-testid="route-shifts">
          <thead><tr><th scope="col">When</th><th scope="col">Provider</th><th scope="col">Network</th><th scope="col">Traffic</th><th scope="col">Why</th></tr></thead>
          <tbody>{shifts.map((s, i) => (
            <tr key={`${str(s['at'])}-${i}`}><td><Time value={s['at']} /></td><td>{str(s['provider'])}</td><td>{str(s['country'])} {str(s['network'])}</td>
              <td>{SHIFT_LABELS[str(s['direction'])] ?? str(s['direction'])}</td><td>{str(s['reason'])}</td></tr>
          ))}</tbody>
        </table></div>
      )}

      <h2>Last hour per provider and network</h2>
      {data && performance.length === 0 && <p className="hint">No sends to a known network in the last hour.</p>}
      {performance.length > 0 && (
        <div className="table-wrap"><table data-testid="route-performance">
          <thead><tr><th scope="col">Network</th><th scope="col">Provider</th><th scope="col" className="num">Sent</th><th scope="col" className="num">Reports</th>
            <th scope="col" className="num">Delivery rate</th><th scope="col" className="num">Slow (&gt; 5 min)</th><th scope="col" className="num">p50</th><th scope="col" className="num">p95</th></tr></thead>
          <tbody>{performance.map((p) => (
            <tr key={`${str(p['provider'])}-${str(p['country'])}-${str(p['network'])}`}><td>{str(p['country'])} {str(p['network'])}</td><td>{str(p['provider'])}</td>
              <td className="num">{str(p['sent'])}</td><td className="num">{str(p['reported'])}</td><td className="num">{pct(p['deliveryRate'])}</td><td className="num">{pct(p['slowShare'])}</td>
              <td className="num">{secs(p['latencyP50Ms'])}</td><td className="num">{secs(p['latencyP95Ms'])}</td></tr>
          ))}</tbody>
        </table></div>
      )}
      <p className="hint">Numbering plans: {plans.map((p) => `${str(p['country'])} (${str(p['asOf'])})`).join(', ')}.</p>
    </Page>
  );
}
