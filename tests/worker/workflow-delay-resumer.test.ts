import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { newOrganization } from '../../core/domain/organization.ts';
import type { WorkflowRun, WorkflowStep } from '../../core/domain/workflow.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { ResumeDueDelays } from '../../core/use-cases/workflows/resume-due-delays.ts';
import { createLogger } from '../../hosts/logger.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { crashing } from '../support/crashing-storage.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { testConfig } from '../support/test-config.ts';

const DELAY: WorkflowStep = { type: 'delay', seconds: 60 };
const THEN: WorkflowStep = { type: 'throttle', limit: 1_000, windowSeconds: 60 };

/**
 * The delay resumer on PostgreSQL (docs/adr/0044, "Due delays"): concurrent resumers take disjoint chunks, and a
 * worker killed mid-chunk loses nothing and resumes nothing twice.
 */
describe('Worker: workflow delay resumer (PostgreSQL)', function () {
  this.timeout(60_000);
  let storage: Storage;
  let container: ReturnType<typeof buildWorkerContainer>;
  const clock = { now: () => new Date() };

  before(async () => {
    container = buildWorkerContainer(testConfig(), createLogger('silent'), await sharedInfrastructure('postgres'));
    storage = container.get(INFRA.storage);
  });

  /** `count` runs WAITING at a due delay (step 0, due in creation order), every other one (odd) with a step left after it. */
  async function delayedRuns(count: number): Promise<WorkflowRun[]> {
    const now = new Date();
    const organizationId = randomUUID();
    await storage.organizations.insert(newOrganization(organizationId, 'Resumer', now));
    const eventId = randomUUID();
    await storage.notificationEvents.insert({
      id: eventId, organizationId, name: 'Reminder', slug: `reminder-${eventId.slice(0, 8)}`, description: null, channelPriority: ['SMS'], templateId: null,
      retryRules: { attempts: 1, backoffSeconds: 60, backoffMultiplier: 2 }, fallbackRules: { channels: [] }, isActive: true, createdAt: now, updatedAt: now,
    });
    const runs: WorkflowRun[] = [];
    for (let i = 0; i < count; i++) {
      const run: WorkflowRun = {
        id: randomUUID(), organizationId, eventId, eventSlug: 'reminder', version: 1, steps: i % 2 ? [DELAY, THEN] : [DELAY], cancelOn: [], retry: { attempts: 3, backoffSeconds: 30 },
        request: { to: '+233241234567', contactId: null, subscriberId: null, countryCode: 'GH', variables: {} }, correlationKey: null, status: 'WAITING', cursor: 0,
        attempts: 0, waitingFor: null, signal: null, digest: null, error: null, apiKeyId: null, userId: null, isSandbox: false, createdAt: now, updatedAt: now,
      };
      await storage.workflows.insertRun(run);
      await storage.workflows.claimStep({
        runId: run.id, organizationId, index: 0, type: 'delay', status: 'WAITING', outcome: 'DELAYED', messageId: null, triggerId: null,
        resumeAt: new Date(now.getTime() - 2_000 + i), detail: {}, startedAt: now, finishedAt: null,
      });
      runs.push(run);
    }
    return runs;
  }

  async function jobsPerRun(runs: WorkflowRun[]): Promise<Map<string, number>> {
    const rows = await container.get(INFRA.database).em().execute<Array<{ run_id: string; n: string }>>(
      `select data->>'runId' as run_id, count(*) as n from pgboss.job where name = ? and data->>'runId' = any(?::text[]) group by 1`,
      [QUEUES.workflowStep, `{${runs.map((r) => r.id).join(',')}}`]);
    return new Map(rows.map((r) => [r.run_id, Number(r.n)]));
  }

  async function expectResumedOnce(runs: WorkflowRun[], checkJobs = true): Promise<void> {
    const jobs = await jobsPerRun(runs);
    for (const run of runs) {
      const after = (await storage.workflows.findRun(run.organizationId, run.id))!;
      expect(after).to.include({ cursor: 1, status: run.steps.length > 1 ? 'RUNNING' : 'COMPLETED' });
      expect(await storage.workflows.listSteps(run.organizationId, run.id)).to.have.length(1);
      expect(await storage.workflows.findStep(run.organizationId, run.id, 0)).to.include({ status: 'DONE', outcome: 'RESUMED' });
      // A run with a step left gets exactly one job (none twice, none lost); a completed one none.
      if (checkJobs) expect(jobs.get(run.id) ?? 0, run.id).to.equal(run.steps.length > 1 ? 1 : 0);
    }
  }

  it('is a periodic task of every worker', () => {
    expect(container.getAll(WORKER.tasks).map((t) => t.name)).to.include('resume-workflow-delays');
  });

  it('two claims at once take disjoint sets of due steps (SKIP LOCKED), and together all of them', async () => {
    await new ResumeDueDelays({ storage, clock }).execute(); // earlier tests' due delays (the database is shared)
    const runs = await delayedRuns(40);
    let claimedA: () => void = () => undefined;
    const aClaimed = new Promise<void>((resolve) => { claimedA = resolve; });
    let releaseA: () => void = () => undefined;
    const bDone = new Promise<void>((resolve) => { releaseA = resolve; });
    const a = storage.transaction(async (tx) => {
      const moved = await tx.workflows.resumeDueDelaySteps(new Date(), new Date(), 25);
      claimedA();
      await bDone; // A holds its locks while B claims
      return moved;
    });
    await aClaimed;
    const b = await storage.transaction((tx) => tx.workflows.resumeDueDelaySteps(new Date(), new Date(), 25));
    releaseA();
    const idsA = (await a).map((m) => m.id);
    const idsB = b.map((m) => m.id);
    expect(idsA).to.have.length(25);
    expect(idsB).to.have.length(15);
    expect(idsA.filter((id) => idsB.includes(id))).to.deep.equal([]);
    expect([...idsA, ...idsB].sort()).to.deep.equal(runs.map((r) => r.id).sort());
    await expectResumedOnce(runs, false); // the repository moves runs; their jobs are the use case's
  });

  it('three resumers at once, small chunks: every due delay resumed once, one job per run with steps left', async () => {
    await new ResumeDueDelays({ storage, clock }).execute();
    const runs = await delayedRuns(90);
    const resumers = [1, 2, 3].map(() => new ResumeDueDelays({ storage, clock }, { chunk: 7, parallel: 2 }));
    const results = await Promise.all(resumers.map((r) => r.execute()));
    expect(results.reduce((n, r) => n + r.resumed, 0)).to.equal(90);
    expect(results.reduce((n, r) => n + r.continued, 0)).to.equal(45);
    await expectResumedOnce(runs);
  });

  it('a worker killed mid-chunk (before the commit) loses nothing and resumes nothing twice', async () => {
    await new ResumeDueDelays({ storage, clock }).execute();
    const runs = await delayedRuns(30);
    const killed = new ResumeDueDelays({ storage: crashing(storage, 2), clock }, { chunk: 10, parallel: 1 });
    expect(await killed.execute().then(() => 'finished', (e: Error) => e.message)).to.equal('worker killed');
    const states = await Promise.all(runs.map(async (r) => (await storage.workflows.findRun(r.organizationId, r.id))!.status));
    expect(states.filter((s) => s === 'WAITING')).to.have.length(20); // the first chunk committed; the second rolled back with its jobs
    const jobs = await jobsPerRun(runs);
    expect([...jobs.values()].reduce((n, c) => n + c, 0)).to.equal(5); // the first chunk's runs with a step left
    const after = await new ResumeDueDelays({ storage, clock }, { chunk: 10 }).execute();
    expect(after.resumed).to.equal(20);
    await expectResumedOnce(runs);
  });
});
