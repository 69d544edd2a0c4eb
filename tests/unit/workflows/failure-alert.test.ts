import { expect } from 'chai';
import { AcknowledgeWorkflowFailures } from '../../../core/use-cases/workflows/acknowledge-workflow-failures.ts';
import { GetWorkflowFailureAlert } from '../../../core/use-cases/workflows/get-workflow-failure-alert.ts';
import { ListFailedWorkflowRuns } from '../../../core/use-cases/workflows/list-failed-workflow-runs.ts';
import { buildWorkflows } from './workflow-fixtures.ts';

/** docs/workflows.md, "Failed runs": the list, the 24-hour alert and the organization's acknowledgement (memory adapters, a fake clock). */
describe('Workflows: failed runs and their alert (memory adapters)', () => {
  async function failing() {
    const w = await buildWorkflows({ balance: 0 }); // every send step fails with INSUFFICIENT_BALANCE
    await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'send' }], retry: { attempts: 1, backoffSeconds: 0 } });
    const contact = await w.contact();
    const fail = async () => { const run = await w.trigger({ contactId: contact.id, variables: { order: '1' } }); await w.work(); return run; };
    const deps = { storage: w.core.storage, clock: w.core.clock };
    return { w, fail, list: new ListFailedWorkflowRuns(deps), alert: new GetWorkflowFailureAlert(deps), ack: new AcknowledgeWorkflowFailures(deps) };
  }

  it('lists a run that gave up with its failed step and error, and alerts it for 24 hours', async () => {
    const { w, fail, list, alert } = await failing();
    const run = await fail();
    const page = await list.execute(w.scope, { status: 'FAILED' });
    expect(page.items.map((r) => [r.id, r.failedStep, r.failedStepType, r.error?.code, r.attempts])).to.deep.equal([[run.id, 0, 'send', 'INSUFFICIENT_BALANCE', 1]]);
    expect(page.nextCursor).to.equal(null);
    expect(await alert.execute(w.scope)).to.include({ failedRuns: 1, latestFailedAt: page.items[0]!.failedAt, acknowledged: null });
    w.core.clock.advance(24 * 3_600_000 + 1_000);
    expect((await alert.execute(w.scope)).failedRuns).to.equal(0); // older than the alert's window
    expect((await list.execute(w.scope, { status: 'FAILED' })).items).to.deep.equal([]); // and than the list's default `since`
    expect((await list.execute(w.scope, { status: 'FAILED', since: '2020-01-01T00:00:00Z' })).items).to.have.length(1);
  });

  it('clears the alert up to the acknowledged time for the organization: later failures alert again, a time never moves back or past now', async () => {
    const { w, fail, alert, ack } = await failing();
    await fail();
    w.core.clock.advance(1_000);
    await fail();
    const before = await alert.execute(w.scope);
    expect(before.failedRuns).to.equal(2);
    const cleared = await ack.execute({ organizationId: w.scope.organizationId, userId: 'user-1' }, { through: before.latestFailedAt });
    expect(cleared).to.include({ failedRuns: 0, since: before.latestFailedAt });
    expect(cleared.acknowledged).to.deep.include({ through: before.latestFailedAt, userId: 'user-1' });
    w.core.clock.advance(1_000);
    await fail();
    expect((await alert.execute(w.scope)).failedRuns).to.equal(1);
    const older = await ack.execute({ organizationId: w.scope.organizationId, userId: 'user-2' }, { through: '2020-01-01T00:00:00Z' });
    expect(older.acknowledged?.through).to.equal(before.latestFailedAt); // kept: never moves back
    expect(older.failedRuns).to.equal(1);
    const future = await ack.execute({ organizationId: w.scope.organizationId, userId: 'user-2' }, { through: '2999-01-01T00:00:00Z' });
    expect(future.acknowledged?.through).to.equal(w.core.clock.now().toISOString()); // at most now
    expect(future.failedRuns).to.equal(0);
    expect((await ack.execute({ organizationId: w.scope.organizationId, userId: null }, {})).failedRuns).to.equal(0);
  });

  it('refuses a status other than FAILED, a bad since, limit or cursor with VALIDATION_ERROR', async () => {
    const { w, list, ack } = await failing();
    for (const query of [{}, { status: 'RUNNING' }, { status: 'FAILED', since: 'yesterday' }, { status: 'FAILED', limit: '0' }, { status: 'FAILED', cursor: 'x' }]) {
      const error = await list.execute(w.scope, query).catch((e: unknown) => e);
      expect(error, JSON.stringify(query)).to.include({ code: 'VALIDATION_ERROR' });
    }
    expect(await ack.execute({ organizationId: w.scope.organizationId, userId: null }, { through: 5 }).catch((e: unknown) => e)).to.include({ code: 'VALIDATION_ERROR' });
  });
});
