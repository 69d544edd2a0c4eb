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

describe('HTTP: /campaigns (approval gate, estimate, send, fan-out, completion)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let owner: TestTenant;
  let other: TestTenant;
  let admin: { token: string };
  const sms = new RecordingProvider('SMS', 'recording-sms');

  async function topUp(tenant: TestTenant, pesewas: number) {
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId,
      () => ({ amount: pesewas, kind: 'TOP_UP', reference: `test-${randomUUID()}`, description: 'test top-up' }), new Date());
  }
  function runner(storage: Storage = app.container.get(INFRA.storage)) {
    const c = app.container;
    return new RunCampaign({ storage, pricing: c.get(MESSAGING.pricing), clock: c.get(INFRA.clock), ids: c.get(INFRA.ids), fraud: c.get(MESSAGING.fraudLimits), timing: c.get(MESSAGING.sendTiming), batchSize: 5, completionPollSeconds: 1 });
  }
  async function template(body: string) {
    const res = await app.api.post('/templates', { name: 'T', channel: 'SMS', body, category: 'TRANSACTIONAL' }, owner.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data.id as string;
  }

  before(async () => {
    app = await startTestApp({ providers: new StaticProviderDirectory([sms], CHANNELS.map((c) => new SandboxProvider(c, 50))) });
    owner = await registerTenant(app.api, 'campaigns');
    other = await registerTenant(app.api, 'campaigns-other');
    const user = await registerUser(app.api, 'campaigns-admin');
    await app.container.get(INFRA.storage).users.setPlatformRole(user.userId, 'PLATFORM_SUPER_ADMIN');
    admin = { token: user.token };
    for (let i = 0; i < 12; i += 1) {
      expect((await app.api.post('/contacts', { firstName: `Kojo${i}`, phone: `+23324${String(4_000_000 + i).padStart(7, '0')}`, tags: ['launch'] }, owner.auth)).status).to.equal(201);
    }
    await app.api.post('/contacts', { firstName: 'Mail', email: 'mail-only@campaign.test', tags: ['launch'] }, owner.auth);
  });
  after(async () => { await app.close(); });

  it('refuses without funds (402), sends once funded, survives a worker crash mid fan-out, and completes with campaign.completed', async () => {
    const segment = await app.api.post('/segments', { name: 'Launch', rules: { field: 'tags', op: 'contains', value: 'launch' } }, owner.auth);
    const created = await app.api.post('/campaigns', { name: 'Launch day', channel: 'SMS', templateId: await template('Hi {{firstName}}, we are open'), segmentId: segment.body.data.id }, owner.auth);
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data.status).to.equal('DRAFT');
    const id = created.body.data.id;

    const estimate = await app.api.get(`/campaigns/${id}/estimate`, owner.auth);
    expect(estimate.status, estimate.text).to.equal(200);
    expect(estimate.body.data).to.include({ recipients: 12, segments: 1, sufficientBalance: false });
    const poor = await app.api.post(`/campaigns/${id}/send`, undefined, owner.auth);
    expect(poor.status).to.equal(402);
    expect(poor.body.error.code).to.equal('INSUFFICIENT_BALANCE');

    await topUp(owner, 10_000);
    const sent = await app.api.post(`/campaigns/${id}/send`, undefined, owner.auth);
    expect(sent.status, sent.text).to.equal(200);
    expect(sent.body.data.message).to.equal('sending started');
    expect((await app.api.post(`/campaigns/${id}/send`, undefined, owner.auth)).status).to.equal(409);

    const job = { campaignId: id, organizationId: owner.organizationId };
    const crash = await runner(crashing(app.container.get(INFRA.storage), 3)).execute(job).then(() => null, (e: Error) => e.message);
    expect(crash).to.equal('worker killed');
    expect((await app.api.get(`/campaigns/${id}`, owner.auth)).body.data.counts.recipients).to.equal(5);
    expect(await runner().execute(job)).to.include({ fanOutDone: true, status: 'SENDING' });

    const storage = app.container.get(INFRA.storage);
    const logs = (await storage.messages.list(owner.organizationId, {}, 0, 100)).items;
    const perRecipient = new Map<string, number>();
    for (const m of logs) perRecipient.set(m.recipient, (perRecipient.get(m.recipient) ?? 0) + 1);
    expect(perRecipient.size).to.equal(12);
    expect([...perRecipient.values()].every((n) => n === 1)).to.equal(true);

    const deliver = app.container.get(MESSAGING.deliverMessage);
    for (const m of logs) await deliver.execute(m.id);
    expect(await runner().execute(job)).to.include({ status: 'COMPLETED' });
    const view = (await app.api.get(`/campaigns/${id}`, owner.auth)).body.data;
    expect(view.status).to.equal('COMPLETED');
    expect(view.counts).to.include({ recipients: 12, queued: 0, sent: 12, skipped: 0 });
    const events = (await storage.outboundEvents.listRecent(owner.organizationId, 20)).filter((e) => e.kind === 'campaign.completed');
    expect(events.map((e) => e.data['campaignId'])).to.deep.equal([id]);
    expect((await app.api.get('/campaigns', owner.auth)).body.data.map((c: any) => c.id)).to.include(id);
    expect((await app.api.get(`/campaigns/${id}`, other.auth)).status).to.equal(404);
    expect((await app.api.post(`/campaigns/${id}/cancel`, undefined, owner.auth)).status).to.equal(409);
  });

  it('holds a campaign whose template scores 30+ until a platform administrator approves it through /admin/approvals (422 CAMPAIGN_NOT_APPROVED; rejected stays unsendable)', async () => {
    const created = await app.api.post('/campaigns', { name: 'Risky', channel: 'SMS', templateId: await template('Please reply with your PIN to keep your account') }, owner.auth);
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data).to.include({ status: 'PENDING_APPROVAL', approvalStatus: 'PENDING' });
    const id = created.body.data.id;
    const refused = await app.api.post(`/campaigns/${id}/send`, undefined, owner.auth);
    expect(refused.status).to.equal(422);
    expect(refused.body.error.code).to.equal('CAMPAIGN_NOT_APPROVED');
    expect(refused.body.error.details.approvalRequestId).to.equal(created.body.data.approvalRequestId);

    const approved = await app.api.post(`/admin/approvals/${created.body.data.approvalRequestId}/approve`, undefined, { token: admin.token });
    expect(approved.status, approved.text).to.equal(200);
    expect((await app.api.get(`/campaigns/${id}`, owner.auth)).body.data).to.include({ status: 'DRAFT', approvalStatus: 'APPROVED' });
    const sent = await app.api.post(`/campaigns/${id}/send`, undefined, owner.auth);
    expect(sent.status, sent.text).to.equal(200);
    expect((await app.api.post(`/campaigns/${id}/cancel`, undefined, owner.auth)).body.data.status).to.equal('CANCELLED');

    const rejectedOne = (await app.api.post('/campaigns', { name: 'Risky 2', channel: 'SMS', templateId: await template('Congratulations, you have won! Reply with your PIN') }, owner.auth)).body.data;
    const rejected = await app.api.post(`/admin/approvals/${rejectedOne.approvalRequestId}/reject`, { comment: 'phishing wording' }, { token: admin.token });
    expect(rejected.status, rejected.text).to.equal(200);
    expect((await app.api.get(`/campaigns/${rejectedOne.id}`, owner.auth)).body.data).to.include({ status: 'REJECTED', approvalStatus: 'REJECTED', failureReason: 'Rejected: phishing wording' });
    expect((await app.api.post(`/campaigns/${rejectedOne.id}/send`, undefined, owner.auth)).body.error.code).to.equal('CAMPAIGN_NOT_APPROVED');
  });

  it('validates the body and the template', async () => {
    const bad = await app.api.post('/campaigns', { name: '', channel: 'FAX' }, owner.auth);
    expect(bad.status).to.equal(400);
    expect(Object.keys(bad.body.error.details.fieldErrors).sort()).to.deep.equal(['channel', 'name']);
    const unknownTemplate = await app.api.post('/campaigns', { name: 'X', channel: 'SMS', templateId: 'nope' }, owner.auth);
    expect(unknownTemplate.body.error.details.fieldErrors).to.have.property('templateId');
    const foreign = await app.api.post('/campaigns', { name: 'X', channel: 'EMAIL', templateId: await template('Hi {{orderId}}') }, owner.auth);
    expect(foreign.status).to.equal(400);
    const noTemplate = await app.api.post('/campaigns', { name: 'Draft only', channel: 'SMS' }, owner.auth);
    expect(noTemplate.status).to.equal(201);
    expect((await app.api.post(`/campaigns/${noTemplate.body.data.id}/send`, undefined, owner.auth)).status).to.equal(400);
  });
});
