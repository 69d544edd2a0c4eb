import { expect } from 'chai';
import type { NotificationEvent } from '../../core/domain/notification-event.ts';
import type { FanOut } from '../../core/domain/fan-out.ts';
import type { WorkflowRun, WorkflowStepRun, WorkflowVersion } from '../../core/domain/workflow.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { at, rejection, seedOrganization, uniqueId } from './contract-fixtures.ts';

async function seedEvent(storage: Storage, organizationId: string): Promise<NotificationEvent> {
  const event: NotificationEvent = {
    id: uniqueId('event'), organizationId, name: 'Order shipped', slug: `order-${uniqueId('s').slice(0, 12)}`, description: null, channelPriority: ['SMS'],
    templateId: null, retryRules: { attempts: 1, backoffSeconds: 60, backoffMultiplier: 2 }, fallbackRules: { channels: [] }, isActive: true, createdAt: at(0), updatedAt: at(0),
  };
  await storage.notificationEvents.insert(event);
  return event;
}

function aVersion(event: NotificationEvent, version: number): WorkflowVersion {
  return {
    id: uniqueId('version'), organizationId: event.organizationId, eventId: event.id, version, createdAt: at(version),
    steps: [{ type: 'delay', seconds: 60 }, { type: 'send', channels: ['SMS'], fallbackChannels: ['EMAIL'], templateId: null }],
    cancelOn: ['payment.received'], retry: { attempts: 3, backoffSeconds: 30 },
  };
}

function aRun(event: NotificationEvent, overrides: Partial<WorkflowRun> = {}): WorkflowRun {
  return {
    id: uniqueId('run'), organizationId: event.organizationId, eventId: event.id, eventSlug: event.slug, version: 1, steps: [{ type: 'throttle', limit: 1, windowSeconds: 60 }],
    cancelOn: [], retry: { attempts: 3, backoffSeconds: 30 }, request: { to: '+233241234567', contactId: null, subscriberId: null, countryCode: 'GH', variables: { order: 'A' } },
    correlationKey: null, status: 'RUNNING', cursor: 0, attempts: 0, waitingFor: null, signal: null, digest: null, error: null,
    apiKeyId: null, userId: null, isSandbox: false, createdAt: at(1), updatedAt: at(1), ...overrides,
  };
}

function aStep(run: WorkflowRun, index: number, overrides: Partial<WorkflowStepRun> = {}): WorkflowStepRun {
  return {
    runId: run.id, organizationId: run.organizationId, index, type: 'delay', status: 'WAITING', outcome: 'DELAYED', messageId: null, triggerId: null,
    resumeAt: at(60), detail: { note: 'x' }, startedAt: at(1), finishedAt: null, ...overrides,
  };
}

function aFanOut(event: NotificationEvent, overrides: Partial<FanOut> = {}): FanOut {
  return {
    id: uniqueId('fanout'), organizationId: event.organizationId, eventId: event.id, eventSlug: event.slug, kind: 'RUNS', segmentId: null, topic: 'vip',
    request: { variables: { sale: 'May' }, correlationKey: 'sale-1' }, status: 'RUNNING', cursor: null, total: 3, processed: 0, started: 0, skipped: 0,
    failureReason: null, apiKeyId: null, userId: null, isSandbox: false, createdAt: at(0), updatedAt: at(0), completedAt: null, ...overrides,
  };
}

/** WorkflowRepository contract (core/ports/workflow-repository.ts), run against every Storage. */
export function describeWorkflowRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`WorkflowRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('keeps numbered versions per event, newest first, refuses a number twice (CONFLICT) and hides them from other organizations', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const event = await seedEvent(storage, a.id);
      await storage.workflows.insertVersion(aVersion(event, 1));
      const v2 = aVersion(event, 2);
      await storage.workflows.insertVersion(v2);
      expect((await rejection(storage.workflows.insertVersion(aVersion(event, 2)))).code).to.equal('CONFLICT');
      expect(await storage.workflows.latestVersion(a.id, event.id)).to.deep.equal(v2);
      expect((await storage.workflows.listVersions(a.id, event.id, 10)).map((v) => v.version)).to.deep.equal([2, 1]);
      expect(await storage.workflows.latestVersion(b.id, event.id)).to.equal(null);
    });

    it('stores runs, patches them, finds the active ones by correlation key, scoped to the organization', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const event = await seedEvent(storage, a.id);
      const run = aRun(event, { correlationKey: 'inv-1', signal: { event: 'x', at: at(2).toISOString(), variables: { k: 'v' } } });
      const done = aRun(event, { correlationKey: 'inv-1', status: 'COMPLETED', createdAt: at(2) });
      await storage.workflows.insertRun(run);
      await storage.workflows.insertRun(done);
      expect(await storage.workflows.findRun(a.id, run.id)).to.deep.equal(run);
      expect(await storage.workflows.findRun(b.id, run.id)).to.equal(null);
      expect((await storage.workflows.findActiveByKey(a.id, 'inv-1', 10)).map((r) => r.id)).to.deep.equal([run.id]);
      expect(await storage.workflows.findActiveByKey(b.id, 'inv-1', 10)).to.deep.equal([]);
      await storage.workflows.updateRun(a.id, run.id, { status: 'WAITING', cursor: 1, waitingFor: 'order.opened', digest: { count: 1, items: [{ a: '1' }] }, error: null, updatedAt: at(5) });
      await storage.workflows.updateRun(b.id, run.id, { status: 'FAILED', updatedAt: at(6) });
      expect(await storage.workflows.lockRun(run.id)).to.deep.include({ status: 'WAITING', cursor: 1, waitingFor: 'order.opened', digest: { count: 1, items: [{ a: '1' }] }, updatedAt: at(5) });
      expect((await storage.workflows.listRuns(a.id, event.id, 10)).map((r) => r.id)).to.deep.equal([done.id, run.id]);
    });

    it('finds the organization\'s WAITING runs by wait key (read, reply, click), bounded, never another organization\'s, and locks keys in a transaction', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const event = await seedEvent(storage, a.id);
      const waiting = aRun(event, { status: 'WAITING', waitingFor: 'read:user-1' });
      const other = aRun(event, { status: 'WAITING', waitingFor: 'reply:+233241234567' });
      const running = aRun(event, { status: 'RUNNING', waitingFor: 'read:user-1' });
      const done = aRun(event, { status: 'COMPLETED', waitingFor: null });
      for (const r of [waiting, other, running, done]) await storage.workflows.insertRun(r);
      expect(await storage.workflows.findWaiting(a.id, ['read:user-1'], 10)).to.deep.equal([waiting.id]);
      expect((await storage.workflows.findWaiting(a.id, ['read:user-1', 'reply:+233241234567', 'click:t'], 10)).sort()).to.deep.equal([waiting.id, other.id].sort());
      expect(await storage.workflows.findWaiting(a.id, ['read:user-1', 'reply:+233241234567'], 1)).to.have.length(1);
      expect(await storage.workflows.findWaiting(a.id, [], 10)).to.deep.equal([]);
      expect(await storage.workflows.findWaiting(b.id, ['read:user-1'], 10)).to.deep.equal([]);
      const found = await storage.transaction(async (tx) => {
        await tx.workflows.lockWaitKeys(a.id, ['read:user-1', 'click:t']);
        await tx.workflows.lockWaitKeys(a.id, ['read:user-1']); // re-entrant within the transaction
        return tx.workflows.findWaiting(a.id, ['read:user-1'], 10);
      });
      expect(found).to.deep.equal([waiting.id]);
      await storage.workflows.updateRun(a.id, waiting.id, { status: 'RUNNING', waitingFor: null, updatedAt: at(9) });
      expect(await storage.workflows.findWaiting(a.id, ['read:user-1'], 10)).to.deep.equal([]);
    });

    it('claims a (run, step) once: a second claim writes nothing and answers false', async () => {
      const a = await seedOrganization(storage);
      const run = aRun(await seedEvent(storage, a.id));
      await storage.workflows.insertRun(run);
      const step = aStep(run, 0);
      expect(await storage.workflows.claimStep(step)).to.equal(true);
      expect(await storage.workflows.claimStep(aStep(run, 0, { outcome: 'OTHER' }))).to.equal(false);
      expect(await storage.workflows.findStep(a.id, run.id, 0)).to.deep.equal(step);
      await storage.workflows.updateStep(a.id, run.id, 0, { status: 'DONE', outcome: 'RESUMED', finishedAt: at(61) });
      await storage.workflows.claimStep(aStep(run, 1, { type: 'send', status: 'DONE', outcome: 'SENT' }));
      expect((await storage.workflows.listSteps(a.id, run.id)).map((s) => [s.index, s.status, s.outcome])).to.deep.equal([[0, 'DONE', 'RESUMED'], [1, 'DONE', 'SENT']]);
    });

    it('resumes due delays in one call: the last step completes the run, a later step leaves it RUNNING, others are untouched', async () => {
      const a = await seedOrganization(storage);
      const event = await seedEvent(storage, a.id);
      const delay = { type: 'delay' as const, seconds: 60 };
      const last = aRun(event, { status: 'WAITING', steps: [delay] });
      const more = aRun(event, { status: 'WAITING', steps: [delay, { type: 'throttle', limit: 1, windowSeconds: 60 }] });
      const early = aRun(event, { status: 'WAITING', steps: [delay] });
      const notDelay = aRun(event, { status: 'WAITING', steps: [{ type: 'digest', windowSeconds: 60, maxItems: 10, lookBack: false }] });
      for (const run of [last, more, early, notDelay]) await storage.workflows.insertRun(run);
      for (const run of [last, more]) await storage.workflows.claimStep(aStep(run, 0, { resumeAt: at(60) }));
      await storage.workflows.claimStep(aStep(early, 0, { resumeAt: at(120) }));
      await storage.workflows.claimStep(aStep(notDelay, 0, { type: 'digest', resumeAt: at(60) }));
      const moved = await storage.transaction((tx) => tx.workflows.resumeDueDelays([last.id, more.id, early.id, notDelay.id, last.id], at(60), at(61)));
      expect(moved.map((m) => [m.id, m.status]).sort()).to.deep.equal([[last.id, 'COMPLETED'], [more.id, 'RUNNING']].sort());
      expect(await storage.workflows.findRun(a.id, last.id)).to.include({ cursor: 1, status: 'COMPLETED' });
      expect(await storage.workflows.findStep(a.id, more.id, 0)).to.include({ status: 'DONE', outcome: 'RESUMED' });
      expect(await storage.workflows.findRun(a.id, early.id)).to.include({ cursor: 0, status: 'WAITING' });
      expect(await storage.transaction((tx) => tx.workflows.resumeDueDelays([last.id, more.id], at(60), at(62)))).to.deep.equal([]);
    });

    it('resumer: claims due delay steps in resume-time order up to the limit, moves their runs, closes a cancelled run\'s step, leaves early ones', async () => {
      const a = await seedOrganization(storage);
      const event = await seedEvent(storage, a.id);
      await storage.transaction((tx) => tx.workflows.resumeDueDelaySteps(at(60), at(60), 50_000)); // earlier suites' due steps (the database is shared)
      const delay = { type: 'delay' as const, seconds: 60 };
      const cancelled = aRun(event, { status: 'CANCELLED', steps: [delay] });
      const last = aRun(event, { status: 'WAITING', steps: [delay] });
      const more = aRun(event, { status: 'WAITING', steps: [delay, { type: 'throttle', limit: 1, windowSeconds: 60 }] });
      const early = aRun(event, { status: 'WAITING', steps: [delay] });
      for (const run of [cancelled, last, more, early]) await storage.workflows.insertRun(run);
      await storage.workflows.claimStep(aStep(cancelled, 0, { resumeAt: at(5) }));
      await storage.workflows.claimStep(aStep(last, 0, { resumeAt: at(10) }));
      await storage.workflows.claimStep(aStep(more, 0, { resumeAt: at(20) }));
      await storage.workflows.claimStep(aStep(early, 0, { resumeAt: at(120) }));
      const claim = (limit: number) => storage.transaction((tx) => tx.workflows.resumeDueDelaySteps(at(60), at(61), limit));
      expect(await claim(1)).to.deep.equal([]); // the cancelled run's step, the earliest: closed, not resumed
      expect(await storage.workflows.findStep(a.id, cancelled.id, 0)).to.include({ status: 'DONE', outcome: 'CANCELLED' });
      expect(await storage.workflows.findRun(a.id, cancelled.id)).to.include({ status: 'CANCELLED', cursor: 0 });
      expect(await claim(1)).to.deep.equal([{ id: last.id, organizationId: a.id, status: 'COMPLETED' }]);
      expect(await claim(10)).to.deep.equal([{ id: more.id, organizationId: a.id, status: 'RUNNING' }]);
      expect(await claim(10)).to.deep.equal([]);
      expect(await storage.workflows.findRun(a.id, more.id)).to.include({ status: 'RUNNING', cursor: 1, attempts: 0 });
      expect(await storage.workflows.findStep(a.id, last.id, 0)).to.include({ status: 'DONE', outcome: 'RESUMED' });
      expect(await storage.workflows.findStep(a.id, early.id, 0)).to.include({ status: 'WAITING' });
      expect(await storage.workflows.findRun(a.id, early.id)).to.include({ status: 'WAITING', cursor: 0 });
    });

    it('batch joins: locks the RUNNING runs, claims steps at once (CONFLICT on a repeat), moves runs, writes buckets and items, refuses a flushed bucket', async () => {
      const a = await seedOrganization(storage);
      const event = await seedEvent(storage, a.id);
      const digest = { type: 'digest' as const, windowSeconds: 60, maxItems: 10, lookBack: false };
      const owner = aRun(event, { steps: [digest] });
      const joiner = aRun(event, { steps: [digest] });
      const waiting = aRun(event, { status: 'WAITING', steps: [digest] });
      for (const run of [owner, joiner, waiting]) await storage.workflows.insertRun(run);
      const key = uniqueId('key');
      const open = { id: uniqueId('b'), organizationId: a.id, bucketKey: key, ownerRunId: owner.id, status: 'OPEN' as const, itemCount: 1, flushAt: at(60), createdAt: at(0) };
      const other = uniqueId('key');
      await storage.transaction(async (tx) => {
        expect((await tx.workflows.lockRunningRuns([owner.id, joiner.id, waiting.id, owner.id])).map((r) => r.id).sort()).to.deep.equal([owner.id, joiner.id].sort());
        expect((await tx.workflows.lockLatestBuckets(a.id, [key, other])).size).to.equal(0);
        await tx.workflows.writeDigestJoins(a.id, { buckets: [open], items: [{ bucketId: open.id, runId: owner.id, variables: { order: 'A' }, at: at(1) }], grown: [] });
        await tx.workflows.claimSteps([aStep(owner, 0, { type: 'digest', outcome: 'COLLECTING' }), aStep(joiner, 0, { type: 'digest', status: 'DONE', outcome: 'DIGESTED', resumeAt: null, finishedAt: at(1) })]);
        await tx.workflows.moveRuns(a.id, [{ id: owner.id, status: 'WAITING', cursor: 0 }, { id: joiner.id, status: 'COMPLETED', cursor: 1 }], at(2));
      });
      const latest = await storage.transaction((tx) => tx.workflows.lockLatestBuckets(a.id, [key, other]));
      expect([...latest.keys()]).to.deep.equal([key]);
      expect(latest.get(key)).to.deep.equal(open);
      await storage.transaction((tx) => tx.workflows.writeDigestJoins(a.id, { buckets: [], items: [{ bucketId: open.id, runId: joiner.id, variables: { order: 'B' }, at: at(2) }], grown: [{ bucketId: open.id, added: 1 }] }));
      expect(await storage.workflows.findRun(a.id, joiner.id)).to.include({ status: 'COMPLETED', cursor: 1, attempts: 0 });
      expect(await storage.workflows.findRun(a.id, owner.id)).to.include({ status: 'WAITING', cursor: 0 });
      expect(await storage.workflows.findStep(a.id, joiner.id, 0)).to.include({ status: 'DONE', outcome: 'DIGESTED' });
      expect((await rejection(storage.transaction((tx) => tx.workflows.claimSteps([aStep(owner, 0)])))).code).to.equal('CONFLICT');
      expect(await storage.transaction((tx) => tx.workflows.flushDigest(a.id, open.id, 10))).to.deep.equal({ flushed: true, items: [{ order: 'A' }, { order: 'B' }] });
      const late = storage.transaction((tx) => tx.workflows.writeDigestJoins(a.id, { buckets: [], items: [{ bucketId: open.id, runId: uniqueId('run'), variables: {}, at: at(3) }], grown: [{ bucketId: open.id, added: 1 }] }));
      expect((await rejection(late)).code).to.equal('CONFLICT');
    });

    it('flushes a digest bucket once, with its items in arrival order; a flushed bucket takes no item', async () => {
      const a = await seedOrganization(storage);
      const key = uniqueId('bucket');
      expect(await storage.transaction((tx) => tx.workflows.lockLatestBucket(a.id, key))).to.equal(null);
      const bucket = { id: uniqueId('b'), organizationId: a.id, bucketKey: key, ownerRunId: uniqueId('run'), status: 'OPEN' as const, itemCount: 0, flushAt: at(60), createdAt: at(0) };
      await storage.workflows.openBucket(bucket);
      expect(await storage.workflows.addDigestItem(a.id, bucket.id, bucket.ownerRunId, { order: 'A' }, at(1))).to.equal(1);
      expect(await storage.workflows.addDigestItem(a.id, bucket.id, uniqueId('run'), { order: 'B' }, at(2))).to.equal(2);
      expect(await storage.transaction((tx) => tx.workflows.lockLatestBucket(a.id, key))).to.deep.include({ id: bucket.id, status: 'OPEN', itemCount: 2 });
      const flushes = await Promise.all([1, 2].map(() => storage.transaction((tx) => tx.workflows.flushDigest(a.id, bucket.id, 10))));
      expect(flushes.filter((f) => f.flushed).map((f) => f.items)).to.deep.equal([[{ order: 'A' }, { order: 'B' }]]);
      expect((await rejection(storage.workflows.addDigestItem(a.id, bucket.id, uniqueId('run'), {}, at(3)))).code).to.equal('CONFLICT');
    });

    it('counts a throttle window up to its limit, also under concurrent takes', async () => {
      const a = await seedOrganization(storage);
      const key = uniqueId('throttle');
      const takes = await Promise.all(Array.from({ length: 6 }, () => storage.transaction((tx) => tx.workflows.takeThrottle(a.id, key, at(0), 4))));
      expect(takes.filter(Boolean)).to.have.length(4);
      expect(await storage.workflows.takeThrottle(a.id, key, at(60), 4)).to.equal(true);
    });

    it('lists failed runs latest failure first from a time, pages by keyset, counts them with a cap, scoped to the organization', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const event = await seedEvent(storage, a.id);
      const error = { code: 'INSUFFICIENT_BALANCE', message: 'The wallet cannot cover it' };
      const failed = [at(100), at(200), at(200), at(300)].map((when) => aRun(event, { status: 'FAILED', error, updatedAt: when }));
      for (const run of [...failed, aRun(event, { status: 'COMPLETED', updatedAt: at(250) }), aRun(event, { status: 'FAILED', updatedAt: at(50) })]) await storage.workflows.insertRun(run);
      const ids = (runs: Array<{ id: string }>) => runs.map((r) => r.id);
      const byFailure = [failed[3]!, ...[failed[1]!, failed[2]!].sort((x, y) => (x.id < y.id ? 1 : -1)), failed[0]!];
      expect(ids(await storage.workflows.listFailedRuns(a.id, at(100), null, 10))).to.deep.equal(ids(byFailure));
      const page1 = await storage.workflows.listFailedRuns(a.id, at(100), null, 2);
      const last = page1.at(-1)!;
      expect(ids(page1)).to.deep.equal(ids(byFailure.slice(0, 2)));
      expect(ids(await storage.workflows.listFailedRuns(a.id, at(100), { at: last.updatedAt, id: last.id }, 2))).to.deep.equal(ids(byFailure.slice(2)));
      expect((await storage.workflows.listFailedRuns(a.id, at(100), null, 1))[0]?.error).to.deep.equal(error);
      expect(await storage.workflows.listFailedRuns(b.id, at(0), null, 10)).to.deep.equal([]);
      expect(await storage.workflows.countFailedRuns(a.id, at(100), 100)).to.equal(3);
      expect(await storage.workflows.countFailedRuns(a.id, at(0), 2)).to.equal(2);
      expect(await storage.workflows.countFailedRuns(b.id, at(0), 100)).to.equal(0);
    });

    it('keeps one failure acknowledgement per organization whose time never moves back', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      expect(await storage.workflows.findFailureAcknowledgement(a.id)).to.equal(null);
      const first = { organizationId: a.id, through: at(300), userId: 'user-1', at: at(301) };
      expect(await storage.workflows.acknowledgeFailures(first)).to.deep.equal(first);
      const older = await storage.workflows.acknowledgeFailures({ organizationId: a.id, through: at(100), userId: 'user-2', at: at(400) });
      expect(older).to.deep.equal({ organizationId: a.id, through: at(300), userId: 'user-2', at: at(400) });
      expect(await storage.workflows.findFailureAcknowledgement(a.id)).to.deep.equal(older);
      expect(await storage.workflows.findFailureAcknowledgement(b.id)).to.equal(null);
    });

    it('stores fan-outs, patches them, locks them, scoped to the organization', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const fanOut = aFanOut(await seedEvent(storage, a.id));
      await storage.workflows.insertFanOut(fanOut);
      expect(await storage.workflows.findFanOut(a.id, fanOut.id)).to.deep.equal(fanOut);
      expect(await storage.workflows.findFanOut(b.id, fanOut.id)).to.equal(null);
      await storage.workflows.updateFanOut(a.id, fanOut.id, { cursor: 'c-2', processed: 2, started: 1, skipped: 1, updatedAt: at(5) });
      await storage.workflows.updateFanOut(b.id, fanOut.id, { status: 'FAILED', updatedAt: at(6) });
      expect(await storage.transaction((tx) => tx.workflows.lockFanOut(a.id, fanOut.id))).to.deep.include({ status: 'RUNNING', cursor: 'c-2', processed: 2, started: 1, skipped: 1, updatedAt: at(5) });
      expect(await storage.transaction((tx) => tx.workflows.lockFanOut(b.id, fanOut.id))).to.equal(null);
      await storage.workflows.updateFanOut(a.id, fanOut.id, { status: 'COMPLETED', completedAt: at(9), failureReason: null, updatedAt: at(9) });
      expect(await storage.workflows.findFanOut(a.id, fanOut.id)).to.deep.include({ status: 'COMPLETED', completedAt: at(9) });
    });

    it('records each (fan-out, contact) once, also under concurrent claims, and counts a page of recipients', async () => {
      const a = await seedOrganization(storage);
      const event = await seedEvent(storage, a.id);
      const fanOut = aFanOut(event); const other = aFanOut(event);
      await storage.workflows.insertFanOut(fanOut); await storage.workflows.insertFanOut(other);
      const started = (contactId: string) => ({ contactId, runId: uniqueId('run'), triggerId: null, skipReason: null });
      expect(await storage.workflows.claimFanOutRecipients(a.id, fanOut.id, [started('c-1'), started('c-2'), { contactId: 'c-3', runId: null, triggerId: null, skipReason: 'the contact opted out' }]))
        .to.deep.equal(['c-1', 'c-2', 'c-3']);
      expect(await storage.workflows.claimFanOutRecipients(a.id, fanOut.id, [started('c-2'), started('c-4')])).to.deep.equal(['c-4']);
      expect(await storage.workflows.claimFanOutRecipients(a.id, other.id, [started('c-1')])).to.deep.equal(['c-1']); // another fan-out
      const concurrent = await Promise.all([1, 2, 3].map(() => storage.transaction((tx) => tx.workflows.claimFanOutRecipients(a.id, fanOut.id, [started('c-5')]))));
      expect(concurrent.flat()).to.deep.equal(['c-5']);
      expect(await storage.workflows.countFanOutRecipients(a.id, fanOut.id, null, 'c-3')).to.deep.equal({ started: 2, skipped: 1 });
      expect(await storage.workflows.countFanOutRecipients(a.id, fanOut.id, 'c-2', 'c-9')).to.deep.equal({ started: 2, skipped: 1 });
      expect(await storage.workflows.countFanOutRecipients(a.id, other.id, null, 'c-9')).to.deep.equal({ started: 1, skipped: 0 });
    });
  });
}
