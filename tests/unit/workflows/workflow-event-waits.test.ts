import { expect } from 'chai';
import { InAppInboxProvider, InAppProviderDirectory } from '../../../adapters/providers/in-app-provider.ts';
import { StaticProviderDirectory } from '../../../adapters/providers/static-provider-directory.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { ReceiveInboundMessages } from '../../../core/use-cases/conversations/receive-inbound-messages.ts';
import { MarkInboxItems } from '../../../core/use-cases/inbox/mark-inbox-items.ts';
import { FollowTrackedLink } from '../../../core/use-cases/links/follow-tracked-link.ts';
import { DeliverMessage } from '../../../core/use-cases/messaging/deliver-message.ts';
import { RandomLinkCodes } from '../../../adapters/security/random-link-codes.ts';
import { buildWorkflows, type Workflows } from './workflow-fixtures.ts';

/** Plays the worker (as workflow-fixtures' work()), delivering IN_APP through the real inbox provider. */
async function work(w: Workflows, deliver: DeliverMessage): Promise<void> {
  const { core, later, runner } = w;
  for (let round = 0; round < 20; round++) {
    for (const job of core.storage.jobs.take(QUEUES.workflowStep)) later.push({ runId: String(job.data['runId']), dueAt: core.clock.now().getTime() + job.startAfterSeconds * 1000 });
    for (const job of core.storage.jobs.take(QUEUES.notificationSend)) await deliver.execute(String(job.data['messageId']));
    const due = later.filter((j) => j.dueAt <= core.clock.now().getTime());
    if (due.length === 0) break;
    for (const job of due) later.splice(later.indexOf(job), 1);
    for (const job of due) await runner.execute(job.runId);
  }
}

async function setUp(steps: unknown[]) {
  const w = await buildWorkflows();
  const { core } = w;
  const directory = new InAppProviderDirectory(new StaticProviderDirectory(Object.values(w.providers), []), new InAppInboxProvider({ storage: core.storage, ids: core.ids, clock: core.clock }));
  const deliver = new DeliverMessage({ storage: core.storage, providers: directory, clock: core.clock, ids: core.ids, maxAttempts: 3, leaseSeconds: 60 });
  await w.put.execute(w.scope, w.event.id, { steps });
  const run = async () => { await work(w, deliver); };
  const view = async (id: string) => w.timeline.execute(w.scope, id);
  return { w, run, view, mark: new MarkInboxItems(core), inbound: new ReceiveInboundMessages(core) };
}

const readFlow = [{ type: 'send', channels: ['IN_APP'], fallbackChannels: [] }, { type: 'wait', for: 'read', timeoutSeconds: 600, onEvent: 'end', onTimeout: 'next' },
  { type: 'send', channels: ['SMS'], fallbackChannels: [] }];

describe('Workflows: wait for a read, a reply or a click', () => {
  it('validates: a read needs an IN_APP-capable send before it; read, reply and click need a send before them', async () => {
    const { w } = await setUp([{ type: 'send' }]);
    const bad = async (body: unknown) => (await w.put.execute(w.scope, w.event.id, body).then(() => null, (e: { message: string; code: string }) => e))!;
    expect((await bad({ steps: [{ type: 'send', channels: ['SMS'] }, { type: 'wait', for: 'read', timeoutSeconds: 60 }] })).message).to.contain('IN_APP');
    expect((await bad({ steps: [{ type: 'wait', for: 'reply', timeoutSeconds: 60 }, { type: 'send' }] })).message).to.contain('needs a send step before it');
    expect((await bad({ steps: [{ type: 'send' }, { type: 'wait', for: 'open', timeoutSeconds: 60 }] })).code).to.equal('VALIDATION_ERROR');
    const ok = await w.put.execute(w.scope, w.event.id, { steps: [{ type: 'send', channels: ['SMS'], fallbackChannels: ['IN_APP'] }, { type: 'wait', for: 'read', timeoutSeconds: 60 },
      { type: 'wait', for: 'click', timeoutSeconds: 60 }, { type: 'wait', for: 'reply', timeoutSeconds: 60 }] });
    expect(ok.steps.map((s) => (s.type === 'wait' ? s.for : s.type))).to.deep.equal(['send', 'read', 'click', 'reply']);
  });

  it('resumes at once when the in-app item is read (one wake-up, once), and never sends the timeout path', async () => {
    const { w, run, view, mark } = await setUp(readFlow);
    const started = await w.trigger({ subscriberId: 'user-1', to: '+233241000001', variables: { order: '1', firstName: 'Ama' } });
    await run();
    expect(await view(started.id)).to.include({ status: 'WAITING', waitingFor: 'read:user-1' });
    const item = (await w.core.storage.inbox.list(w.organizationId, 'user-1', { filter: 'all', limit: 10 })).items[0]!;
    await mark.execute({ organizationId: w.organizationId, subscriberId: 'user-1' }, { ids: [item.id], mark: 'seen' });
    await mark.one({ organizationId: w.organizationId, subscriberId: 'user-1' }, item.id, 'read');
    await mark.all({ organizationId: w.organizationId, subscriberId: 'user-1' }, { mark: 'archived' }); // a second event
    await run();
    const done = await view(started.id);
    expect(done.status).to.equal('COMPLETED');
    expect(done.timeline.map((s) => s.outcome)).to.deep.equal(['SENT', 'EVENT']);
    w.core.clock.advance(601_000);
    await run();
    expect(w.providers.SMS.received).to.have.length(0);
  });

  it('takes the timeout path when the read comes after the deadline, whichever job runs first; another subscriber\'s read wakes nothing', async () => {
    const { w, run, view, mark } = await setUp(readFlow);
    const started = await w.trigger({ subscriberId: 'user-2', to: '+233241000002', variables: { order: '2', firstName: 'Ama' } });
    await run();
    await mark.all({ organizationId: w.organizationId, subscriberId: 'user-9' }, { mark: 'read' });
    w.core.clock.advance(600_000);
    const item = (await w.core.storage.inbox.list(w.organizationId, 'user-2', { filter: 'all', limit: 10 })).items[0]!;
    w.core.clock.advance(5_000);
    await mark.one({ organizationId: w.organizationId, subscriberId: 'user-2' }, item.id, 'read'); // after the deadline, before the timeout job ran
    await Promise.all([w.runner.execute(started.id), w.runner.execute(started.id)]);
    await run();
    const done = await view(started.id);
    expect(done.timeline.map((s) => s.outcome)).to.deep.equal(['SENT', 'TIMEOUT', 'SENT']);
    expect(w.providers.SMS.received).to.have.length(1);
  });

  it('resumes on a reply from the recipient\'s phone (SMS or WhatsApp) after the send, not on another organization\'s or another phone\'s', async () => {
    const { w, run, view, inbound } = await setUp([{ type: 'send', channels: ['SMS'], fallbackChannels: [] },
      { type: 'wait', for: 'reply', timeoutSeconds: 3_600, onEvent: 'next', onTimeout: 'end' }, { type: 'send', channels: ['SMS'], fallbackChannels: [] }]);
    const contact = await w.contact();
    const report = (from: string, id: string) => ({ providerMessageId: id, channel: 'WHATSAPP' as const, from, to: '233300000000', body: 'yes', receivedAt: null, profileName: null });
    await inbound.execute({ vendor: 'meta', provider: 'meta', organizationId: w.organizationId }, [report(contact.phone!, 'before')]); // before the send: not a reply
    const started = await w.trigger({ contactId: contact.id, variables: { order: '3', firstName: 'Ama' } });
    w.core.clock.advance(1_000);
    await run();
    expect(await view(started.id)).to.include({ status: 'WAITING', waitingFor: `reply:${contact.phone}` });
    await inbound.execute({ vendor: 'meta', provider: 'meta', organizationId: w.core.ids.next() }, [report(contact.phone!, 'other-org')]);
    await inbound.execute({ vendor: 'meta', provider: 'meta', organizationId: w.organizationId }, [report('+233241999999', 'other-phone')]);
    expect(w.core.storage.jobs.take(QUEUES.workflowStep)).to.have.length(0);
    await inbound.execute({ vendor: 'meta', provider: 'meta', organizationId: w.organizationId }, [report(contact.phone!.replace('+', ''), 'reply')]);
    await run();
    const done = await view(started.id);
    expect(done.timeline.map((s) => s.outcome)).to.deep.equal(['SENT', 'EVENT', 'SENT']);
    expect(done.status).to.equal('COMPLETED');
  });

  it('resumes on the first counted click of a tracked link in the send step\'s message, once', async () => {
    const { w, run, view } = await setUp([{ type: 'send', channels: ['SMS'], fallbackChannels: [] },
      { type: 'wait', for: 'click', timeoutSeconds: 3_600, onEvent: 'end', onTimeout: 'next' }, { type: 'send', channels: ['SMS'], fallbackChannels: [] }]);
    const started = await w.trigger({ to: '+233241000004', variables: { order: '4', firstName: 'Ama' } });
    await run();
    const messageId = (await view(started.id)).timeline[0]!.messageId!;
    const code = new RandomLinkCodes().next();
    const now = w.core.clock.now();
    await w.core.storage.trackedLinks.insertMany([{ code, organizationId: w.organizationId, messageId, templateId: null, url: 'https://shop.example/x', createdAt: now, expiresAt: null }]);
    const follow = new FollowTrackedLink({ ...w.core, links: w.core.storage.trackedLinks, domains: { findByVerifiedDomain: async () => null }, platformHost: 'links.test' });
    const click = { code, host: 'links.test', method: 'GET', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', client: '10.0.0.1' };
    expect(await follow.execute(click)).to.equal('https://shop.example/x');
    await follow.flush();
    expect(await follow.execute({ ...click, client: '10.0.0.2' })).to.equal('https://shop.example/x');
    await follow.flush(); // a second click: not a first click, no second wake-up
    await run();
    const done = await view(started.id);
    expect(done.timeline.map((s) => s.outcome)).to.deep.equal(['SENT', 'EVENT']);
    w.core.clock.advance(3_601_000);
    await run();
    expect(w.providers.SMS.received).to.have.length(1);
  });

  it('takes onTimeout at once (FAILED) when the send could not reach an inbox', async () => {
    const { w, run, view } = await setUp([{ type: 'send', channels: ['SMS'], fallbackChannels: ['IN_APP'] }, { type: 'wait', for: 'read', timeoutSeconds: 600, onTimeout: 'end' }]);
    const started = await w.trigger({ to: '+233241000005', variables: { order: '5', firstName: 'Ama' } });
    await run();
    expect((await view(started.id)).timeline.map((s) => s.outcome)).to.deep.equal(['SENT', 'FAILED']);
  });
});
