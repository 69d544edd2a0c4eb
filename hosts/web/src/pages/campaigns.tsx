import { useEffect, useState, type ReactNode } from 'react';
import { api, asList, type ApiError } from '../api.ts';
import { etaText, plural } from '../format.ts';
import { Link } from '../router.tsx';
import { Badge, CHANNELS, Empty, ErrorBanner, Field, Loading, Notice, Page, Progress, Requires, Select, Time, ghs, str, toApiError, useAsync, useForm, useFormatTime, useRoutes } from '../ui.tsx';

type Campaign = Record<string, unknown> & { id: string; name: string };
type Row = Record<string, unknown> & { id: string; name: string };

const ACTIVE = ['SENDING', 'PAUSED', 'SCHEDULED', 'RUNNING', 'IN_PROGRESS', 'PROCESSING', 'QUEUED', 'STARTED'];

export function CampaignsPage(): ReactNode {
  return <Page title="Campaigns"><Requires needs={['GET /campaigns', 'POST /campaigns', 'POST /campaigns/{id}/send']} feature="Campaigns"><Campaigns /></Requires></Page>;
}

function Campaigns(): ReactNode {
  const campaigns = useAsync(async () => asList<Campaign>(await api.get('/campaigns')));
  const templates = useAsync(async () => asList<Row>(await api.get('/templates')));
  const segments = useAsync(async () => asList<Row>(await api.get('/segments').catch(() => [])));
  // Click rates of tracked links (docs/links.md), per campaign; absent when the API has no click analytics.
  const routes = useRoutes();
  const clicks = useAsync(async () => (routes?.has('GET /analytics/clicks')
    ? new Map((await api.get<{ items: Array<{ campaignId: string; messages: number; clickRate: number }> }>('/analytics/clicks?by=campaign')).items.map((r) => [r.campaignId, r]))
    : new Map<string, { messages: number; clickRate: number }>()), [routes]);
  const form = useForm({ name: '', channel: 'SMS', templateId: '', segmentId: '', scheduledAt: '' });
  const [created, setCreated] = useState<Campaign | null>(null);
  const onSubmit = form.submit(async (v) => {
    const body: Record<string, unknown> = { name: v.name, channel: v.channel };
    if (v.templateId) body['templateId'] = v.templateId;
    if (v.segmentId) body['segmentId'] = v.segmentId;
    if (v.scheduledAt) body['scheduledAt'] = new Date(v.scheduledAt).toISOString();
    setCreated(await api.post<Campaign>('/campaigns', body));
    form.reset();
    await campaigns.reload();
  });
  // Live progress: refresh the list while a campaign is sending.
  const sending = (campaigns.data ?? []).some((c) => ACTIVE.includes(String(c['status']).toUpperCase()));
  useEffect(() => {
    if (!sending) return;
    const t = setInterval(() => void campaigns.reload(), 2000);
    return () => clearInterval(t);
  }, [sending, campaigns]);

  return (
    <>
      {created && <Notice kind={String(created['status']).includes('APPROVAL') ? 'warning' : 'success'}>Campaign “{created.name}” created: <Badge value={created['status'] ?? 'DRAFT'} />.</Notice>}
      <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="cp-h">
        <h2 id="cp-h">New campaign</h2>
        <ErrorBanner error={form.error} shownFields={['name', 'channel', 'templateId', 'segmentId', 'scheduledAt']} />
        <div className="row">
          <Field label="Name" name="name" error={form.error}>{(p) => <input {...p} value={form.values.name} onChange={(e) => form.set('name', e.target.value)} />}</Field>
          <Field label="Channel" name="channel" error={form.error}>{(p) => <Select {...p} options={CHANNELS} value={form.values.channel} onChange={(c) => form.set('channel', c)} />}</Field>
        </div>
        <div className="row">
          <Field label="Template" name="templateId" error={form.error}>{(p) => <select {...p} value={form.values.templateId} onChange={(e) => form.set('templateId', e.target.value)}><option value="">Choose…</option>{(templates.data ?? []).filter((t) => t['channel'] === form.values.channel).map((t) => <option key={t.id} value={t.id}>{t.name} ({str(t['status'])})</option>)}</select>}</Field>
          <Field label="Segment" name="segmentId" error={form.error}>{(p) => <select {...p} value={form.values.segmentId} onChange={(e) => form.set('segmentId', e.target.value)}><option value="">Choose…</option>{(segments.data ?? []).map((s) => <option key={s.id} value={s.id}>{s.name}{s['contactCount'] !== undefined ? ` (${str(s['contactCount'])})` : ''}</option>)}</select>}</Field>
          <Field label="Schedule (optional)" name="scheduledAt" error={form.error}>{(p) => <input {...p} type="datetime-local" value={form.values.scheduledAt} onChange={(e) => form.set('scheduledAt', e.target.value)} />}</Field>
        </div>
        <button type="submit" disabled={form.submitting}>Create campaign</button>
      </form>
      <h2>Campaigns</h2>
      <ErrorBanner error={campaigns.error} />
      {campaigns.loading && !campaigns.data && <Loading />}
      {campaigns.data?.length === 0 && <Empty title="No campaigns yet">Create a template and a segment first, then a campaign that sends one to the other.</Empty>}
      {campaigns.data?.map((c) => <CampaignCard key={c.id} campaign={c} clicks={clicks.data?.get(c.id) ?? null} onChange={() => void campaigns.reload()} />)}
    </>
  );
}

function CampaignCard({ campaign, clicks, onChange }: { campaign: Campaign; clicks: { messages: number; clickRate: number } | null; onChange: () => void }): ReactNode {
  const routes = useRoutes();
  const estimateRoute = routes ? (['POST', 'GET'].map((m) => `${m} /campaigns/{id}/estimate`).find((r) => routes.has(r)) ?? null) : null;
  const [estimate, setEstimate] = useState<Record<string, unknown> | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const fmt = useFormatTime();
  const status = String(campaign['status'] ?? 'DRAFT').toUpperCase();
  const stats = (campaign['counts'] ?? campaign['stats'] ?? campaign['progress'] ?? {}) as Record<string, unknown>;
  const n = (k: string): number => Number(stats[k] ?? 0) || 0;
  // The server's progress (docs/campaigns.md, "Progress and ETA"): contacts handed over of the audience, and the ETA of the current phase.
  const progress = (campaign['progress'] ?? null) as Record<string, unknown> | null;
  const total = progress ? Number(progress['total'] ?? 0) || 0 : n('recipients') || n('total');
  // Without it: handed to the pipeline and settled one way or another (queued and pending are still on their way).
  const done = progress ? Number(progress['processed'] ?? 0) || 0 : n('sent') + n('delivered') + n('failed') + n('rejected') + n('skipped');
  const canCancel = (routes?.has('POST /campaigns/{id}/cancel') ?? false) && ['DRAFT', 'PENDING_APPROVAL', 'SCHEDULED', 'SENDING', 'PAUSED'].includes(status);
  const canPause = (routes?.has('POST /campaigns/{id}/pause') ?? false) && status === 'SENDING' && progress?.['phase'] === 'FAN_OUT';
  const canResume = (routes?.has('POST /campaigns/{id}/resume') ?? false) && status === 'PAUSED';

  const run = async (action: () => Promise<void>): Promise<void> => {
    setBusy(true); setError(null);
    try { await action(); } catch (e) { setError(toApiError(e)); } finally { setBusy(false); }
  };
  const doEstimate = (): Promise<void> => run(async () => {
    const path = `/campaigns/${encodeURIComponent(campaign.id)}/estimate`;
    setEstimate(estimateRoute?.startsWith('GET') ? await api.get(path) : await api.post(path));
  });
  const cancel = (): Promise<void> => run(async () => {
    if (!confirm(`Cancel “${campaign.name}”? Messages already handed to providers still go out.`)) return;
    await api.post(`/campaigns/${encodeURIComponent(campaign.id)}/cancel`);
    onChange();
  });
  const toggle = (action: 'pause' | 'resume'): Promise<void> => run(async () => {
    await api.post(`/campaigns/${encodeURIComponent(campaign.id)}/${action}`);
    onChange();
  });
  const send = (): Promise<void> => run(async () => {
    if (!confirm(`Send “${campaign.name}” now?`)) return;
    await api.post(`/campaigns/${encodeURIComponent(campaign.id)}/send`);
    onChange();
  });
  return (
    <article className="card" aria-labelledby={`cp-${campaign.id}`}>
      <header className="row-between">
        <h3 id={`cp-${campaign.id}`}>{campaign.name} <Badge value={status} /></h3>
        <div className="actions">
          {estimateRoute && <button type="button" className="secondary" disabled={busy} onClick={() => void doEstimate()}>Estimate</button>}
          {(status === 'DRAFT' || status.includes('APPROVAL')) && <button type="button" disabled={busy || status.includes('APPROVAL')} onClick={() => void send()}>{campaign['scheduledAt'] ? 'Schedule' : 'Send'}</button>}
          {canPause && <button type="button" className="secondary" disabled={busy} onClick={() => void toggle('pause')}>Pause</button>}
          {canResume && <button type="button" disabled={busy} onClick={() => void toggle('resume')}>Resume</button>}
          {canCancel && <button type="button" className="danger" disabled={busy} onClick={() => void cancel()}>Cancel</button>}
        </div>
      </header>
      <p>{str(campaign['channel'])} · scheduled <Time value={campaign['scheduledAt']} /> · created <Time value={campaign['createdAt']} /></p>
      {clicks && <p className="hint" data-testid="campaign-click-rate">Click rate {(clicks.clickRate * 100).toFixed(1)}% of {clicks.messages} messages with tracked links</p>}
      {status.includes('APPROVAL') && <p className="hint">Waiting for a platform administrator’s approval before it can be sent.</p>}
      {status === 'REJECTED' && <p className="field-error">Rejected by a platform administrator{campaign['reviewComment'] ? `: “${str(campaign['reviewComment'])}”` : ''}. See Compliance for the comment.</p>}
      {total > 0 && (
        <>
          <Progress label="Processed" value={Math.min(done, total)} max={total} />
          {progress && (status === 'SENDING' || status === 'PAUSED') && (
            <p className="hint" data-testid="campaign-eta">
              {status === 'PAUSED'
                ? 'Paused: no more recipients are handed over until you resume (messages already queued still go out).'
                : `${progress['phase'] === 'FAN_OUT' ? 'Handing recipients over' : 'Delivering queued messages'}${typeof progress['ratePerSecond'] === 'number' ? ` at ${str(progress['ratePerSecond'])}/s` : ''}`
                  + ` · ${str(progress['queued'])} queued, ${str(progress['sent'])} sent, ${str(progress['failed'])} failed · ETA ${etaText(progress['etaSeconds'])}`
                  + (progress['estimatedCompletionAt'] ? ` (${fmt(progress['estimatedCompletionAt'])})` : '')}
            </p>
          )}
          <p className="hint">{['recipients', 'queued', 'scheduled', 'sent', 'delivered', 'failed', 'rejected', 'skipped'].filter((k) => stats[k] !== undefined).map((k) => `${k} ${n(k)}`).join(' · ')}</p>
        </>
      )}
      {status === 'SENDING' && n('scheduled') > 0 && (
        <p className="hint" data-testid="campaign-held">
          {n('scheduled')} {n('scheduled') === 1 ? 'message waits' : 'messages wait'} for the send window of the recipient’s country (the hours marketing may reach it)
          or your quiet hours. {n('scheduled') === 1 ? 'It goes' : 'They go'} out when it opens, already paid for: see <Link to="/app/scheduled">Scheduled messages</Link>.
        </p>
      )}
      {typeof campaign['failureReason'] === 'string' && <p className="field-error">{campaign['failureReason']}</p>}
      {estimate && <p data-testid="campaign-estimate">Estimate: {str(estimate['recipients'] ?? estimate['recipientCount'] ?? estimate['count'])} recipients{estimate['segments'] !== undefined && campaign['channel'] === 'SMS' ? `, ${plural(estimate['segments'], 'SMS segment')} per message` : ''}, {ghs(estimate['cost'] ?? estimate['estimatedCost'] ?? estimate['price'])}{estimate['balance'] !== undefined ? ` (balance ${ghs(estimate['balance'])})` : ''}{estimate['sufficientBalance'] === false ? ' — more than your balance: top up first' : ''}</p>}
      {estimate && Array.isArray(estimate['locales']) && (estimate['locales'] as unknown[]).length > 0 && (
        <div className="table-wrap"><table data-testid="campaign-estimate-locales">
          <caption>Cost per locale (docs/templates.md)</caption>
          <thead><tr><th scope="col">Locale</th><th scope="col">Recipients</th><th scope="col">Encoding</th><th scope="col">Segments</th><th scope="col">Per message</th><th scope="col">Cost</th><th scope="col">Characters forcing UCS-2</th></tr></thead>
          <tbody>{(estimate['locales'] as Array<Record<string, unknown>>).map((l) => (
            <tr key={str(l['locale'])}>
              <td>{str(l['locale'])}</td><td>{str(l['recipients'])}</td><td>{str(l['encoding'] ?? 'n/a')}</td><td>{str(l['segments'])}</td>
              <td>{ghs(l['price'])}</td><td>{ghs(l['cost'])}</td>
              <td>{Array.isArray(l['ucs2Characters']) && l['ucs2Characters'].length > 0
                ? (l['ucs2Characters'] as Array<{ char: string; codePoint: string }>).slice(0, 12).map((c, i) => <mark key={i} className="ucs2" title={c.codePoint}>{c.char}</mark>)
                : <span className="hint">none</span>}</td>
            </tr>
          ))}</tbody>
        </table></div>
      )}
      {estimate && (() => {
        const cap = estimate['newTenantCap'] as Record<string, unknown> | null | undefined;
        return cap && Number(cap['wouldRefuse']) > 0
          ? <Notice kind="warning"><span data-testid="campaign-cap-warning">New organizations may send {str(cap['perHour'])} messages an hour: {str(cap['wouldRefuse'])} of these recipients would be refused, so the campaign cannot be sent yet. Target a smaller segment ({str(cap['allowedThisHour'])} this hour), or schedule it after {str(cap['establishedAt'])}.</span></Notice>
          : null;
      })()}
      <ErrorBanner error={error} />
    </article>
  );
}
