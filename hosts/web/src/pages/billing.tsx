import { useEffect, useState, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, asList, type ApiError } from '../api.ts';
import { Link, useLocation } from '../router.tsx';
import { useSession } from '../session.tsx';
import { Badge, Empty, ErrorBanner, Field, Loading, Notice, Page, Requires, ghs, str, toApiError, useAsync, useForm } from '../ui.tsx';

interface Options { currency?: string; minAmount?: number; maxAmount?: number; presets?: number[]; gateway?: string; available?: boolean }
const METHODS = ['gateway', 'mobile_money', 'card', 'bank_transfer', 'ussd', 'qr', 'apple_pay'];

export function BillingPage(): ReactNode {
  return <Page title="Billing"><Requires needs={['GET /billing/wallet', 'POST /billing/top-up', 'GET /billing/top-up-options']} feature="Billing"><Billing /></Requires></Page>;
}

function Billing(): ReactNode {
  const session = useSession();
  const wallet = useAsync(async () => api.get<Record<string, unknown>>('/billing/wallet'));
  const options = useAsync(async () => api.get<Options>('/billing/top-up-options'));
  const usage = useAsync(async () => api.get<Record<string, unknown>>('/billing/usage?months=3').catch(() => null));
  const invoices = useAsync(async () => asList<Record<string, unknown>>(await api.get('/billing/invoices').catch(() => [])));
  const form = useForm({ amount: '', paymentMethod: 'gateway' });
  const [invoiceError, setInvoiceError] = useState<ApiError | null>(null);
  const o = options.data ?? {};
  const onSubmit = form.submit(async (v) => {
    const result = await api.post<Record<string, unknown>>('/billing/top-up', { amount: Number(v.amount), paymentMethod: v.paymentMethod });
    const url = result['checkoutUrl'] ?? result['authorizationUrl'] ?? result['redirectUrl'];
    if (typeof url === 'string') { window.location.assign(url); return; }
    await wallet.reload();
    await session.refresh();
  });
  const download = async (id: string): Promise<void> => {
    setInvoiceError(null);
    try {
      const file = await api.download(`/billing/invoices/${encodeURIComponent(id)}?format=csv`);
      const url = URL.createObjectURL(file.blob);
      const a = document.createElement('a'); a.href = url; a.download = file.filename; document.body.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) { setInvoiceError(toApiError(e)); }
  };
  const channels = asList<Record<string, unknown>>(usage.data?.['channels']).map((c) => ({ channel: str(c['channel']), messages: Number(c['messages'] ?? 0), cost: Number(c['cost'] ?? 0) }));
  return (
    <>
      <div className="cards">
        <section className="card stat" aria-labelledby="wallet-h">
          <h2 id="wallet-h">Wallet balance</h2>
          {wallet.loading && !wallet.data ? <Loading /> : <p className="big-number" data-testid="wallet-balance">{ghs(wallet.data?.['balance'])}</p>}
          <ErrorBanner error={wallet.error} />
          {typeof wallet.data?.['lowBalanceThreshold'] === 'number' && <p className="hint">Low-balance alert below {ghs(wallet.data['lowBalanceThreshold'])}</p>}
          {typeof wallet.data?.['trialCredit'] === 'number' && wallet.data['trialCredit'] > 0 && (
            <p className="hint" data-testid="trial-credit">Includes a trial credit of {ghs(wallet.data['trialCredit'])} to try sending (not refundable).</p>
          )}
        </section>
        <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="topup-h">
          <h2 id="topup-h">Top up</h2>
          {o.available === false && <Notice kind="warning">The payment gateway is not available right now.</Notice>}
          <ErrorBanner error={form.error ?? options.error} shownFields={['amount', 'paymentMethod']} />
          <div className="presets" role="group" aria-label="Preset amounts">
            {(o.presets ?? []).map((p) => <button key={p} type="button" className={`secondary${Number(form.values.amount) === p ? ' selected' : ''}`} aria-pressed={Number(form.values.amount) === p} onClick={() => form.set('amount', String(p))}>{ghs(p)}</button>)}
          </div>
          <div className="row">
            <Field label={`Amount (${o.currency ?? 'GHS'})`} name="amount" error={form.error} hint={o.minAmount !== undefined ? `Between ${ghs(o.minAmount)} and ${ghs(o.maxAmount)}` : undefined}>
              {(p) => <input {...p} type="number" inputMode="decimal" step="0.01" min={o.minAmount} max={o.maxAmount} value={form.values.amount} onChange={(e) => form.set('amount', e.target.value)} />}
            </Field>
            <Field label="Method" name="paymentMethod" error={form.error}>{(p) => <select {...p} value={form.values.paymentMethod} onChange={(e) => form.set('paymentMethod', e.target.value)}>{METHODS.map((m) => <option key={m} value={m}>{m.replace('_', ' ')}</option>)}</select>}</Field>
          </div>
          <button type="submit" disabled={form.submitting || o.available === false}>{form.submitting ? 'Opening the checkout…' : `Pay with ${o.gateway ?? 'the gateway'}`}</button>
        </form>
      </div>
      <section className="card" aria-labelledby="usage-h">
        <h2 id="usage-h">Usage, last 3 months</h2>
        {usage.loading && !usage.data ? <Loading /> : channels.length === 0 || channels.every((c) => c.messages === 0) ? <Empty title="No usage yet">Messages you send are counted here per channel.</Empty> : (
          <>
            <div className="chart" role="img" aria-label={`Cost per channel: ${channels.map((c) => `${c.channel} ${ghs(c.cost)}`).join(', ')}`}>
              <ResponsiveContainer width="100%" height={240}>
                <BarChart data={channels}><CartesianGrid strokeDasharray="3 3" vertical={false} /><XAxis dataKey="channel" /><YAxis yAxisId="messages" allowDecimals={false} width={40} /><YAxis yAxisId="cost" orientation="right" width={60} tickFormatter={(v: number) => v.toFixed(2)} /><Tooltip formatter={(v, n) => (n === 'cost (GHS)' ? ghs(v) : String(v))} /><Legend /><Bar yAxisId="messages" dataKey="messages" fill="#2563eb" name="messages" isAnimationActive={false} /><Bar yAxisId="cost" dataKey="cost" fill="#16a34a" name="cost (GHS)" isAnimationActive={false} /></BarChart>
              </ResponsiveContainer>
            </div>
            <div className="table-wrap"><table><caption className="sr-only">Usage per channel</caption><thead><tr><th scope="col">Channel</th><th scope="col">Messages</th><th scope="col">Cost</th></tr></thead>
              <tbody>{channels.map((c) => <tr key={c.channel}><td>{c.channel}</td><td>{c.messages}</td><td>{ghs(c.cost)}</td></tr>)}</tbody></table></div>
          </>
        )}
      </section>
      <section className="card" aria-labelledby="inv-h">
        <h2 id="inv-h">Statements</h2>
        <ErrorBanner error={invoiceError} />
        {invoices.data?.length === 0 && <Empty title="No statements yet">A statement of the wallet is made at the start of each month for the month before.</Empty>}
        {invoices.data && invoices.data.length > 0 && (
          <div className="table-wrap"><table>
            <thead><tr><th scope="col">Month</th><th scope="col">Opening</th><th scope="col">Top-ups</th><th scope="col">Spent</th><th scope="col">Closing</th><th scope="col"><span className="sr-only">Download</span></th></tr></thead>
            <tbody>{invoices.data.map((i) => (
              <tr key={String(i['id'])}><td>{str(i['period'] ?? i['number'])}</td><td>{ghs(i['openingBalance'])}</td><td>{ghs(i['topUps'] ?? i['amount'])}</td><td>{ghs(i['debits'])}</td><td>{ghs(i['closingBalance'])}</td>
                <td><button type="button" className="secondary small" onClick={() => void download(String(i['id']))}>CSV</button></td></tr>
            ))}</tbody>
          </table></div>
        )}
      </section>
    </>
  );
}

/** Where the gateway sends the payer back (`?reference=`): verifies the payment and shows the new balance. */
export function PaymentReturnPage(): ReactNode {
  const { query } = useLocation();
  const session = useSession();
  const reference = query.get('reference') ?? query.get('trxref') ?? '';
  const [result, setResult] = useState<Record<string, unknown> | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  useEffect(() => {
    if (!reference) return;
    api.post<Record<string, unknown>>('/billing/verify-payment', { reference })
      .then((r) => { setResult(r); void session.refresh(); }, (e) => setError(toApiError(e)));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reference]);
  return (
    <Page title="Payment">
      {!reference && <Notice kind="warning">No payment reference in this address. <Link to="/app/billing">Back to billing</Link>.</Notice>}
      {reference && !result && !error && <Loading label="Confirming your payment" />}
      {error && <><ErrorBanner error={error} /><p><Link to="/app/billing">Back to billing</Link> to try again.</p></>}
      {result && (
        <Notice kind="success">
          {result['status'] === 'already_processed' ? 'This payment was already credited to your wallet' : 'Payment received and credited to your wallet'} ({reference}).
          {' '}{result['amount'] !== undefined && <>Amount {ghs(result['amount'])}. </>}
          New balance <strong data-testid="return-balance">{ghs(result['balance'])}</strong>. <Link to="/app/billing">Back to billing</Link>
        </Notice>
      )}
    </Page>
  );
}
