import { expect } from 'chai';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { GetFanOut } from '../../../core/use-cases/workflows/get-fan-out.ts';
import { RunFanOut } from '../../../core/use-cases/workflows/run-fan-out.ts';
import { StartFanOut } from '../../../core/use-cases/workflows/start-fan-out.ts';
import { buildWorkflows } from './workflow-fixtures.ts';

async function setup(options: { balance?: number } = {}) {
  const w = await buildWorkflows(options);
  const fanOuts = new StartFanOut({ ...w.core, maxRecipients: 10 });
  const runner = new RunFanOut({ ...w.deps, batchSize: 2 });
  const view = new GetFanOut(w.core);
  /** Plays the fan-out worker: runs every queued workflow-fan-out job. */
  async function fanOut(): Promise<void> {
    for (let jobs = w.core.storage.jobs.take(QUEUES.workflowFanOut); jobs.length > 0; jobs = w.core.storage.jobs.take(QUEUES.workflowFanOut)) {
      for (const job of jobs) await runner.execute({ fanOutId: String(job.data['fanOutId']), organizationId: String(job.data['organizationId']) });
    }
  }
  return { ...w, fanOuts, runner, view, fanOut };
}

describe('Workflow fan-out (memory adapters)', () => {
  it('starts one run per contact of a topic, pages of two, skipping the opted-out; the runs send', async () => {
    const w = await setup();
    await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'send' }] });
    for (let i = 0; i < 5; i++) await w.contact({ tags: ['vip'], optedOutAt: i === 0 ? new Date() : null });
    await w.contact({ tags: ['other'] });
    const { fanOut } = await w.fanOuts.execute(w.ctx, { event: 'order.shipped', topic: 'VIP', variables: { order: 'S-1' } });
    expect(fanOut).to.include({ status: 'RUNNING', kind: 'RUNS', total: 5, topic: 'vip' });
    await w.fanOut();
    expect(await w.view.execute(w.scope, String(fanOut['id']))).to.deep.include({ status: 'COMPLETED', started: 4, skipped: 1 });
    await w.work();
    expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(Array(4).fill('Hi Ama, order S-1 has shipped'));
  });

  it('triggers a plain event per contact; a contact who cannot fill the template is skipped with the reason', async () => {
    const w = await setup();
    await w.contact({ tags: ['news'] });
    await w.contact({ tags: ['news'], firstName: null });
    const { fanOut } = await w.fanOuts.execute(w.ctx, { event: 'order.shipped', topic: 'news', variables: { order: 'N-1' } });
    expect(fanOut).to.include({ kind: 'TRIGGERS', total: 2 });
    await w.fanOut();
    const done = await w.view.execute(w.scope, String(fanOut['id']));
    expect(done).to.deep.include({ status: 'COMPLETED', started: 1, skipped: 1 });
    await w.work();
    expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['Hi Ama, order N-1 has shipped']);
  });

  it('fails the fan-out when the wallet runs out (recipients not reached are not triggered), and refuses an audience over the bound (LIMIT_REACHED)', async () => {
    const w = await setup({ balance: 0 });
    for (let i = 0; i < 11; i++) await w.contact({ tags: i < 3 ? ['broke', 'big'] : ['big'] });
    const { fanOut } = await w.fanOuts.execute(w.ctx, { event: 'order.shipped', topic: 'broke', variables: { order: 'B-1' } });
    await w.fanOut();
    const failed = await w.view.execute(w.scope, String(fanOut['id']));
    expect(failed).to.deep.include({ status: 'FAILED', started: 0 });
    expect(String(failed['failureReason'])).to.match(/^INSUFFICIENT_BALANCE/);
    const error = await w.fanOuts.execute(w.ctx, { event: 'order.shipped', topic: 'big' }).then(() => null, (e: unknown) => e);
    expect(error).to.include({ code: 'LIMIT_REACHED' });
    expect((error as { details: unknown }).details).to.deep.equal({ limit: 10, recipients: 11 });
  });
});
