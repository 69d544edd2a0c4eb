import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import type { Contact } from '../../core/domain/contact.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { RunFanOut } from '../../core/use-cases/workflows/run-fan-out.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders, MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { crashing } from '../support/crashing-storage.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { testConfig } from '../support/test-config.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

describe('HTTP: workflow fan-out (POST /events/trigger to a segment or topic)', function () {
  this.timeout(120_000);
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let liveKey: string;
  let templateId: string;
  let worker: RunningWorker | undefined;
  const sms = new RecordingProvider('SMS', 'fan-out-sms');
  const providers = new StaticProviderDirectory([sms], []);

  const storage = (): Storage => app.container.get(INFRA.storage);
  const sql = async (text: string, params: unknown[]) => (await sharedInfrastructure()).database.em().execute<Array<Record<string, string>>>(text, params);
  function runner(store: Storage = storage(), batchSize = 100) {
    return new RunFanOut({ ...app.container.get(MESSAGING.sendDeps), storage: store, batchSize });
  }
  async function event(slug: string, steps?: unknown[]) {
    const res = await app.api.post('/events', { name: slug, slug, templateId }, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    if (steps) expect((await app.api.put(`/events/${res.body.data.id}/workflow`, { steps }, tenant.auth)).status).to.equal(200);
    return res.body.data as { id: string; slug: string };
  }
  /** `count` contacts tagged `tag`, inserted in one statement; the first `optedOut` have opted out. */
  async function contacts(tag: string, count: number, prefix: number, optedOut = 0): Promise<Contact[]> {
    const now = new Date();
    const list: Contact[] = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(), organizationId: tenant.organizationId, firstName: `P${i}`, lastName: null, phone: `+23320${String(prefix * 10_000 + i).padStart(7, '0')}`,
      email: null, countryCode: 'GH', tags: [tag], fcmToken: null, attributes: {}, optedOutAt: i < optedOut ? now : null, createdAt: now, updatedAt: now,
    }));
    await storage().contacts.insertMany(list);
    return list;
  }
  async function waitFor(id: string, status: string) {
    let body = (await app.api.get(`/fan-outs/${id}`, tenant.auth)).body.data;
    for (let i = 0; i < 600 && body.status !== status; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      body = (await app.api.get(`/fan-outs/${id}`, tenant.auth)).body.data;
    }
    return body;
  }

  before(async () => {
    app = await startTestApp({ providers });
    tenant = await registerTenant(app.api, 'fan-out');
    other = await registerTenant(app.api, 'fan-out-other');
    liveKey = (await app.api.post('/api-keys', { name: 'live', isSandbox: false }, tenant.auth)).body.data.key;
    await storage().wallets.update(tenant.organizationId, () => ({ amount: 1_000_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'test credit' }), new Date());
    templateId = (await app.api.post('/templates', { name: 'Sale', channel: 'SMS', body: 'Hi {{firstName}}, sale {{sale}}' }, tenant.auth)).body.data.id;
  });
  after(async () => { await worker?.stop(); await app?.close(); });

  it('validates a fan-out body: 400 (both targets, a recipient beside one), 404 (segment, event), and GET /fan-outs/{id} is 404 for other organizations', async () => {
    const e = await event('fo.validate');
    const both = await app.api.post('/events/trigger', { event: e.slug, segmentId: randomUUID(), topic: 'x' }, tenant.auth);
    expect(both.status).to.equal(400);
    expect(both.body.error.details.formErrors).to.deep.equal(['exactly one of segmentId or topic is required']);
    const mixed = await app.api.post('/events/trigger', { event: e.slug, topic: 'x', to: '+233241234567' }, tenant.auth);
    expect(mixed.status).to.equal(400);
    expect(mixed.body.error.details.fieldErrors).to.have.property('to');
    expect((await app.api.post('/events/trigger', { event: e.slug, segmentId: randomUUID() }, tenant.auth)).status).to.equal(404);
    expect((await app.api.post('/events/trigger', { event: 'fo.nope', topic: 'x' }, tenant.auth)).status).to.equal(404);
    const empty = await app.api.post('/events/trigger', { event: e.slug, topic: `nobody-${randomUUID().slice(0, 8)}` }, { apiKey: liveKey });
    expect(empty.status, empty.text).to.equal(202);
    expect(empty.body.data).to.include({ fanOut: true, status: 'RUNNING', total: 0, kind: 'TRIGGERS' });
    expect((await app.api.get(`/fan-outs/${empty.body.data.id}`, other.auth)).status).to.equal(404);
    expect((await app.api.get(`/fan-outs/${empty.body.data.id}`, { apiKey: liveKey })).status).to.equal(200);
  });

  it('a workflow fan-out killed in its second page and re-run starts exactly one run per contact, skipping opted-out and suppressed ones', async () => {
    const e = await event('fo.crash-runs', [{ type: 'delay', seconds: 3600 }, { type: 'send' }]);
    const list = await contacts('fo-crash-runs', 450, 1, 5);
    await storage().suppressions.insert({ id: randomUUID(), organizationId: tenant.organizationId, phone: list[5]!.phone, email: null, channel: null, category: null, reason: 'test', createdAt: new Date() });
    const res = await app.api.post('/events/trigger', { event: e.slug, topic: 'FO-Crash-Runs', variables: { sale: 'May' }, correlationKey: 'sale-may' }, tenant.auth);
    expect(res.status, res.text).to.equal(202);
    expect(res.body.data).to.include({ fanOut: true, kind: 'RUNS', topic: 'fo-crash-runs', total: 450, started: 0 });
    const job = { fanOutId: res.body.data.id as string, organizationId: tenant.organizationId };
    let crashed = false;
    await runner(crashing(storage(), 2)).execute(job).catch(() => { crashed = true; });
    expect(crashed).to.equal(true);
    const mid = (await app.api.get(`/fan-outs/${job.fanOutId}`, tenant.auth)).body.data;
    expect(mid).to.deep.include({ status: 'RUNNING' });
    expect(mid.progress).to.deep.include({ processed: 100, total: 450 });
    await Promise.all([runner().execute(job), runner().execute(job)]); // the retried job and a stale duplicate of it, side by side
    await runner().execute(job); // a retried job after completion does nothing
    const done = (await app.api.get(`/fan-outs/${job.fanOutId}`, tenant.auth)).body.data;
    expect(done).to.deep.include({ status: 'COMPLETED', started: 444, skipped: 6 });
    expect(done.progress).to.deep.include({ processed: 450, percent: 100 });
    const [runs] = await sql(`select count(*) as runs, count(distinct request->>'contactId') as contacts, count(*) filter (where correlation_key = 'sale-may') as keyed
      from workflow_runs where organization_id = ? and event_id = ?`, [tenant.organizationId, e.id]);
    expect(runs).to.deep.equal({ runs: '444', contacts: '444', keyed: '444' });
    const skipped = await sql('select skip_reason, count(*) as n from event_fan_out_recipients where fan_out_id = ? and skip_reason is not null group by skip_reason order by 1', [job.fanOutId]);
    expect(skipped).to.deep.equal([{ skip_reason: 'the contact is on the suppression list', n: '1' }, { skip_reason: 'the contact opted out', n: '5' }]);
  });

  it('a plain-event fan-out killed between two recipients\' triggers and re-run triggers each contact once', async () => {
    const e = await event('fo.crash-triggers');
    const segment = await app.api.post('/segments', { name: 'Crash triggers', rules: { tags: ['fo-crash-triggers'] } }, tenant.auth);
    expect(segment.status, segment.text).to.equal(201);
    await contacts('fo-crash-triggers', 12, 2);
    const res = await app.api.post('/events/trigger', { event: e.slug, segmentId: segment.body.data.id, variables: { sale: 'June' } }, tenant.auth);
    expect(res.body.data).to.include({ kind: 'TRIGGERS', total: 12 });
    const job = { fanOutId: res.body.data.id as string, organizationId: tenant.organizationId };
    let crashed = false;
    await runner(crashing(storage(), 5), 5).execute(job).catch(() => { crashed = true; });
    expect(crashed).to.equal(true);
    const [partial] = await sql('select count(*) as n from event_triggers where organization_id = ? and event_id = ?', [tenant.organizationId, e.id]);
    expect(partial!['n']).to.equal('4');
    await runner(storage(), 5).execute(job);
    const done = (await app.api.get(`/fan-outs/${job.fanOutId}`, tenant.auth)).body.data;
    expect(done).to.deep.include({ status: 'COMPLETED', started: 12, skipped: 0 });
    const [triggers] = await sql(`select count(*) as n, count(distinct contact_id) as contacts from event_triggers where organization_id = ? and event_id = ?`, [tenant.organizationId, e.id]);
    expect(triggers).to.deep.equal({ n: '12', contacts: '12' });
    const [messages] = await sql(`select count(*) as n from messages m join event_triggers t on t.current_message_id = m.id where t.event_id = ? and m.body like 'Hi P%, sale June'`, [e.id]);
    expect(messages!['n']).to.equal('12');
  });

  it('shares one idempotency key space between plain triggers, workflow runs and fan-outs: another kind is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const plain = await event('fo.idem-plain');
    const flow = await event('fo.idem-flow', [{ type: 'delay', seconds: 3600 }, { type: 'send' }]);
    await contacts('fo-idem', 3, 4);
    const reused = (res: { status: number; body: { error: { code: string; details: { earlier?: { kind: string; id: string } } } } }, kind: string, id: string) => {
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
      expect(res.body.error.details.earlier).to.deep.equal({ kind, id });
    };
    const single = (slug: string, key: string) => ({ event: slug, to: '+233241110077', variables: { firstName: 'Ama', sale: 'Aug' }, idempotencyKey: key });
    const fanOut = (slug: string, key: string) => ({ event: slug, topic: 'fo-idem', variables: { sale: 'Aug' }, idempotencyKey: key });

    // A workflow run first, then a plain trigger or a fan-out with its key.
    const k1 = `k1-${randomUUID()}`;
    const run = await app.api.post('/events/trigger', single(flow.slug, k1), { apiKey: liveKey });
    expect(run.status, run.text).to.equal(201);
    reused(await app.api.post('/events/trigger', single(plain.slug, k1), { apiKey: liveKey }), 'run', run.body.data.id);
    reused(await app.api.post('/events/trigger', fanOut(flow.slug, k1), { apiKey: liveKey }), 'run', run.body.data.id);

    // A plain trigger first, then a run or a fan-out with its key.
    const k2 = `k2-${randomUUID()}`;
    const trigger = await app.api.post('/events/trigger', single(plain.slug, k2), { apiKey: liveKey });
    expect(trigger.status, trigger.text).to.equal(201);
    expect(trigger.body.data.workflowRun).to.equal(undefined);
    reused(await app.api.post('/events/trigger', single(flow.slug, k2), { apiKey: liveKey }), 'trigger', trigger.body.data.id);
    reused(await app.api.post('/events/trigger', fanOut(plain.slug, k2), { apiKey: liveKey }), 'trigger', trigger.body.data.id);

    // A fan-out first: replayed by the same body; a run or a plain trigger with its key is refused.
    const k3 = `k3-${randomUUID()}`;
    const started = await app.api.post('/events/trigger', fanOut(flow.slug, k3), { apiKey: liveKey });
    expect(started.status, started.text).to.equal(202);
    const replay = await app.api.post('/events/trigger', fanOut(flow.slug, k3), { apiKey: liveKey });
    expect(replay.status).to.equal(202);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    expect(replay.body.data.id).to.equal(started.body.data.id);
    reused(await app.api.post('/events/trigger', single(flow.slug, k3), { apiKey: liveKey }), 'fan-out', started.body.data.id);
    reused(await app.api.post('/events/trigger', single(plain.slug, k3), { apiKey: liveKey }), 'fan-out', started.body.data.id);

    // The same body answered by another kind: the event gained a workflow after a plain trigger with this key.
    const late = await event('fo.idem-late');
    const k4 = `k4-${randomUUID()}`;
    const before = await app.api.post('/events/trigger', single(late.slug, k4), { apiKey: liveKey });
    expect(before.status, before.text).to.equal(201);
    expect((await app.api.put(`/events/${late.id}/workflow`, { steps: [{ type: 'send' }] }, tenant.auth)).status).to.equal(200);
    const after = await app.api.post('/events/trigger', single(late.slug, k4), { apiKey: liveKey });
    reused(after, 'trigger', before.body.data.id);
    expect(after.body.error.message).to.contain('this request would be a workflow run');
  });

  it('fans a 2,000-contact segment out through the worker into 2,000 runs, each running its first step', async () => {
    const infra = await sharedInfrastructure();
    const container = buildWorkerContainer(testConfig(), createLogger('silent'), infra, { providers });
    await loadProviders(container);
    worker = await startWorker(infra.boss, container.getAll(WORKER.handlers), createLogger('silent'));
    const e = await event('fo.big', [{ type: 'delay', seconds: 3600 }, { type: 'send' }]);
    await contacts('fo-big', 2_000, 3);
    const segment = await app.api.post('/segments', { name: 'Big', rules: { tags: ['fo-big'] } }, tenant.auth);
    const res = await app.api.post('/events/trigger', { event: e.slug, segmentId: segment.body.data.id, variables: { sale: 'July' }, idempotencyKey: `big-${randomUUID()}` }, { apiKey: liveKey });
    expect(res.status, res.text).to.equal(202);
    const done = await waitFor(res.body.data.id, 'COMPLETED');
    expect(done).to.deep.include({ status: 'COMPLETED', total: 2_000, started: 2_000, skipped: 0 });
    const [runs] = await sql(`select count(*) as runs, count(distinct request->>'contactId') as contacts from workflow_runs where event_id = ?`, [e.id]);
    expect(runs).to.deep.equal({ runs: '2000', contacts: '2000' });
    let waiting = '0';
    for (let i = 0; i < 600 && waiting !== '2000'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      waiting = (await sql(`select count(*) as n from workflow_runs where event_id = ? and status = 'WAITING'`, [e.id]))[0]!['n']!;
    }
    expect(waiting).to.equal('2000'); // every run's delay step ran in the worker
  });
});
