import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { SandboxProvider } from '../../adapters/providers/sandbox-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { CHANNELS } from '../../core/domain/channel.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { RunCampaign } from '../../core/use-cases/campaigns/run-campaign.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';
import { crashing } from '../support/crashing-storage.ts';

describe('HTTP: campaign pause, resume, progress and ETA (streamed fan-out)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let phones = 5_000_000;
  const sms = new RecordingProvider('SMS', 'recording-sms');
  const storage = () => app.container.get(INFRA.storage);

  function runner(options: { storage?: Storage; maxBatchesPerRun?: number } = {}) {
    const c = app.container;
    return new RunCampaign({ storage: options.storage ?? storage(), pricing: c.get(MESSAGING.pricing), clock: c.get(INFRA.clock), ids: c.get(INFRA.ids),
      fraud: c.get(MESSAGING.fraudLimits), timing: c.get(MESSAGING.sendTiming), batchSize: 5, completionPollSeconds: 1,
      ...(options.maxBatchesPerRun ? { maxBatchesPerRun: options.maxBatchesPerRun } : {}) });
  }
  /** A funded organization with 12 contacts in a segment, and a SENDING campaign to them (no batch run yet). */
  async function sendingCampaign(label: string) {
    const owner = await registerTenant(app.api, label);
    await storage().wallets.update(owner.organizationId, () => ({ amount: 100_000, kind: 'TOP_UP', reference: `test-${randomUUID()}`, description: 'test top-up' }), new Date());
    for (let i = 0; i < 12; i += 1) {
      const res = await app.api.post('/contacts', { firstName: `Esi${i}`, phone: `+23324${String(phones++).padStart(7, '0')}`, tags: ['pause'] }, owner.auth);
      expect(res.status, res.text).to.equal(201);
    }
    const segmentId = (await app.api.post('/segments', { name: 'Pause', rules: { field: 'tags', op: 'contains', value: 'pause' } }, owner.auth)).body.data.id;
    const templateId = (await app.api.post('/templates', { name: 'T', channel: 'SMS', body: 'Hi {{firstName}}, the sale starts now', category: 'TRANSACTIONAL' }, owner.auth)).body.data.id;
    const created = await app.api.post('/campaigns', { name: label, channel: 'SMS', templateId, segmentId }, owner.auth);
    expect(created.status, created.text).to.equal(201);
    const id = created.body.data.id as string;
    const sent = await app.api.post(`/campaigns/${id}/send`, undefined, owner.auth);
    expect(sent.status, sent.text).to.equal(200);
    return { owner, id, job: { campaignId: id, organizationId: owner.organizationId } };
  }
  /** Every message of the organization, by recipient (one campaign per organization here). */
  async function perRecipient(owner: TestTenant) {
    const logs = (await storage().messages.list(owner.organizationId, {}, 0, 500)).items;
    const counts = new Map<string, number>();
    for (const m of logs) counts.set(m.recipient, (counts.get(m.recipient) ?? 0) + 1);
    return { logs, counts };
  }

  before(async () => {
    app = await startTestApp({ providers: new StaticProviderDirectory([sms], CHANNELS.map((c) => new SandboxProvider(c, 50))) });
  });
  after(async () => { await app.close(); });

  it('shows progress and an ETA, pauses the fan-out at the next batch, resumes from the cursor: every contact gets exactly one message', async () => {
    const { owner, id, job } = await sendingCampaign('pause');
    const view = async () => {
      const res = await app.api.get(`/campaigns/${id}`, owner.auth);
      expect(res.status, res.text).to.equal(200);
      return res.body.data;
    };
    expect((await view()).progress).to.include({ total: 0, processed: 0, phase: 'FAN_OUT', paused: false, etaSeconds: null });

    await runner({ maxBatchesPerRun: 1 }).execute(job);
    expect((await view()).progress).to.include({ total: 12, processed: 5, queued: 5, sent: 0, failed: 0, percent: 41, phase: 'FAN_OUT', etaSeconds: null }); // one sample: no rate yet
    await runner({ maxBatchesPerRun: 1 }).execute(job);
    const second = (await view()).progress;
    expect(second).to.include({ total: 12, processed: 10, phase: 'FAN_OUT' });
    expect(second.ratePerSecond).to.be.a('number').and.above(0);
    expect(second.etaSeconds).to.be.a('number').and.at.least(1);
    expect(Date.parse(second.estimatedCompletionAt)).to.be.above(Date.now() - 1_000);

    const paused = await app.api.post(`/campaigns/${id}/pause`, undefined, owner.auth);
    expect(paused.status, paused.text).to.equal(200);
    expect(paused.body.data.status).to.equal('PAUSED');
    expect(paused.body.data.progress).to.include({ processed: 10, paused: true, phase: null, etaSeconds: null, estimatedCompletionAt: null });
    const again = await app.api.post(`/campaigns/${id}/pause`, undefined, owner.auth);
    expect(again.status).to.equal(409);
    expect(again.body.error).to.include({ code: 'CONFLICT' });
    expect(again.body.error.details).to.include({ status: 'PAUSED' });

    // The fan-out job (already enqueued, or retried) does nothing while paused.
    expect(await runner().execute(job)).to.include({ status: 'PAUSED', fanOutDone: false });
    expect((await view()).counts.recipients).to.equal(10);
    expect((await app.api.post(`/campaigns/${id}/send`, undefined, owner.auth)).status).to.equal(409);

    const resumed = await app.api.post(`/campaigns/${id}/resume`, undefined, owner.auth);
    expect(resumed.status, resumed.text).to.equal(200);
    expect(resumed.body.data).to.include({ status: 'SENDING' });
    expect((await app.api.post(`/campaigns/${id}/resume`, undefined, owner.auth)).status).to.equal(409);
    expect(await runner().execute(job)).to.include({ status: 'SENDING', fanOutDone: true });
    const { logs, counts } = await perRecipient(owner);
    expect(counts.size).to.equal(12);
    expect([...counts.values()].every((n) => n === 1)).to.equal(true);
    expect((await view()).progress).to.include({ total: 12, processed: 12, queued: 12, percent: 100, phase: 'DELIVERY' });

    // Nothing left to hold back once every recipient was handed over.
    const late = await app.api.post(`/campaigns/${id}/pause`, undefined, owner.auth);
    expect(late.status).to.equal(409);
    expect(late.body.error.details).to.include({ fanOutDone: true });

    // The delivery phase's ETA comes from the completion polls' recent rate.
    await runner().execute(job);
    const deliver = app.container.get(MESSAGING.deliverMessage);
    for (const m of logs.slice(0, 6)) await deliver.execute(m.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await runner().execute(job);
    const delivering = (await view()).progress;
    expect(delivering).to.include({ phase: 'DELIVERY', queued: 6, sent: 6 });
    expect(delivering.ratePerSecond).to.be.above(0);
    expect(delivering.etaSeconds).to.be.a('number').and.at.least(1);
    for (const m of logs.slice(6)) await deliver.execute(m.id);
    expect(await runner().execute(job)).to.include({ status: 'COMPLETED' });
    expect((await view()).progress).to.include({ sent: 12, queued: 0, phase: null, etaSeconds: null });
    expect((await app.api.post(`/campaigns/${id}/pause`, undefined, owner.auth)).body.error.code).to.equal('CONFLICT');
    expect((await app.api.post(`/campaigns/${id}/resume`, undefined, owner.auth)).body.error.code).to.equal('CONFLICT');
  });

  it('resumes after a crash mid fan-out from the committed cursor: progress counts each contact once and every contact gets one message', async () => {
    const { owner, id, job } = await sendingCampaign('crash');
    const crash = await runner({ storage: crashing(storage(), 3) }).execute(job).then(() => null, (e: Error) => e.message);
    expect(crash).to.equal('worker killed'); // transaction 1 = start (nothing to do), 2 = batch 1, 3 = batch 2 rolled back
    const afterCrash = (await app.api.get(`/campaigns/${id}`, owner.auth)).body.data;
    expect(afterCrash.counts.recipients).to.equal(5);
    expect(afterCrash.progress).to.include({ total: 12, processed: 5 });
    // Paused and resumed across the crash: still nobody twice.
    expect((await app.api.post(`/campaigns/${id}/pause`, undefined, owner.auth)).status).to.equal(200);
    expect((await app.api.post(`/campaigns/${id}/resume`, undefined, owner.auth)).status).to.equal(200);
    expect(await runner().execute(job)).to.include({ fanOutDone: true });
    const { counts } = await perRecipient(owner);
    expect(counts.size).to.equal(12);
    expect([...counts.values()].every((n) => n === 1)).to.equal(true);
    expect((await app.api.get(`/campaigns/${id}`, owner.auth)).body.data.progress).to.include({ total: 12, processed: 12 });
  });

  it('answers 404 for another organization\'s campaign, 403 to a VIEWER, and lets a paused campaign be cancelled', async () => {
    const { owner, id } = await sendingCampaign('scope');
    const other = await registerTenant(app.api, 'scope-other');
    for (const action of ['pause', 'resume']) {
      const res = await app.api.post(`/campaigns/${id}/${action}`, undefined, other.auth);
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('NOT_FOUND');
    }
    const viewer = await registerUser(app.api, 'scope-viewer');
    await app.api.post('/organizations/invite', { email: viewer.email, role: 'VIEWER' }, owner.auth);
    const viewerAuth = { token: viewer.token, organizationId: owner.organizationId };
    expect((await app.api.post(`/campaigns/${id}/pause`, undefined, viewerAuth)).status).to.equal(403);
    expect((await app.api.get(`/campaigns/${id}`, viewerAuth)).status).to.equal(200);
    expect((await app.api.post(`/campaigns/${id}/pause`, undefined, owner.auth)).status).to.equal(200);
    const cancelled = await app.api.post(`/campaigns/${id}/cancel`, undefined, owner.auth);
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.body.data.status).to.equal('CANCELLED');
    expect((await app.api.post(`/campaigns/${id}/resume`, undefined, owner.auth)).status).to.equal(409);
    const draft = await app.api.post('/campaigns', { name: 'Draft', channel: 'SMS' }, owner.auth);
    expect((await app.api.post(`/campaigns/${draft.body.data.id}/pause`, undefined, owner.auth)).body.error).to.include({ code: 'CONFLICT' });
  });
});
