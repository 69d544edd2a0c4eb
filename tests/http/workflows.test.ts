import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { testConfig } from '../support/test-config.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

describe('HTTP: workflows', function () {
  this.timeout(60_000);
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let liveKey: string;
  let templateId: string;
  let worker: RunningWorker;
  const sms = new RecordingProvider('SMS', 'workflow-sms');
  sms.next = (m) => ({ accepted: true, providerMessageId: `wf_${m.internalMessageId}`, delivered: true });
  const providers = new StaticProviderDirectory([sms], []);

  async function event(slug: string) {
    const res = await app.api.post('/events', { name: slug, slug, templateId }, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; slug: string };
  }

  /** The bodies SMS'd to `to`, once `count` arrived (the delivery is its own job, after the run's send step). */
  async function received(to: string, count: number): Promise<string[]> {
    for (let i = 0; i < 100 && sms.received.filter((m) => m.to === to).length < count; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    return sms.received.filter((m) => m.to === to).map((m) => m.body);
  }

  async function settled(runId: string, until: (run: { status: string }) => boolean, auth = tenant.auth) {
    let run = (await app.api.get(`/workflow-runs/${runId}`, auth)).body.data;
    for (let i = 0; i < 150 && !until(run); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      run = (await app.api.get(`/workflow-runs/${runId}`, auth)).body.data;
    }
    return run;
  }

  before(async () => {
    app = await startTestApp({ providers });
    tenant = await registerTenant(app.api, 'workflows');
    other = await registerTenant(app.api, 'workflows-other');
    liveKey = (await app.api.post('/api-keys', { name: 'live', isSandbox: false }, tenant.auth)).body.data.key;
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'test credit' }), new Date());
    templateId = (await app.api.post('/templates', { name: 'Update', channel: 'SMS', body: 'Order {{order}} update' }, tenant.auth)).body.data.id;
    const infra = await sharedInfrastructure();
    const container = buildWorkerContainer(testConfig(), createLogger('silent'), infra, { providers });
    await loadProviders(container);
    // The workflow-step handler and the delay resumer, as `npm run worker` runs them.
    worker = await startWorker(infra.boss, container.getAll(WORKER.handlers), createLogger('silent'), container.getAll(WORKER.tasks).filter((t) => t.name === 'resume-workflow-delays'));
  });
  after(async () => { await worker?.stop(); await app?.close(); });

  it('defines versions with PUT, reads them with GET, and answers 400, 401 and 404 as documented', async () => {
    const e = await event('wf.define');
    const implicit = await app.api.get(`/events/${e.id}/workflow`, tenant.auth);
    expect(implicit.status).to.equal(200);
    expect(implicit.body.data).to.include({ implicit: true, version: 0 });
    const put = await app.api.put(`/events/${e.id}/workflow`, { steps: [{ type: 'send' }, { type: 'delay', seconds: 60 }] }, tenant.auth);
    expect(put.status, put.text).to.equal(200);
    expect(put.body.data).to.include({ version: 1, implicit: false });
    const bad = await app.api.put(`/events/${e.id}/workflow`, { steps: [{ type: 'teleport' }] }, tenant.auth);
    expect(bad.status).to.equal(400);
    expect(bad.body.error.code).to.equal('VALIDATION_ERROR');
    expect(bad.body.error.details.fieldErrors).to.have.property('steps');
    const loop = await app.api.put(`/events/${e.id}/workflow`, { steps: [{ type: 'send' }, { type: 'branch', if: { path: 'payload.a', op: 'exists' }, else: { goTo: 1 } }] }, tenant.auth);
    expect(loop.status).to.equal(400);
    expect((await app.api.put(`/events/${e.id}/workflow`, { steps: [{ type: 'send' }] }, other.auth)).status).to.equal(404);
    expect((await app.api.get(`/events/${e.id}/workflow`, other.auth)).status).to.equal(404);
    expect((await app.api.put(`/events/${e.id}/workflow`, { steps: [{ type: 'send' }] }, { apiKey: liveKey })).status).to.equal(401);
    expect((await app.api.get(`/events/${e.id}/workflow/runs?limit=0`, tenant.auth)).status).to.equal(400);
    expect((await app.api.get(`/workflow-runs/${randomUUID()}`, tenant.auth)).status).to.equal(404);
  });

  it('runs a triggered workflow in the worker and shows its timeline; the idempotencyKey replays the run; other tenants see 404', async () => {
    const e = await event('wf.run');
    await app.api.put(`/events/${e.id}/workflow`, { steps: [{ type: 'branch', if: { path: 'payload.order', op: 'exists' } }, { type: 'send' }] }, tenant.auth);
    const body = { event: e.slug, to: '+233241110001', variables: { order: 'A-1' }, idempotencyKey: `wf-${randomUUID()}` };
    const res = await app.api.post('/events/trigger', body, { apiKey: liveKey });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data).to.include({ workflowRun: true, status: 'RUNNING', version: 1 });
    const replay = await app.api.post('/events/trigger', body, { apiKey: liveKey });
    expect(replay.status).to.equal(201);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body.data.id).to.equal(res.body.data.id);
    const run = await settled(res.body.data.id, (r) => r.status === 'COMPLETED');
    expect(run.timeline.map((s: { type: string; outcome: string }) => [s.type, s.outcome])).to.deep.equal([['branch', 'TRUE'], ['send', 'SENT']]);
    expect(run.timeline[1].messageId).to.be.a('string');
    expect(run.cost).to.be.greaterThan(0);
    expect(await received('+233241110001', 1)).to.deep.equal(['Order A-1 update']);
    expect((await app.api.get(`/workflow-runs/${run.id}`, other.auth)).status).to.equal(404);
    const list = await app.api.get(`/events/${e.id}/workflow/runs`, tenant.auth);
    expect(list.body.data.map((r: { id: string }) => r.id)).to.deep.equal([run.id]);
  });

  it('resumes a delay through the worker\'s resumer (no job of its own), then sends the next step', async () => {
    const e = await event('wf.delayed');
    await app.api.put(`/events/${e.id}/workflow`, { steps: [{ type: 'delay', seconds: 1 }, { type: 'send' }] }, tenant.auth);
    const res = await app.api.post('/events/trigger', { event: e.slug, to: '+233241110003', variables: { order: 'D-1' } }, { apiKey: liveKey });
    expect(res.status, res.text).to.equal(201);
    const waiting = await settled(res.body.data.id, (r) => r.status === 'WAITING');
    expect(waiting.timeline[0]).to.include({ type: 'delay', status: 'WAITING', outcome: 'DELAYED' });
    const jobs = await app.container.get(INFRA.database).em().execute<Array<{ n: string }>>(
      `select count(*) as n from pgboss.job where name = 'workflow-step' and data->>'runId' = ? and state = 'created'`, [res.body.data.id]);
    expect(Number(jobs[0]?.n)).to.equal(0);
    const run = await settled(res.body.data.id, (r) => r.status === 'COMPLETED');
    expect(run.timeline.map((s: { type: string; outcome: string }) => [s.type, s.outcome])).to.deep.equal([['delay', 'RESUMED'], ['send', 'SENT']]);
    expect(await received('+233241110003', 1)).to.deep.equal(['Order D-1 update']);
  });

  it('cancels a waiting payment reminder when payment.received is triggered with the same correlationKey', async () => {
    const reminder = await event('wf.reminder');
    const paid = await event('wf.paid');
    await app.api.put(`/events/${reminder.id}/workflow`, { steps: [{ type: 'delay', seconds: 3600 }, { type: 'send' }], cancelOn: [paid.slug] }, tenant.auth);
    await app.api.put(`/events/${paid.id}/workflow`, { steps: [{ type: 'send' }] }, tenant.auth);
    const started = await app.api.post('/events/trigger', { event: reminder.slug, to: '+233241110002', correlationKey: 'inv-9', variables: { order: '9' } }, tenant.auth);
    await settled(started.body.data.id, (r) => r.status === 'WAITING');
    const payment = await app.api.post('/events/trigger', { event: paid.slug, to: '+233241110002', correlationKey: 'inv-9', variables: { order: '9' } }, tenant.auth);
    expect(payment.status).to.equal(201);
    expect(payment.body.data.cancelled).to.deep.equal([started.body.data.id]);
    expect((await app.api.get(`/workflow-runs/${started.body.data.id}`, tenant.auth)).body.data).to.include({ status: 'CANCELLED' });
    await settled(payment.body.data.id, (r) => r.status === 'COMPLETED');
  });

  it('lists runs that gave up with their failed step and error, alerts them until a member acknowledges them (per organization, audited)', async () => {
    const broke = await registerTenant(app.api, 'workflows-broke');
    const storage = app.container.get(INFRA.storage);
    await storage.wallets.update(broke.organizationId, (w) => ({ amount: -w.balance, kind: 'ADJUSTMENT', reference: `drain-${randomUUID()}`, description: 'test: empty wallet' }), new Date());
    const template = (await app.api.post('/templates', { name: 'Due', channel: 'SMS', body: 'Invoice {{n}} due' }, broke.auth)).body.data;
    const e = (await app.api.post('/events', { name: 'Invoice due', slug: 'wf.due', templateId: template.id }, broke.auth)).body.data;
    expect((await app.api.put(`/events/${e.id}/workflow`, { steps: [{ type: 'send' }], retry: { attempts: 1, backoffSeconds: 0 } }, broke.auth)).status).to.equal(200);
    const quiet = await app.api.get('/workflow-runs/failure-alert', broke.auth);
    expect(quiet.status, quiet.text).to.equal(200);
    expect(quiet.body.data).to.include({ windowHours: 24, failedRuns: 0, capped: false, latestFailedAt: null, acknowledged: null });
    const runIds: string[] = [];
    for (const n of ['1', '2', '3']) {
      const started = await app.api.post('/events/trigger', { event: 'wf.due', to: `+23324111100${n}`, correlationKey: `INV-${n}`, variables: { n } }, broke.auth);
      expect(started.status, started.text).to.equal(201);
      runIds.push(started.body.data.id);
    }
    for (const id of runIds) expect((await settled(id, (r) => r.status === 'FAILED', broke.auth)).status).to.equal('FAILED');

    const alert = (await app.api.get('/workflow-runs/failure-alert', broke.auth)).body.data;
    expect(alert).to.include({ failedRuns: 3, capped: false, acknowledged: null });
    const list = await app.api.get('/workflow-runs?status=FAILED&limit=2', broke.auth);
    expect(list.status, list.text).to.equal(200);
    expect(list.body.data.items).to.have.length(2);
    expect(list.body.data.items[0]).to.include({ event: 'wf.due', version: 1, failedStep: 0, failedStepType: 'send', attempts: 1, failedAt: alert.latestFailedAt });
    expect(list.body.data.items[0].error.code).to.equal('INSUFFICIENT_BALANCE');
    const rest = await app.api.get(`/workflow-runs?status=FAILED&limit=2&cursor=${list.body.data.nextCursor}`, broke.auth);
    expect([...list.body.data.items, ...rest.body.data.items].map((r: { id: string }) => r.id).sort()).to.deep.equal([...runIds].sort());
    expect(rest.body.data.nextCursor).to.equal(null);
    const withKey = await app.api.get('/workflow-runs?status=FAILED', { apiKey: liveKey });
    expect(withKey.status).to.equal(200);
    expect(withKey.body.data.items).to.deep.equal([]); // another organization's key sees none of them
    expect((await app.api.get('/workflow-runs?status=FAILED', tenant.auth)).body.data.items).to.deep.equal([]);
    expect((await app.api.get(`/workflow-runs?status=FAILED&since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, broke.auth)).body.data.items).to.deep.equal([]);
    for (const bad of ['', '?status=RUNNING', '?status=FAILED&since=yesterday', '?status=FAILED&limit=101', '?status=FAILED&cursor=nope']) {
      const res = await app.api.get(`/workflow-runs${bad}`, broke.auth);
      expect(res.status, bad).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    }

    const acknowledged = await app.api.post('/workflow-runs/failure-alert/acknowledge', { through: alert.latestFailedAt }, broke.auth);
    expect(acknowledged.status, acknowledged.text).to.equal(200);
    expect(acknowledged.body.data).to.include({ failedRuns: 0, since: alert.latestFailedAt, latestFailedAt: null });
    expect(acknowledged.body.data.acknowledged).to.include({ through: alert.latestFailedAt, userId: broke.userId });
    expect((await app.api.get('/workflow-runs/failure-alert', broke.auth)).body.data.failedRuns).to.equal(0);
    expect((await app.api.get('/workflow-runs?status=FAILED', broke.auth)).body.data.items).to.have.length(3); // the list keeps them
    expect((await app.api.post('/workflow-runs/failure-alert/acknowledge', { through: 'now' }, broke.auth)).status).to.equal(400);
    const audit = await app.api.get('/audit-log?action=workflow.failures_acknowledged', broke.auth);
    expect(audit.body.data.items.map((i: { action: string; target: { type: string } }) => [i.action, i.target.type])).to.deep.equal([['workflow.failures_acknowledged', 'workflow_failure_alert']]);

    const next = await app.api.post('/events/trigger', { event: 'wf.due', to: '+233241111004', variables: { n: '4' } }, broke.auth);
    await settled(next.body.data.id, (r) => r.status === 'FAILED', broke.auth);
    expect((await app.api.get('/workflow-runs/failure-alert', broke.auth)).body.data).to.include({ failedRuns: 1 }); // a later failure alerts again
    expect((await app.api.get('/workflow-runs/failure-alert', tenant.auth)).body.data.failedRuns).to.equal(0);
    expect((await app.api.get('/workflow-runs/failure-alert', { apiKey: liveKey })).status).to.equal(401);
  });
});
