import { expect } from 'chai';
import type { Contact } from '../../../core/domain/contact.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import type { Repositories, Storage } from '../../../core/ports/storage.ts';
import { CancelCampaign } from '../../../core/use-cases/campaigns/cancel-campaign.ts';
import { CreateCampaign } from '../../../core/use-cases/campaigns/create-campaign.ts';
import { EstimateCampaign } from '../../../core/use-cases/campaigns/estimate-campaign.ts';
import { GetCampaign } from '../../../core/use-cases/campaigns/get-campaign.ts';
import { PauseCampaign } from '../../../core/use-cases/campaigns/pause-campaign.ts';
import { ResumeCampaign } from '../../../core/use-cases/campaigns/resume-campaign.ts';
import { RunCampaign } from '../../../core/use-cases/campaigns/run-campaign.ts';
import { SendCampaign } from '../../../core/use-cases/campaigns/send-campaign.ts';
import { ReleaseScheduledMessages } from '../../../core/use-cases/messaging/release-scheduled-messages.ts';
import { CreateSegment } from '../../../core/use-cases/segments/create-segment.ts';
import { buildPipeline, caught, ghPhone, type Pipeline } from '../messaging/messaging-fixtures.ts';

/** A Storage whose `failAt`-th transaction throws after its work ran: a worker killed before the commit. */
function crashing(inner: Storage, failAt: number): Storage & { transactions: number } {
  const wrapper = Object.create(inner) as Storage & { transactions: number };
  wrapper.transactions = 0;
  wrapper.transaction = <T>(work: (tx: Repositories) => Promise<T>) => inner.transaction(async (tx) => {
    const result = await work(tx);
    wrapper.transactions += 1;
    if (wrapper.transactions === failAt) throw new Error('worker killed');
    return result;
  });
  return wrapper;
}

describe('campaigns: approval gate, estimate, fan-out that survives a crash, completion', () => {
  let p: Pipeline;
  const scope = () => ({ organizationId: p.organizationId, userId: 'user-1' });
  const deps = () => ({ storage: p.core.storage, ids: p.core.ids, clock: p.core.clock, pricing: p.core.storage.pricing, fraud: { newTenantDays: 0, newTenantPerHour: 200 } });
  const run = (storage: Storage = p.core.storage, batchSize = 5) => new RunCampaign({ ...deps(), storage, fraud: { recipientPerHour: 20, newTenantDays: 0, newTenantPerHour: 1_000 }, batchSize });

  let numbered = 0;
  async function contacts(n: number, extra: Partial<Contact> = {}): Promise<Contact[]> {
    const list: Contact[] = [];
    for (let k = 0; k < n; k += 1) {
      const i = numbered++;
      const now = p.core.clock.now();
      list.push({ id: p.core.ids.next(), organizationId: p.organizationId, firstName: `Ama${i}`, lastName: null, phone: ghPhone(i), email: null, countryCode: 'GH',
        tags: ['promo'], fcmToken: null, attributes: {}, optedOutAt: null, createdAt: now, updatedAt: now, ...extra });
    }
    await p.core.storage.contacts.insertMany(list);
    return list;
  }
  async function campaign(body: string, extra: Record<string, unknown> = {}) {
    const template = await p.template({ body, variables: [], category: 'TRANSACTIONAL' });
    return new CreateCampaign(deps()).execute(scope(), { name: 'Launch', channel: 'SMS', templateId: template.id, ...extra });
  }

  beforeEach(async () => { p = await buildPipeline({ balance: 100_000 }); });

  it('warns in the estimate how many recipients the new-tenant cap would refuse, and refuses to send such a campaign (CAMPAIGN_OVER_NEW_TENANT_CAP) instead of burning through', async () => {
    await contacts(250);
    const created = await campaign('Hi {{firstName}}, our new store opens on Saturday');
    const young = { ...deps(), fraud: { newTenantDays: 7, newTenantPerHour: 200 } };
    const estimate = await new EstimateCampaign(young).execute(scope(), created.id);
    expect(estimate.recipients).to.equal(250);
    expect(estimate.newTenantCap).to.include({ perHour: 200, sentThisHour: 0, allowedThisHour: 200, wouldRefuse: 50 });
    const refused = await caught(() => new SendCampaign(young).execute(scope(), created.id));
    expect(refused.code).to.equal('CAMPAIGN_OVER_NEW_TENANT_CAP');
    expect(refused.details).to.include({ recipients: 250, allowedThisHour: 200, perHour: 200 });
    expect((await new GetCampaign(deps()).execute(scope(), created.id)).status).to.equal('DRAFT');
    expect(p.core.storage.state.jobs.filter((j) => j.queue === QUEUES.campaignRun)).to.have.length(0);
    // An established organization has no cap to warn about.
    expect((await new EstimateCampaign(deps()).execute(scope(), created.id)).newTenantCap).to.equal(null);
  });

  it('holds a risky campaign for approval, refuses to send it, and sends once an administrator approved the request', async () => {
    await contacts(2);
    const created = await campaign('Hi {{firstName}}, please reply with your PIN to claim the refund');
    expect(created).to.include({ status: 'PENDING_APPROVAL', approvalStatus: 'PENDING' });
    expect(created.riskScore).to.be.at.least(30);
    const request = p.core.storage.state.approvals.get(created.approvalRequestId!)!;
    expect(request).to.include({ kind: 'CAMPAIGN', subjectId: created.id, status: 'PENDING' });
    expect((request.content['compliance'] as { riskScore: number }).riskScore).to.equal(created.riskScore);
    const refused = await caught(() => new SendCampaign(deps()).execute(scope(), created.id));
    expect(refused.code).to.equal('CAMPAIGN_NOT_APPROVED');

    request.status = 'APPROVED'; // what the admin approve endpoint records
    expect((await new GetCampaign(deps()).execute(scope(), created.id))).to.include({ status: 'DRAFT', approvalStatus: 'APPROVED' });
    const started = await new SendCampaign(deps()).execute(scope(), created.id);
    expect(started.message).to.equal('sending started');
    expect(started.campaign.status).to.equal('SENDING');
  });

  it('marks a campaign REJECTED when the administrator rejected it', async () => {
    const created = await campaign('Congratulations, you have won! Send your PIN now');
    const request = p.core.storage.state.approvals.get(created.approvalRequestId!)!;
    request.status = 'REJECTED'; request.comment = 'phishing';
    expect(await new GetCampaign(deps()).execute(scope(), created.id)).to.include({ status: 'REJECTED', failureReason: 'Rejected: phishing' });
    expect((await caught(() => new SendCampaign(deps()).execute(scope(), created.id))).code).to.equal('CAMPAIGN_NOT_APPROVED');
  });

  it('estimates recipients and cost, and refuses to send with INSUFFICIENT_BALANCE when the wallet cannot cover it', async () => {
    await contacts(3);
    await contacts(1, { phone: null, email: 'no-phone@example.com' });
    await contacts(1, { phone: ghPhone(99), optedOutAt: p.core.clock.now() });
    const created = await campaign('Our shop opens at 9. Reply STOP to opt out');
    expect(created.status).to.equal('DRAFT');
    const estimate = await new EstimateCampaign(deps()).execute(scope(), created.id);
    expect(estimate).to.include({ recipients: 3, segments: 1, currency: 'GHS', sufficientBalance: true });
    expect(estimate.cost).to.be.greaterThan(0);
    await p.core.storage.wallets.update(p.organizationId, (w) => ({ amount: -w.balance, kind: 'DEBIT', reference: 'drain', description: 'drain' }), p.core.clock.now());
    const refused = await caught(() => new SendCampaign(deps()).execute(scope(), created.id));
    expect(refused.code).to.equal('INSUFFICIENT_BALANCE');
    expect(refused.details['required']).to.equal(estimate.cost);
  });

  it('fills placeholders from contact attributes; recipients who lack one are counted by the estimate and skipped with the reason, not refused at creation', async () => {
    await contacts(3, { attributes: { orderId: 'A-100' } });
    await contacts(2);
    const created = await campaign('Hi {{firstName}}, order {{orderId}} has shipped');
    expect(created.status).to.equal('DRAFT');
    const estimate = await new EstimateCampaign(deps()).execute(scope(), created.id);
    expect(estimate).to.include({ recipients: 5, wouldSkip: 2, wouldSkipExact: true });
    expect(estimate.skipReasons).to.deep.equal(['missing template variable: orderId']);
    await new SendCampaign(deps()).execute(scope(), created.id);
    await run().execute({ campaignId: created.id, organizationId: p.organizationId });
    const bodies = (await p.core.storage.messages.list(p.organizationId, {}, 0, 100)).items.map((m) => m.body);
    expect(bodies).to.have.length(3);
    for (const body of bodies) expect(body).to.match(/^Hi Ama\d+, order A-100 has shipped$/);
    expect(await p.core.storage.campaigns.counts(p.organizationId, created.id)).to.include({ skipped: 2 });
    const reasons = [...p.core.storage.state.campaignRecipients.values()].filter((r) => r.campaignId === created.id && r.skipReason).map((r) => r.skipReason);
    expect(reasons).to.deep.equal(['missing template variable: orderId', 'missing template variable: orderId']);
  });

  it('fans out to a segment in batches; a crash mid fan-out and a restart give every contact exactly one message', async () => {
    const list = await contacts(23);
    await contacts(2, { tags: ['other'] });
    const segment = await new CreateSegment(deps()).execute(scope(), { name: 'Promo', rules: { field: 'tags', op: 'contains', value: 'promo' } });
    const created = await campaign('Hello {{firstName}}, new stock today', { segmentId: segment.id });
    await new SendCampaign(deps()).execute(scope(), created.id);
    const job = { campaignId: created.id, organizationId: p.organizationId };

    const crashy = crashing(p.core.storage, 3); // transaction 1 starts nothing new (already SENDING), 2 = batch 1, 3 = batch 2 dies
    const error = await run(crashy).execute(job).then(() => null, (e: Error) => e);
    expect(error?.message).to.equal('worker killed');
    expect((await p.core.storage.campaigns.counts(p.organizationId, created.id)).recipients).to.equal(5);

    const afterRestart = await run().execute(job);
    expect(afterRestart).to.include({ status: 'SENDING', fanOutDone: true });
    const messages = await p.core.storage.messages.list(p.organizationId, {}, 0, 100);
    const recipients = messages.items.map((m) => m.recipient).sort();
    expect(recipients).to.deep.equal(list.map((c) => c.phone).sort());
    expect(messages.items[0]!.body).to.match(/^Hello Ama\d+, new stock today$/);
    expect(await p.core.storage.campaigns.counts(p.organizationId, created.id)).to.include({ recipients: 23, queued: 23, skipped: 0 });
    expect(p.core.storage.jobs.take(QUEUES.campaignRun).map((j) => j.startAfterSeconds)).to.include(5);

    for (const m of messages.items) await p.deliver.execute(m.id);
    const completed = await run().execute(job);
    expect(completed?.status).to.equal('COMPLETED');
    const events = p.core.storage.state.outboundEvents.filter((e) => e.kind === 'campaign.completed');
    expect(events).to.have.length(1);
    expect((events[0]!.data['counts'] as { sent: number }).sent).to.equal(23);
    expect(await run().execute(job)).to.include({ status: 'COMPLETED' });
    expect(p.core.storage.state.outboundEvents.filter((e) => e.kind === 'campaign.completed')).to.have.length(1);
  });

  it('holds a campaign fanned out after 19:00 GH time to the next morning, polling every minute, unless SEND_WINDOWS is off', async () => {
    p.core.clock.set(new Date('2026-11-26T19:13:00.000Z')); // a Thursday evening in Accra: the marketing window has closed
    await contacts(3);
    const job = async (timing: { enforceWindows: boolean }) => {
      const created = await campaign('Weekend sale');
      await new SendCampaign(deps()).execute(scope(), created.id);
      p.core.storage.jobs.take(QUEUES.campaignRun);
      const runner = new RunCampaign({ ...deps(), fraud: { recipientPerHour: 20, newTenantDays: 0, newTenantPerHour: 1_000 }, timing });
      const data = { campaignId: created.id, organizationId: p.organizationId };
      expect(await runner.execute(data)).to.include({ fanOutDone: true, status: 'SENDING' });
      return { created, runner, data, polls: p.core.storage.jobs.take(QUEUES.campaignRun).map((j) => j.startAfterSeconds) };
    };
    const held = await job({ enforceWindows: true });
    expect(await p.core.storage.campaigns.counts(p.organizationId, held.created.id)).to.include({ recipients: 3, scheduled: 3, queued: 0 });
    expect((await p.core.storage.messages.list(p.organizationId, {}, 0, 10)).items.map((m) => m.scheduledAt?.toISOString())).to.deep.equal(Array(3).fill('2026-11-27T08:00:00.000Z'));
    expect(held.polls).to.deep.equal([60]);
    expect(await held.runner.execute(held.data)).to.include({ status: 'SENDING' });
    expect(p.core.storage.jobs.take(QUEUES.campaignRun).map((j) => j.startAfterSeconds)).to.deep.equal([60]);

    const off = await job({ enforceWindows: false });
    expect(await p.core.storage.campaigns.counts(p.organizationId, off.created.id)).to.include({ recipients: 3, scheduled: 0, queued: 3 });
    expect(off.polls).to.deep.equal([5]);
  });

  it('raises the owner\'s low-balance alert when a batch\'s debit crosses under the threshold, once', async () => {
    await contacts(3);
    const created = await campaign('Weekend sale');
    await new SendCampaign(deps()).execute(scope(), created.id);
    p.core.storage.jobs.take(QUEUES.campaignRun);
    const balance = await p.balance();
    const runner = new RunCampaign({ ...deps(), fraud: { recipientPerHour: 20, newTenantDays: 0, newTenantPerHour: 1_000 }, lowBalanceThreshold: balance - 1 });
    expect(await runner.execute({ campaignId: created.id, organizationId: p.organizationId })).to.include({ fanOutDone: true });
    expect(p.core.storage.jobs.take(QUEUES.lowBalanceAlert).map((j) => j.data)).to.deep.equal([{ organizationId: p.organizationId, balanceAfter: await p.balance() }]);
  });

  it('continues a long fan-out in a new job after its batch budget', async () => {
    await contacts(7);
    const created = await campaign('Weekend sale');
    await new SendCampaign(deps()).execute(scope(), created.id);
    p.core.storage.jobs.take(QUEUES.campaignRun);
    const job = { campaignId: created.id, organizationId: p.organizationId };
    const budgeted = new RunCampaign({ ...deps(), fraud: { recipientPerHour: 20, newTenantDays: 0, newTenantPerHour: 1_000 }, batchSize: 2, maxBatchesPerRun: 2 });
    expect(await budgeted.execute(job)).to.include({ fanOutDone: false, status: 'SENDING' });
    expect(p.core.storage.jobs.take(QUEUES.campaignRun).map((j) => [j.data, j.startAfterSeconds])).to.deep.equal([[job, 0]]);
    expect((await p.core.storage.campaigns.counts(p.organizationId, created.id)).recipients).to.equal(4);
    await budgeted.execute(job);
    expect(await budgeted.execute(job)).to.include({ fanOutDone: true });
    expect((await p.core.storage.campaigns.counts(p.organizationId, created.id)).recipients).to.equal(7);
  });

  it('sends a static segment to its frozen members only, never to opted-out contacts, and fails when the wallet runs dry mid fan-out', async () => {
    const early = await contacts(6);
    const segment = await new CreateSegment(deps()).execute(scope(), { name: 'Frozen', rules: { field: 'tags', op: 'contains', value: 'promo' }, isDynamic: false });
    expect(segment.contactCount).to.equal(6);
    await contacts(3); // join after the freeze: not members
    await p.core.storage.contacts.update({ ...early[0]!, optedOutAt: p.core.clock.now() });
    const created = await campaign('Members only', { segmentId: segment.id });
    expect((await new EstimateCampaign(deps()).execute(scope(), created.id)).recipients).to.equal(5);
    await new SendCampaign(deps()).execute(scope(), created.id);
    const job = { campaignId: created.id, organizationId: p.organizationId };
    // Leave money for exactly one batch of 2 messages (3 pesewas each), then the second batch cannot be paid.
    const balance = await p.balance();
    await p.core.storage.wallets.update(p.organizationId, () => ({ amount: -(balance - 6), kind: 'DEBIT', reference: 'drain', description: 'drain' }), p.core.clock.now());
    const ended = await run(p.core.storage, 2).execute(job);
    expect(ended).to.include({ status: 'FAILED' });
    expect(ended!.failureReason).to.match(/ran out of balance/);
    const messages = (await p.core.storage.messages.list(p.organizationId, {}, 0, 100)).items;
    expect(messages.map((m) => m.recipient).sort()).to.deep.equal([early[1]!.phone, early[2]!.phone].sort());
    expect(await p.balance()).to.equal(0);
  });

  it('stops a SENDING campaign\'s fan-out at the next batch once cancelled', async () => {
    await contacts(6);
    const created = await campaign('Flash sale');
    await new SendCampaign(deps()).execute(scope(), created.id);
    const job = { campaignId: created.id, organizationId: p.organizationId };
    const oneBatch = new RunCampaign({ ...deps(), fraud: { recipientPerHour: 20, newTenantDays: 0, newTenantPerHour: 1_000 }, batchSize: 2, maxBatchesPerRun: 1 });
    await oneBatch.execute(job);
    expect((await new CancelCampaign(deps()).execute(scope(), created.id)).status).to.equal('CANCELLED');
    expect(await run().execute(job)).to.include({ status: 'CANCELLED', fanOutDone: false });
    expect((await p.core.storage.campaigns.counts(p.organizationId, created.id)).recipients).to.equal(2);
  });

  it('pauses the fan-out at the next batch and resumes it from the cursor with a new job: everyone messaged once', async () => {
    const list = await contacts(7);
    const created = await campaign('Flash sale');
    await new SendCampaign(deps()).execute(scope(), created.id);
    const job = { campaignId: created.id, organizationId: p.organizationId };
    const oneBatch = new RunCampaign({ ...deps(), fraud: { recipientPerHour: 20, newTenantDays: 0, newTenantPerHour: 1_000 }, batchSize: 3, maxBatchesPerRun: 1 });
    await oneBatch.execute(job);
    p.core.storage.jobs.take(QUEUES.campaignRun);
    const paused = await new PauseCampaign(deps()).execute(scope(), created.id);
    expect(paused).to.include({ status: 'PAUSED' });
    expect(paused.progress).to.include({ total: 7, processed: 3, paused: true, etaSeconds: null });
    expect(await run().execute(job)).to.include({ status: 'PAUSED', fanOutDone: false });
    expect((await caught(() => new PauseCampaign(deps()).execute(scope(), created.id))).code).to.equal('CONFLICT');
    expect((await new ResumeCampaign(deps()).execute(scope(), created.id)).status).to.equal('SENDING');
    expect(p.core.storage.jobs.take(QUEUES.campaignRun).map((j) => j.data)).to.deep.equal([job]);
    expect(await run().execute(job)).to.include({ status: 'SENDING', fanOutDone: true });
    const recipients = (await p.core.storage.messages.list(p.organizationId, {}, 0, 100)).items.map((m) => m.recipient).sort();
    expect(recipients).to.deep.equal(list.map((c) => c.phone).sort());
    expect((await caught(() => new ResumeCampaign(deps()).execute(scope(), created.id))).code).to.equal('CONFLICT');
  });

  it('schedules a campaign with a future scheduledAt (no delayed job) and the scheduler starts it at its time, once', async () => {
    await contacts(4);
    const at = new Date(p.core.clock.now().getTime() + 3_600_000).toISOString();
    const created = await campaign('Sale starts now', { scheduledAt: at });
    const sent = await new SendCampaign(deps()).execute(scope(), created.id);
    expect(sent.message).to.equal(`scheduled for ${at}`);
    expect(p.core.storage.jobs.take(QUEUES.campaignRun)).to.deep.equal([]);
    const scheduler = new ReleaseScheduledMessages({ storage: p.core.storage, clock: p.core.clock, ids: p.core.ids });
    p.core.clock.advance(3_599_999);
    expect((await scheduler.execute()).campaignsStarted).to.equal(0);
    expect((await p.core.storage.campaigns.findById(p.organizationId, created.id))?.status).to.equal('SCHEDULED');
    p.core.clock.advance(1);
    expect((await scheduler.execute()).campaignsStarted).to.equal(1);
    expect((await scheduler.execute()).campaignsStarted).to.equal(0);
    const jobs = p.core.storage.jobs.take(QUEUES.campaignRun);
    expect(jobs.map((j) => j.data)).to.deep.equal([{ campaignId: created.id, organizationId: p.organizationId }]);
    expect(await run().execute(jobs[0]!.data as { campaignId: string; organizationId: string })).to.include({ status: 'SENDING', fanOutDone: true });
    expect((await p.core.storage.campaigns.counts(p.organizationId, created.id)).recipients).to.equal(4);
  });

  it('never starts a cancelled SCHEDULED campaign; a legacy delayed job for it changes nothing', async () => {
    await contacts(4);
    const at = new Date(p.core.clock.now().getTime() + 3_600_000).toISOString();
    const created = await campaign('Sale starts now', { scheduledAt: at });
    await new SendCampaign(deps()).execute(scope(), created.id);
    const job = { campaignId: created.id, organizationId: p.organizationId };
    expect(await run().execute(job)).to.include({ status: 'SCHEDULED' }); // a delayed job from before the scheduler, early: nothing
    p.core.clock.advance(3_600_000);
    await new CancelCampaign(deps()).execute(scope(), created.id);
    expect((await new ReleaseScheduledMessages({ storage: p.core.storage, clock: p.core.clock, ids: p.core.ids }).execute()).campaignsStarted).to.equal(0);
    expect(await run().execute(job)).to.include({ status: 'CANCELLED' });
    expect((await p.core.storage.messages.list(p.organizationId, {}, 0, 10)).total).to.equal(0);
    expect((await caught(() => new CancelCampaign(deps()).execute(scope(), created.id))).code).to.equal('CONFLICT');
  });
});
