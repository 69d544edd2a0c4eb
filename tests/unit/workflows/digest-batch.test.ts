import { expect } from 'chai';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { JoinDigestsInBatch } from '../../../core/use-cases/workflows/join-digests-in-batch.ts';
import { SendStepsInBatch } from '../../../core/use-cases/workflows/send-steps-in-batch.ts';
import { workflowStepHandler } from '../../../hosts/worker/workflow-step-handler.ts';
import { crashing } from '../../support/crashing-storage.ts';
import { buildWorkflows, type Workflows } from './workflow-fixtures.ts';

const HOUR = 3_600_000;

/** The batch path of digest joins (docs/adr/0044, "Digest joins in batches") on the memory adapters. */
describe('Workflows: digest joins in batches (memory adapters)', () => {
  async function digestWorkflow(w: Workflows, step: Record<string, unknown>) {
    const t = await w.newTemplate({ body: '{{digestCount}}: {{digestItems}}', variables: ['digestCount', 'digestItems'] });
    await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'digest', windowSeconds: 3600, itemVariable: 'order', ...step }, { type: 'send', templateId: t.id }] });
  }
  /** Triggers (recipient i mod `recipients`, order O<i>) whose first jobs are taken off the queue, for a batch (the handler's). */
  async function triggers(w: Workflows, count: number, recipients: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await w.trigger({ to: `+23324100000${i % recipients}`, variables: { order: `O${i}` } })).id);
    for (const job of w.core.storage.jobs.take(QUEUES.workflowStep)) { // the new runs' first jobs go to the batch; other jobs stay the worker's
      if (!ids.includes(String(job.data['runId']))) w.later.push({ runId: String(job.data['runId']), dueAt: w.core.clock.now().getTime() + job.startAfterSeconds * 1000 });
    }
    return ids;
  }
  const handler = (w: Workflows) => workflowStepHandler(w.runner, 500, { joins: new JoinDigestsInBatch(w.deps), sends: new SendStepsInBatch(w.deps), concurrency: 4 });
  const bodies = (w: Workflows) => w.providers.SMS.received.map((m) => `${m.to} ${m.body}`).sort();

  it('joins a batch of interleaved triggers in one go: one bucket per recipient, its owner flushes all of them once', async () => {
    const w = await buildWorkflows();
    await digestWorkflow(w, {});
    const ids = await triggers(w, 12, 3);
    expect(await handler(w).handleBatch!([...ids, ids[4]!].map((runId) => ({ runId })))).to.deep.equal(Array(13).fill(null)); // a repeated job too
    const outcomes = await Promise.all(ids.map(async (id) => (await w.timeline.execute(w.scope, id)).timeline[0]!.outcome));
    expect(outcomes).to.deep.equal([...Array(3).fill('COLLECTING'), ...Array(9).fill('DIGESTED')]);
    const jobs = w.core.storage.jobs.take(QUEUES.workflowStep);
    expect(jobs.map((j) => [j.data['runId'], j.startAfterSeconds])).to.deep.equal(ids.slice(0, 3).map((id) => [id, 3600])); // the owners' flushes only
    for (const job of jobs) w.later.push({ runId: String(job.data['runId']), dueAt: w.core.clock.now().getTime() + HOUR });
    w.core.clock.advance(HOUR);
    await w.work();
    expect(bodies(w)).to.deep.equal(['+233241000000 4: O0\nO3\nO6\nO9', '+233241000001 4: O1\nO4\nO7\nO10', '+233241000002 4: O2\nO5\nO8\nO11']);
    await w.runner.execute(ids[0]!); // a repeated flush job sends nothing
    await w.work();
    expect(w.providers.SMS.received).to.have.length(3);
  });

  it('flushes a batch of owners one by one, then accepts their digest messages together; a repeated batch sends nothing', async () => {
    const w = await buildWorkflows();
    await digestWorkflow(w, {});
    const ids = await triggers(w, 9, 3);
    await handler(w).handleBatch!(ids.map((runId) => ({ runId })));
    const owners = w.core.storage.jobs.take(QUEUES.workflowStep).map((j) => String(j.data['runId']));
    expect(owners).to.deep.equal(ids.slice(0, 3));
    w.core.clock.advance(HOUR);
    const batch = [...owners, owners[1]!].map((runId) => ({ runId }));
    const debits = () => w.core.storage.state.ledger.filter((e) => e.organizationId === w.organizationId && e.amount < 0).length;
    const before = debits();
    expect(await handler(w).handleBatch!(batch)).to.deep.equal([null, null, null, null]);
    expect(debits() - before).to.equal(1); // one group commit: the wallet debited once for the three messages
    expect(await handler(w).handleBatch!(batch)).to.deep.equal([null, null, null, null]);
    const messages = [...w.core.storage.state.messages.values()].filter((m) => m.organizationId === w.organizationId);
    expect(messages.map((m) => `${m.recipient} ${m.body}`).sort()).to.deep.equal(['+233241000000 3: O0\nO3\nO6', '+233241000001 3: O1\nO4\nO7', '+233241000002 3: O2\nO5\nO8']);
    for (const owner of owners) {
      const view = await w.timeline.execute(w.scope, owner);
      expect(view.status).to.equal('COMPLETED');
      expect(view.timeline.map((s) => [s.outcome, s.messageId !== null, s.triggerId !== null])).to.deep.equal([['FLUSHED', false, false], ['SENT', true, true]]);
    }
    await w.work();
    expect(bodies(w)).to.have.length(3);
  });

  it('fills buckets to maxItems: a full bucket wakes its owner at once, the next trigger opens the next bucket; a later batch joins the open one', async () => {
    const w = await buildWorkflows();
    await digestWorkflow(w, { maxItems: 2 });
    const first = await triggers(w, 3, 1);
    await handler(w).handleBatch!(first.map((runId) => ({ runId })));
    const second = await triggers(w, 2, 1);
    await handler(w).handleBatch!(second.map((runId) => ({ runId })));
    await w.work();
    expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['2: O0\nO1', '2: O2\nO0']); // the second bucket: O2, then the next batch's O0
    w.core.clock.advance(HOUR);
    await w.work();
    expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['2: O0\nO1', '2: O2\nO0', '1: O1']);
  });

  it('leaves a look-back key to the one-by-one path: the first trigger goes at once, the rest are collected', async () => {
    const w = await buildWorkflows();
    await digestWorkflow(w, { lookBack: true });
    const ids = await triggers(w, 3, 1);
    await handler(w).handleBatch!(ids.map((runId) => ({ runId })));
    await w.work();
    expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['1: O0']);
    w.core.clock.advance(HOUR);
    await w.work();
    expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['1: O0', '2: O1\nO2']);
  });

  it('a worker killed before the batch commits leaves nothing; the retried batch joins every trigger once', async () => {
    const w = await buildWorkflows();
    await digestWorkflow(w, {});
    const ids = await triggers(w, 6, 2);
    const killed = new JoinDigestsInBatch({ ...w.deps, storage: crashing(w.core.storage, 1) });
    expect(await killed.execute(ids).then(() => 'committed', (e: Error) => e.message)).to.equal('worker killed');
    expect(await w.core.storage.workflows.listSteps(w.organizationId, ids[0]!)).to.deep.equal([]);
    expect(w.core.storage.jobs.take(QUEUES.workflowStep)).to.deep.equal([]);
    expect(await handler(w).handleBatch!(ids.map((runId) => ({ runId })))).to.deep.equal(Array(6).fill(null));
    w.core.clock.advance(HOUR);
    for (const job of w.core.storage.jobs.take(QUEUES.workflowStep)) w.later.push({ runId: String(job.data['runId']), dueAt: 0 });
    await w.work();
    expect(bodies(w)).to.deep.equal(['+233241000000 3: O0\nO2\nO4', '+233241000001 3: O1\nO3\nO5']);
  });
});
