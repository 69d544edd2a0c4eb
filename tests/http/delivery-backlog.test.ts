import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker } from '../../hosts/worker/worker.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { testConfig } from '../support/test-config.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';

const phone = (n: number) => `+23324${String(7_100_000 + n).padStart(7, '0')}`;

describe('HTTP: delivery backlog per lane (GET /delivery-logs/backlog, GET /admin/delivery-backlog, /metrics)', () => {
  let app: TestApp;
  let owner: TestTenant;
  let other: TestTenant;
  let admin: { token: string };

  before(async () => {
    app = await startTestApp(); // no worker runs: accepted async sends wait in the queue
    const storage = app.container.get(INFRA.storage);
    owner = await registerTenant(app.api, 'backlog-owner');
    other = await registerTenant(app.api, 'backlog-other');
    await storage.wallets.update(owner.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: randomUUID(), description: 'test top-up' }), new Date());
    const user = await registerUser(app.api, 'backlog-admin');
    await storage.users.setPlatformRole(user.userId, 'PLATFORM_SUPER_ADMIN');
    admin = { token: user.token };
  });
  after(async () => {
    const boss = app.container.get(INFRA.boss);
    const ids = (await boss.findJobs(QUEUES.notificationSend, { queued: true } as never)).filter((j) => j.groupId === owner.organizationId).map((j) => j.id);
    if (ids.length > 0) await boss.deleteJob(QUEUES.notificationSend, ids);
    await app.close();
  });

  it('puts an accepted OTP send in the OTP lane and a transactional one in the TRANSACTIONAL lane; a tenant sees only its own backlog', async () => {
    const otp = await app.api.post('/messages/send', { channel: 'SMS', to: phone(1), body: 'Your code is 481516', category: 'OTP', async: true }, owner.auth);
    expect(otp.status, otp.text).to.equal(202);
    const bulk = await app.api.post('/messages/bulk', { async: true, messages: [{ channel: 'SMS', to: phone(2), body: 'Parcel 1 shipped' }, { channel: 'SMS', to: phone(3), body: 'Parcel 2 shipped' }] }, owner.auth);
    expect(bulk.status, bulk.text).to.equal(202);

    const mine = await app.api.get('/delivery-logs/backlog', owner.auth);
    expect(mine.status, mine.text).to.equal(200);
    expect(mine.body.data.lanes.map((l: { lane: string; waiting: number }) => [l.lane, l.waiting])).to.deep.equal([['OTP', 1], ['TRANSACTIONAL', 2], ['MARKETING', 0]]);
    expect(mine.body.data.waiting).to.equal(3);
    for (const lane of mine.body.data.lanes) expect(lane.oldestWaitingSeconds).to.be.a('number').and.at.least(0);

    const theirs = await app.api.get('/delivery-logs/backlog', other.auth);
    expect(theirs.body.data.waiting).to.equal(0);
  });

  it('shows platform administrators every tenant\'s backlog, refuses tenants, and exports it per lane on /metrics', async () => {
    const all = await app.api.get('/admin/delivery-backlog', { token: admin.token });
    expect(all.status, all.text).to.equal(200);
    expect(all.body.data.lanes.find((l: { lane: string }) => l.lane === 'OTP').waiting).to.be.at.least(1);
    expect(all.body.data.tenants.length).to.be.at.most(20);
    expect(all.body.data.tenants.find((t: { organizationId: string }) => t.organizationId === owner.organizationId)).to.include({ waiting: 3 });
    expect(all.body.data.tenants.find((t: { organizationId: string }) => t.organizationId === other.organizationId)).to.equal(undefined);
    expect((await app.api.get('/admin/delivery-backlog', { token: owner.token })).status).to.equal(403);

    const metrics = await app.api.get('/metrics');
    expect(metrics.status).to.equal(200);
    expect(metrics.text).to.match(/nkra_delivery_backlog_jobs\{lane="OTP"\} [1-9]/);
    expect(metrics.text).to.match(/nkra_delivery_backlog_oldest_seconds\{lane="MARKETING"\} \d/);
    expect(metrics.text).to.include(`nkra_delivery_backlog_tenant_jobs{organization_id="${owner.organizationId}"} 3`);
  });

  it('gives a tenant its ETA at the last minute\'s pace once its messages are being delivered, and none before', async () => {
    const before = (await app.api.get('/delivery-logs/backlog', owner.auth)).body.data;
    expect(before).to.include({ waiting: 3, drainPerSecond: 0, etaSeconds: null });
    const infra = await sharedInfrastructure();
    const container = buildWorkerContainer(testConfig(), createLogger('silent'), infra);
    await loadProviders(container);
    const worker = await startWorker(infra.boss, container.getAll(WORKER.handlers), createLogger('silent'));
    let drained = before;
    try {
      // Until every job is done: a job taken by the worker is neither waiting nor completed yet.
      const done = (b: { waiting: number; lanes: Array<{ drainedLastMinute: number }> }) => b.waiting === 0 && b.lanes.reduce((n, l) => n + l.drainedLastMinute, 0) >= 3;
      for (let i = 0; i < 300 && !done(drained); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        drained = (await app.api.get('/delivery-logs/backlog', owner.auth)).body.data;
      }
    } finally { await worker.stop(); }
    expect(drained).to.include({ waiting: 0, etaSeconds: 0 });
    expect(drained.lanes.map((l: { lane: string; drainedLastMinute: number }) => [l.lane, l.drainedLastMinute])).to.deep.equal([['OTP', 1], ['TRANSACTIONAL', 2], ['MARKETING', 0]]);

    const next = await app.api.post('/messages/send', { channel: 'SMS', to: phone(4), body: 'Parcel 3 shipped', async: true }, owner.auth);
    expect(next.status, next.text).to.equal(202);
    const waiting = (await app.api.get('/delivery-logs/backlog', owner.auth)).body.data;
    // 3 delivered within the last seconds: the pace is 3 over the seconds since the first of them (1-60), so 1 waiting is at most 20 s away.
    expect(waiting.waiting).to.equal(1);
    expect(waiting.etaSeconds).to.be.within(1, 20);
    expect(waiting.etaSeconds).to.equal(Math.ceil(1 / (3 / Math.max(...waiting.lanes.filter((l: { drainedLastMinute: number }) => l.drainedLastMinute > 0).map((l: { drainSpanSeconds: number }) => l.drainSpanSeconds)))));
    const transactional = waiting.lanes.find((l: { lane: string }) => l.lane === 'TRANSACTIONAL');
    expect(transactional).to.include({ waiting: 1, drainedLastMinute: 2, etaSeconds: Math.ceil(1 / (2 / transactional.drainSpanSeconds)) });
    expect((await app.api.get('/delivery-logs/backlog', other.auth)).body.data).to.include({ waiting: 0, etaSeconds: 0, drainPerSecond: 0 });
  });
});
