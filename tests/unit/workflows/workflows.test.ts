import { expect } from 'chai';
import { workflowStepHandler } from '../../../hosts/worker/workflow-step-handler.ts';
import { caught } from '../messaging/messaging-fixtures.ts';
import { buildWorkflows } from './workflow-fixtures.ts';

const HOUR = 3_600_000;

describe('Workflows (memory adapters)', () => {
  describe('defining', () => {
    it('shows the implicit one-step workflow of an event without one, then numbered versions', async () => {
      const w = await buildWorkflows();
      const implicit = await w.get.execute(w.scope, w.event.id);
      expect(implicit).to.include({ implicit: true, version: 0 });
      expect(implicit.steps).to.deep.equal([{ type: 'send', channels: ['SMS'], fallbackChannels: [], templateId: w.template.id }]);
      const v1 = await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'send' }] });
      const v2 = await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'delay', seconds: 60 }, { type: 'send', channels: ['WHATSAPP'], fallbackChannels: ['SMS'] }] });
      expect([v1.version, v2.version]).to.deep.equal([1, 2]);
      const latest = await w.get.execute(w.scope, w.event.id);
      expect(latest).to.include({ implicit: false, version: 2 });
      expect(latest.versions).to.deep.equal([2, 1]);
      expect(latest.steps[1]).to.deep.equal({ type: 'send', channels: ['WHATSAPP'], fallbackChannels: ['SMS'], templateId: w.template.id });
    });

    it('rejects loops, limits beyond the plan, unknown templates and unsafe condition paths with VALIDATION_ERROR naming the field', async () => {
      const w = await buildWorkflows();
      const bad = async (body: unknown) => caught(() => w.put.execute(w.scope, w.event.id, body));
      const loop = await bad({ steps: [{ type: 'send' }, { type: 'branch', if: { path: 'payload.x', op: 'eq', value: '1' }, then: { goTo: 1 } }] });
      expect(loop.code).to.equal('VALIDATION_ERROR');
      expect((await bad({ steps: Array.from({ length: 21 }, () => ({ type: 'send' })) })).details?.['fieldErrors']).to.have.property('steps');
      expect((await bad({ steps: [{ type: 'delay', seconds: 36 * 86_400 }] })).code).to.equal('VALIDATION_ERROR');
      expect((await bad({ steps: [{ type: 'digest', windowSeconds: 2 * 86_400 }] })).code).to.equal('VALIDATION_ERROR');
      expect((await bad({ steps: [{ type: 'delay', seconds: 5, untilVariable: 'dueAt' }] })).message).to.contain('exactly one');
      expect((await bad({ steps: [{ type: 'send', templateId: '00000000-0000-7000-8000-000000000000' }] })).message).to.contain('template not found');
      expect((await bad({ steps: [{ type: 'branch', if: { path: 'constructor.prototype', op: 'exists' } }] })).code).to.equal('VALIDATION_ERROR');
      expect((await bad({ steps: [{ type: 'wait', for: 'trigger', timeoutSeconds: 60 }] })).message).to.contain('needs event');
      expect((await caught(() => w.put.execute(w.scope, '00000000-0000-7000-8000-000000000000', { steps: [{ type: 'send' }] }))).code).to.equal('NOT_FOUND');
    });
  });

  describe('running', () => {
    it('leaves an event without workflow to TriggerEvent (run null) and runs a workflow in the worker, keeping its version', async () => {
      const w = await buildWorkflows();
      const contact = await w.contact();
      expect((await w.start.execute(w.ctx, { event: 'order.shipped', contactId: contact.id, variables: { order: '1' } })).run).to.equal(null);
      await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'send' }] });
      const run = await w.trigger({ contactId: contact.id, variables: { order: 'A-17' } });
      expect(run).to.include({ status: 'RUNNING', version: 1, cursor: 0 });
      await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'delay', seconds: 3600 }, { type: 'send' }] });
      await w.work();
      const done = await w.timeline.execute(w.scope, run.id);
      expect(done).to.include({ status: 'COMPLETED', version: 1, cursor: 1 });
      expect(done.timeline.map((s) => [s.index, s.type, s.status, s.outcome])).to.deep.equal([[0, 'send', 'DONE', 'SENT']]);
      expect(done.timeline[0]!.message).to.include({ status: 'SENT', channel: 'SMS' });
      expect(done.cost).to.be.greaterThan(0);
      expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['Hi Ama, order A-17 has shipped']);
    });

    it('sends each step once even when the same job runs twice or a stale job arrives later', async () => {
      const w = await buildWorkflows();
      await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'send' }, { type: 'send', channels: ['EMAIL'] }] });
      const contact = await w.contact();
      const run = await w.trigger({ contactId: contact.id, variables: { order: '2' } });
      await Promise.all([w.runner.execute(run.id), w.runner.execute(run.id)]);
      await w.runner.execute(run.id);
      await w.work();
      expect(w.providers.SMS.received).to.have.length(1);
      expect(w.providers.EMAIL.received).to.have.length(1);
      expect((await w.core.storage.workflows.listSteps(w.organizationId, run.id)).map((s) => s.outcome)).to.deep.equal(['SENT', 'SENT']);
    });

    it('delays a fixed time: an early job waits again, the due one sends', async () => {
      const w = await buildWorkflows();
      await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'delay', seconds: 3600 }, { type: 'send' }] });
      const run = await w.trigger({ to: '+233241234567', variables: { firstName: 'Kofi', order: '3' } });
      await w.work();
      expect((await w.timeline.execute(w.scope, run.id))).to.include({ status: 'WAITING', cursor: 0 });
      await w.runner.execute(run.id); // early
      expect(w.providers.SMS.received).to.have.length(0);
      w.core.clock.advance(HOUR);
      await w.work();
      const view = await w.timeline.execute(w.scope, run.id);
      expect(view.status).to.equal('COMPLETED');
      expect(view.timeline.map((s) => s.outcome)).to.deep.equal(['RESUMED', 'SENT']);
      expect(w.providers.SMS.received).to.have.length(1);
    });

    it('resumes a batch of due delays together and continues the runs with steps left', async () => {
      const w = await buildWorkflows();
      await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'delay', seconds: 60 }, { type: 'send' }] });
      const runs = [await w.trigger({ to: '+233241234560', variables: { firstName: 'A', order: '1' } }), await w.trigger({ to: '+233241234561', variables: { firstName: 'B', order: '2' } })];
      await w.work();
      w.core.clock.advance(60_000);
      const handler = workflowStepHandler(w.runner, 10);
      expect(await handler.handleBatch!(runs.map((r) => ({ runId: r.id })))).to.deep.equal([null, null]);
      await w.work();
      expect(w.providers.SMS.received).to.have.length(2);
      expect((await w.timeline.execute(w.scope, runs[0]!.id)).timeline.map((s) => s.outcome)).to.deep.equal(['RESUMED', 'SENT']);
    });

    it('digests with look-back: the first trigger goes at once, the next ones of the window make ONE message listing them', async () => {
      const w = await buildWorkflows();
      const digestTemplate = await w.newTemplate({ body: '{{digestCount}} updates:\n{{digestItems}}', variables: ['digestCount', 'digestItems'] });
      await w.put.execute(w.scope, w.event.id, { steps: [
        { type: 'digest', windowSeconds: 3600, lookBack: true, itemVariable: 'order' }, { type: 'send', templateId: digestTemplate.id }] });
      const contact = await w.contact();
      const runs = [];
      for (const order of ['A', 'B', 'C']) {
        runs.push(await w.trigger({ contactId: contact.id, variables: { order } }));
        await w.work();
      }
      expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['1 updates:\nA']);
      w.core.clock.advance(HOUR);
      await w.work();
      await w.runner.execute(runs[1]!.id); // a repeated flush job
      await w.work();
      expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['1 updates:\nA', '2 updates:\nB\nC']);
      const statuses = await Promise.all(runs.map(async (r) => (await w.timeline.execute(w.scope, r.id)).timeline[0]!.outcome));
      expect(statuses).to.deep.equal(['PASSED', 'FLUSHED', 'DIGESTED']);
    });

    it('flushes a digest early when maxItems is reached', async () => {
      const w = await buildWorkflows();
      const t = await w.newTemplate({ body: '{{digestCount}}: {{digestItems}}', variables: ['digestCount', 'digestItems'] });
      await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'digest', windowSeconds: 3600, maxItems: 2, itemVariable: 'order' }, { type: 'send', templateId: t.id }] });
      const contact = await w.contact();
      for (const order of ['A', 'B', 'C']) { await w.trigger({ contactId: contact.id, variables: { order } }); await w.work(); }
      expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['2: A\nB']);
      w.core.clock.advance(HOUR);
      await w.work();
      expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['2: A\nB', '1: C']);
    });

    it('throttles to N per recipient and window, and branches on the payload', async () => {
      const w = await buildWorkflows();
      await w.put.execute(w.scope, w.event.id, { steps: [
        { type: 'throttle', limit: 1, windowSeconds: 3600 },
        { type: 'branch', if: { path: 'payload.order', op: 'in', value: ['VIP-1', 'VIP-2'] }, then: 'next', else: 'end' },
        { type: 'send' }] });
      const a = await w.contact();
      const b = await w.contact();
      const first = await w.trigger({ contactId: a.id, variables: { order: 'VIP-1' } });
      const second = await w.trigger({ contactId: a.id, variables: { order: 'VIP-2' } });
      const third = await w.trigger({ contactId: b.id, variables: { order: 'plain' } });
      await w.work();
      expect(w.providers.SMS.received.map((m) => m.to)).to.deep.equal([a.phone]);
      expect((await w.timeline.execute(w.scope, second.id)).timeline.map((s) => s.outcome)).to.deep.equal(['THROTTLED']);
      expect((await w.timeline.execute(w.scope, third.id)).timeline.map((s) => s.outcome)).to.deep.equal(['PASSED', 'FALSE']);
      expect((await w.timeline.execute(w.scope, first.id)).status).to.equal('COMPLETED');
    });

    it('branches on contact attributes, preferences and earlier outcomes', async () => {
      const w = await buildWorkflows();
      await w.put.execute(w.scope, w.event.id, { steps: [
        { type: 'throttle', limit: 5, windowSeconds: 60 },
        { type: 'branch', if: { all: [{ path: 'contact.attributes.tier', op: 'eq', value: 'gold' }, { path: 'steps.0.outcome', op: 'eq', value: 'PASSED' },
          { path: 'contact.preferences.SMS.MARKETING', op: 'eq', value: true }] }, then: { goTo: 3 }, else: 'next' },
        { type: 'send', channels: ['EMAIL'] }, { type: 'send' }] });
      const gold = await w.contact({ attributes: { tier: 'gold' } });
      const plain = await w.contact();
      await w.trigger({ contactId: gold.id, variables: { order: 'G' } });
      await w.trigger({ contactId: plain.id, variables: { order: 'P' } });
      await w.work();
      expect(w.providers.EMAIL.received.map((m) => m.to)).to.deep.equal([plain.email]); // only the plain contact took the else path
      expect(w.providers.SMS.received.map((m) => m.to).sort()).to.deep.equal([gold.phone, plain.phone].sort());
    });

    it('cancels a waiting reminder when a trigger with the same correlationKey names an event of cancelOn', async () => {
      const w = await buildWorkflows();
      const paid = await w.createEvent.execute(w.scope, { name: 'Paid', slug: 'payment.received', templateId: w.template.id });
      await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'delay', seconds: 86_400 }, { type: 'send' }], cancelOn: ['payment.received'] });
      const contact = await w.contact();
      const run = await w.trigger({ contactId: contact.id, correlationKey: 'invoice-17', variables: { order: '17' } });
      const other = await w.trigger({ contactId: contact.id, correlationKey: 'invoice-18', variables: { order: '18' } });
      await w.work();
      const signal = await w.start.execute(w.ctx, { event: paid.slug, contactId: contact.id, correlationKey: 'invoice-17', variables: { order: '17' } });
      expect(signal).to.include({ run: null });
      expect(signal.cancelled).to.deep.equal([run.id]);
      w.core.clock.advance(86_400_000);
      await w.work();
      expect((await w.timeline.execute(w.scope, run.id)).status).to.equal('CANCELLED');
      expect((await w.timeline.execute(w.scope, other.id)).status).to.equal('COMPLETED');
      expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['Hi Ama, order 18 has shipped']);
    });

    it('waits for a later trigger (its path) or times out (the other path)', async () => {
      const w = await buildWorkflows();
      await w.createEvent.execute(w.scope, { name: 'Opened', slug: 'order.opened', templateId: w.template.id });
      await w.put.execute(w.scope, w.event.id, { steps: [
        { type: 'wait', for: 'trigger', event: 'order.opened', timeoutSeconds: 600, onEvent: 'end', onTimeout: 'next' }, { type: 'send' }] });
      const contact = await w.contact();
      const opened = await w.trigger({ contactId: contact.id, correlationKey: 'o-1', variables: { order: '1' } });
      const ignored = await w.trigger({ contactId: contact.id, correlationKey: 'o-2', variables: { order: '2' } });
      await w.work();
      expect((await w.timeline.execute(w.scope, opened.id))).to.include({ status: 'WAITING', waitingFor: 'order.opened' });
      const signal = await w.start.execute(w.ctx, { event: 'order.opened', contactId: contact.id, correlationKey: 'o-1' });
      expect(signal.resumed).to.deep.equal([opened.id]);
      await w.work();
      w.core.clock.advance(600_000);
      await w.work();
      expect((await w.timeline.execute(w.scope, opened.id)).timeline.map((s) => s.outcome)).to.deep.equal(['EVENT']);
      expect((await w.timeline.execute(w.scope, ignored.id)).timeline.map((s) => s.outcome)).to.deep.equal(['TIMEOUT', 'SENT']);
      expect(w.providers.SMS.received.map((m) => m.body)).to.deep.equal(['Hi Ama, order 2 has shipped']);
    });

    it('waits for a delivery report of the previous send', async () => {
      const w = await buildWorkflows();
      w.providers.SMS.next = (m) => ({ accepted: true, providerMessageId: `rec_${m.internalMessageId}`, delivered: true });
      await w.put.execute(w.scope, w.event.id, { steps: [
        { type: 'send' }, { type: 'wait', for: 'delivery', timeoutSeconds: 300, onEvent: 'end', onTimeout: 'next' }, { type: 'send', channels: ['EMAIL'] }] });
      const contact = await w.contact();
      const run = await w.trigger({ contactId: contact.id, variables: { order: '5' } });
      await w.work();
      w.core.clock.advance(10_000);
      await w.work();
      const view = await w.timeline.execute(w.scope, run.id);
      expect(view.timeline.map((s) => s.outcome)).to.deep.equal(['SENT', 'EVENT']);
      expect(view.status).to.equal('COMPLETED');
      expect(w.providers.EMAIL.received).to.have.length(0);
    });

    it('retries a failing step by the workflow rule, then fails the run and publishes workflow.run_failed', async () => {
      const w = await buildWorkflows({ balance: 0 });
      await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'send' }], retry: { attempts: 2, backoffSeconds: 10 } });
      const contact = await w.contact();
      const run = await w.trigger({ contactId: contact.id, variables: { order: '1' } });
      await w.work();
      expect((await w.timeline.execute(w.scope, run.id))).to.include({ status: 'RUNNING', attempts: 1 });
      w.core.clock.advance(10_000);
      await w.work();
      const failed = await w.timeline.execute(w.scope, run.id);
      expect(failed).to.include({ status: 'FAILED', attempts: 2 });
      expect(failed.error?.code).to.equal('INSUFFICIENT_BALANCE');
      expect(failed.timeline.map((s) => [s.status, s.outcome])).to.deep.equal([['FAILED', 'FAILED']]);
      const events = w.core.storage.state.outboundEvents.filter((e) => e.kind === 'workflow.run_failed');
      expect(events.map((e) => e.data['runId'])).to.deep.equal([run.id]);
    });
  });
});
