import { expect } from 'chai';
import { FAIR_QUANTUM } from '../../adapters/queue/lane-priority.ts';
import { QUEUES, type QueueMonitor, type QueueName } from '../../core/ports/job-queue.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { aUser, anOrganization, rejection, seedUser, uniqueId } from './contract-fixtures.ts';

/** A queue under test, seen through Storage (`storage.jobs`, `tx.jobs`) plus ways to look inside it. */
export interface JobQueueSubject {
  storage: Storage;
  monitor: QueueMonitor;
  /** The data of every job stored in `queue` whose data carries this marker. */
  stored(queue: QueueName, marker: string): Promise<Array<Record<string, unknown>>>;
  /** Deletes the jobs carrying this marker (the real queues are shared by the whole run). */
  remove(queue: QueueName, marker: string): Promise<void>;
  /** Takes up to `count` runnable jobs one at a time, as a worker fetches them, and returns their data in that order. */
  fetch(queue: QueueName, count: number): Promise<Array<Record<string, unknown>>>;
  /** Takes up to `count` runnable jobs as a worker does and completes them (as a worker finishing them would). */
  complete(queue: QueueName, count: number): Promise<Array<Record<string, unknown>>>;
  /** Makes the delayed jobs carrying this marker due now (as time passing would). */
  makeDue(queue: QueueName, marker: string): Promise<void>;
  /** Sets a tenant's fair-share weight (TenantDeliveryLimits), as a platform administrator would. */
  setWeight(tenant: string, weight: number): Promise<void>;
  /** Port promises this implementation is known not to keep yet: the tests are reported pending, not hidden. */
}

// The maintenance handler ignores job data, so a worker picking up a test job does no harm.
const QUEUE = QUEUES.maintenance;

/** The JobQueue and QueueMonitor contract (core/ports/job-queue.ts), run against every queue. */
export function describeJobQueueContract(name: string, makeSubject: () => Promise<JobQueueSubject>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let subject: JobQueueSubject;
    let markers: string[] = [];
    before(async () => { subject = await makeSubject(); });
    afterEach(async () => {
      for (const marker of markers) await subject.remove(QUEUE, marker);
      markers = [];
    });

    function newMarker(): string {
      const marker = uniqueId('job');
      markers.push(marker);
      return marker;
    }

    it('stores a job enqueued outside a transaction, data intact', async () => {
      const marker = newMarker();
      await subject.storage.jobs.enqueue(QUEUE, { marker, messageId: 'm-1', attempt: 2, tags: ['a'] });
      expect(await subject.stored(QUEUE, marker)).to.deep.equal([{ marker, messageId: 'm-1', attempt: 2, tags: ['a'] }]);
    });

    it('stores a job enqueued through tx.jobs when the transaction commits, with the writes', async () => {
      const marker = newMarker();
      const organization = anOrganization();
      await subject.storage.transaction(async (tx) => {
        await tx.organizations.insert(organization);
        await tx.jobs.enqueue(QUEUE, { marker, organizationId: organization.id });
      });
      expect(await subject.stored(QUEUE, marker)).to.deep.equal([{ marker, organizationId: organization.id }]);
      expect(await subject.storage.organizations.findById(organization.id)).to.deep.equal(organization);
    });

    it('does not store a job enqueued through tx.jobs when the transaction then throws', async () => {
      const marker = newMarker();
      const organization = anOrganization();
      const boom = new Error('boom');
      const outcome = subject.storage.transaction(async (tx) => {
        await tx.organizations.insert(organization);
        await tx.jobs.enqueue(QUEUE, { marker });
        throw boom;
      });
      await outcome.then(() => expect.fail('the transaction should fail'), (error: unknown) => expect(error).to.equal(boom));
      expect(await subject.stored(QUEUE, marker)).to.deep.equal([]);
      expect(await subject.storage.organizations.findById(organization.id)).to.equal(null);
    });

    it('does not store a job enqueued before a repository call fails in the same transaction', async () => {
      const marker = newMarker();
      const existing = await seedUser(subject.storage);
      const error = await rejection(subject.storage.transaction(async (tx) => {
        await tx.jobs.enqueue(QUEUE, { marker });
        await tx.users.insert(aUser({ email: existing.email }));
      }));
      expect(error.code).to.equal('CONFLICT');
      expect(await subject.stored(QUEUE, marker)).to.deep.equal([]);
    });

    it('stores many jobs enqueued at once, and none when the transaction throws', async () => {
      const kept = newMarker();
      const dropped = newMarker();
      await subject.storage.jobs.enqueueMany(QUEUE, [{ data: { marker: kept, n: 1 } }, { data: { marker: kept, n: 2 }, options: { startAfterSeconds: 60 } }]);
      await subject.storage.transaction(async (tx) => {
        await tx.jobs.enqueueMany(QUEUE, [{ data: { marker: kept, n: 3 } }]);
      });
      await subject.storage.transaction(async (tx) => {
        await tx.jobs.enqueueMany(QUEUE, [{ data: { marker: dropped, n: 4 } }, { data: { marker: dropped, n: 5 } }]);
        throw new Error('boom');
      }).catch(() => undefined);
      expect((await subject.stored(QUEUE, kept)).map((d) => d['n']).sort()).to.deep.equal([1, 2, 3]);
      expect(await subject.stored(QUEUE, dropped)).to.deep.equal([]);
    });

    it('stores a delayed job', async () => {
      const marker = newMarker();
      await subject.storage.jobs.enqueue(QUEUE, { marker }, { startAfterSeconds: 300 });
      expect(await subject.stored(QUEUE, marker)).to.deep.equal([{ marker }]);
    });

    describe('lanes and fair shares', () => {
      /** The next `count` of this test's jobs (their `n`) in fetch order, other jobs in the shared queue taken and skipped. */
      async function fetchOrder(marker: string, count: number): Promise<string[]> {
        const order: string[] = [];
        while (order.length < count) {
          const [job] = await subject.fetch(QUEUE, 1);
          if (!job) break;
          if (job['marker'] === marker) order.push(String(job['n']));
        }
        return order;
      }

      it('fetches a later OTP job before earlier transactional and marketing jobs, and transactional before marketing', async () => {
        const marker = newMarker();
        const tenant = uniqueId('org');
        const jobs = (lane: 'OTP' | 'TRANSACTIONAL' | 'MARKETING', names: string[]) => names.map((n) => ({ data: { marker, n }, options: { lane, tenant } }));
        await subject.storage.jobs.enqueueMany(QUEUE, jobs('MARKETING', ['m1', 'm2', 'm3']));
        await subject.storage.jobs.enqueueMany(QUEUE, jobs('TRANSACTIONAL', ['t1', 't2']));
        await subject.storage.transaction(async (tx) => { await tx.jobs.enqueue(QUEUE, { marker, n: 'otp' }, { lane: 'OTP', tenant }); });
        expect(await fetchOrder(marker, 6)).to.deep.equal(['otp', 't1', 't2', 'm1', 'm2', 'm3']);
      });

      it('keeps a delayed job of a higher lane out of the fetch until it is due', async () => {
        const marker = newMarker();
        await subject.storage.jobs.enqueue(QUEUE, { marker, n: 'later' }, { lane: 'OTP', tenant: uniqueId('org'), startAfterSeconds: 300 });
        await subject.storage.jobs.enqueue(QUEUE, { marker, n: 'now' }, { lane: 'MARKETING', tenant: uniqueId('org') });
        expect(await fetchOrder(marker, 2)).to.deep.equal(['now']);
      });

      it('serves tenants in turn after a delayed job of the lane falls due (it neither jumps the lane nor stalls its clock)', async () => {
        const marker = newMarker();
        const [a, b] = [uniqueId('org'), uniqueId('org')];
        await subject.storage.jobs.enqueue(QUEUE, { marker, n: 'net' }, { lane: 'OTP', tenant: uniqueId('org'), startAfterSeconds: 120 });
        await subject.makeDue(QUEUE, marker);
        await subject.storage.jobs.enqueueMany(QUEUE, ['a0', 'a1', 'a2', 'a3'].map((n) => ({ data: { marker, n }, options: { lane: 'OTP' as const, tenant: a } })));
        await subject.storage.jobs.enqueue(QUEUE, { marker, n: 'b' }, { lane: 'OTP', tenant: b });
        const order = await fetchOrder(marker, 6);
        expect(order.indexOf('b'), order.join(' ')).to.be.at.most(2);
        expect(order.at(-1)).to.equal('net');
      });

      it('fetches a tenant\'s single job within the first few fetches while another tenant has a large backlog in the same lane', async () => {
        const marker = newMarker();
        const [a, b] = [uniqueId('org'), uniqueId('org')];
        for (let chunk = 0; chunk < 4; chunk++) {
          await subject.storage.jobs.enqueueMany(QUEUE, Array.from({ length: 50 }, (_, i) => ({ data: { marker, n: `a${chunk * 50 + i}` }, options: { lane: 'TRANSACTIONAL' as const, tenant: a } })));
        }
        expect(await fetchOrder(marker, 2)).to.deep.equal(['a0', 'a1']); // A is being served
        await subject.storage.transaction(async (tx) => { await tx.jobs.enqueue(QUEUE, { marker, n: 'b' }, { lane: 'TRANSACTIONAL', tenant: b }); });
        const next = await fetchOrder(marker, 3);
        expect(next, 'B waits behind at most two of A\'s 198 queued jobs').to.include('b');
      });

      it('serves a tenant of weight 2 about twice as often as a tenant of weight 1 while both have backlogs', async () => {
        const marker = newMarker();
        const [heavy, light] = [uniqueId('org'), uniqueId('org')];
        await subject.setWeight(heavy, 2);
        const backlog = (tenant: string, prefix: string) => Array.from({ length: 12 * FAIR_QUANTUM }, (_, i) => ({ data: { marker, n: `${prefix}${i}` }, options: { lane: 'MARKETING' as const, tenant } }));
        await subject.storage.jobs.enqueueMany(QUEUE, backlog(light, 'l'));
        await subject.storage.jobs.enqueueMany(QUEUE, backlog(heavy, 'h'));
        // Six rounds: the light tenant's FAIR_QUANTUM jobs and the heavy one's twice that in each (a partial round at either end).
        const first = await fetchOrder(marker, 18 * FAIR_QUANTUM);
        const fromHeavy = first.filter((n) => n.startsWith('h')).length;
        expect(first).to.have.length(18 * FAIR_QUANTUM);
        expect(fromHeavy, first.join(' ')).to.be.within(11 * FAIR_QUANTUM, 13 * FAIR_QUANTUM);
      });

      it('gives a postponed job its tenant\'s fair tag: once due it is served in turn, not behind the lane', async () => {
        const marker = newMarker();
        const [a, b] = [uniqueId('org'), uniqueId('org')];
        await subject.storage.jobs.enqueueMany(QUEUE, [{ data: { marker, n: 'b-postponed' }, options: { lane: 'TRANSACTIONAL', tenant: b, startAfterSeconds: 60, fairTag: true } }]);
        await subject.storage.jobs.enqueueMany(QUEUE, Array.from({ length: 20 }, (_, i) => ({ data: { marker, n: `a${i}` }, options: { lane: 'TRANSACTIONAL' as const, tenant: a } })));
        await subject.makeDue(QUEUE, marker);
        const order = await fetchOrder(marker, 21);
        expect(order.indexOf('b-postponed'), order.join(' ')).to.be.at.most(2);
      });

      it('serves two tenants with backlogs in turn, whichever enqueued first: FAIR_QUANTUM consecutive jobs each a round', async () => {
        const marker = newMarker();
        const [a, b] = [uniqueId('org'), uniqueId('org')];
        const backlog = (tenant: string, prefix: string) => Array.from({ length: 8 * FAIR_QUANTUM }, (_, i) => ({ data: { marker, n: `${prefix}${i}` }, options: { lane: 'MARKETING' as const, tenant } }));
        await subject.storage.jobs.enqueueMany(QUEUE, backlog(a, 'a'));
        await subject.storage.jobs.enqueueMany(QUEUE, backlog(b, 'b'));
        const first = await fetchOrder(marker, 8 * FAIR_QUANTUM);
        const fromA = first.filter((n) => n.startsWith('a')).length;
        expect(first).to.have.length(8 * FAIR_QUANTUM);
        expect(fromA, first.join(' ')).to.be.within(3.5 * FAIR_QUANTUM, 4.5 * FAIR_QUANTUM);
        // Runs of one tenant's consecutive jobs (one fetched batch touches one tenant's neighbouring rows), not one job each.
        const runs = first.filter((n, i) => i === 0 || n[0] !== first[i - 1]![0]).length;
        expect(runs, first.join(' ')).to.be.at.most(12);
        expect(first.filter((n) => n.startsWith('a')), 'a tenant\'s own jobs in order').to.deep.equal(Array.from({ length: fromA }, (_, i) => `a${i}`));
      });

      it('fetches the first job of a tenant that had nothing waiting before the round being served, its later jobs in turn', async () => {
        const marker = newMarker();
        const [a, b, c] = [uniqueId('org'), uniqueId('org'), uniqueId('org')];
        const backlog = (tenant: string, prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ data: { marker, n: `${prefix}${i}` }, options: { lane: 'TRANSACTIONAL' as const, tenant } }));
        await subject.storage.jobs.enqueueMany(QUEUE, backlog(a, 'a', 4 * FAIR_QUANTUM));
        await subject.storage.jobs.enqueueMany(QUEUE, backlog(b, 'b', 4 * FAIR_QUANTUM));
        expect(await fetchOrder(marker, 2)).to.deep.equal(['a0', 'b0']); // each one's first job went ahead (both arrived with nothing waiting)
        await subject.storage.jobs.enqueueMany(QUEUE, backlog(c, 'c', 3));
        const next = await fetchOrder(marker, 3 * FAIR_QUANTUM);
        expect(next[0], next.join(' ')).to.equal('c0');
        expect(next.indexOf('c1'), 'the burst\'s later jobs wait behind the round\'s backlogs').to.be.above(FAIR_QUANTUM / 2);
      });
    });

    it('reports the waiting jobs per lane, and per tenant', async () => {
      const marker = newMarker();
      const [a, b] = [uniqueId('org'), uniqueId('org')];
      await subject.storage.jobs.enqueueMany(QUEUE, [
        { data: { marker }, options: { lane: 'OTP', tenant: a } },
        { data: { marker }, options: { lane: 'MARKETING', tenant: a } },
        { data: { marker }, options: { lane: 'MARKETING', tenant: a } },
        { data: { marker }, options: { lane: 'MARKETING', tenant: b } },
        { data: { marker }, options: { lane: 'MARKETING', tenant: a, startAfterSeconds: 300 } },
      ]);
      const ofA = await subject.monitor.laneBacklog(QUEUE, a);
      expect(ofA.map((l) => [l.lane, l.waiting])).to.deep.equal([['OTP', 1], ['TRANSACTIONAL', 0], ['MARKETING', 2]]);
      for (const l of ofA) expect(l.oldestWaitingSeconds).to.be.at.least(0);
      const all = await subject.monitor.laneBacklog(QUEUE);
      expect(all.find((l) => l.lane === 'MARKETING')!.waiting).to.be.at.least(3);
    });

    it('counts a tenant\'s jobs completed in the last minute per lane, and ranks tenants by their waiting jobs', async () => {
      const marker = newMarker();
      const [a, b] = [uniqueId('org'), uniqueId('org')];
      await subject.storage.jobs.enqueueMany(QUEUE, [
        { data: { marker }, options: { lane: 'OTP', tenant: a } },
        { data: { marker }, options: { lane: 'MARKETING', tenant: a } },
        { data: { marker }, options: { lane: 'MARKETING', tenant: b } },
        { data: { marker }, options: { lane: 'MARKETING', tenant: b } },
        { data: { marker }, options: { lane: 'MARKETING', tenant: b } },
      ]);
      const top = await subject.monitor.tenantBacklog(QUEUE, 100);
      expect(top.findIndex((t) => t.organizationId === b)).to.be.below(top.findIndex((t) => t.organizationId === a));
      expect(top.find((t) => t.organizationId === b)).to.include({ waiting: 3 });
      expect(await subject.monitor.tenantBacklog(QUEUE, 1)).to.have.length(1);

      for (let i = 0; i < 50 && (await subject.stored(QUEUE, marker)).length > 0 && (await subject.monitor.laneBacklog(QUEUE, a)).some((l) => l.waiting > 0); i++) {
        await subject.complete(QUEUE, 1); // the OTP job first, then the marketing ones in fair order (other tests' jobs taken too)
      }
      const ofA = await subject.monitor.laneBacklog(QUEUE, a);
      expect(ofA.map((l) => [l.lane, l.waiting, l.drainedLastMinute])).to.deep.equal([['OTP', 0, 1], ['TRANSACTIONAL', 0, 0], ['MARKETING', 0, 1]]);
      expect((await subject.monitor.laneBacklog(QUEUE)).find((l) => l.lane === 'OTP')!.drainedLastMinute).to.be.at.least(1);
    });

    it('reports queue counts as non-negative integers for every queue', async () => {
      await subject.storage.jobs.enqueue(QUEUE, { marker: newMarker() });
      for (const queue of Object.values(QUEUES)) {
        const counts = await subject.monitor.counts(queue);
        expect(counts).to.have.all.keys('waiting', 'active', 'completed', 'failed', 'workers');
        for (const value of Object.values(counts)) expect(Number.isInteger(value) && value >= 0, `${queue}: ${JSON.stringify(counts)}`).to.equal(true);
      }
    });
  });
}
