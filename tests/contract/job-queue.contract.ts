import { expect } from 'chai';
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
