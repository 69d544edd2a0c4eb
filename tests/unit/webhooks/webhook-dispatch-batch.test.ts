import { expect } from 'chai';
import { newOrganization } from '../../../core/domain/organization.ts';
import type { WebhookSender } from '../../../core/ports/webhook-sender.ts';
import { CreateWebhookEndpoint } from '../../../core/use-cases/webhooks/create-webhook-endpoint.ts';
import { DispatchOutboundEvents } from '../../../core/use-cases/webhooks/dispatch-outbound-events.ts';
import { webhookDispatchHandler } from '../../../hosts/worker/webhook-handlers.ts';
import { docSnippetVerifier } from '../../support/webhook-doc-snippet.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { buildWebhooks } from './webhook-fixtures.ts';

describe('Webhook dispatch of a batch of events (fan-out and first attempts in one job)', function () {
  this.timeout(20_000);
  let receiver: WebhookReceiver;
  before(async () => { receiver = await startWebhookReceiver(); });
  after(async () => { await receiver.close(); });
  beforeEach(() => { receiver.received.length = 0; receiver.respond = () => ({ status: 200 }); });

  it('sends each event of a batch only to its own organization\'s endpoints; a job naming another organization\'s event sends nothing', async () => {
    const w = await buildWebhooks();
    const other = w.core.ids.next();
    await w.core.storage.organizations.insert(newOrganization(other, 'Accra Mart', w.core.clock.now()));
    const mine = await w.create({ url: receiver.url });
    const theirs = await new CreateWebhookEndpoint({ ...w.deps, ids: w.core.ids, secrets: w.core.secrets }).execute({ organizationId: other }, { url: receiver.url });
    const first = await w.publish('contact.opted_out', { contactId: 'c-1' });
    const second = await w.publish('campaign.completed', { campaignId: 'k-1' });
    const theirEvent = { id: w.core.ids.next(), organizationId: other, kind: 'contact.opted_out' as const, data: { contactId: 'c-2' }, occurredAt: w.core.clock.now() };
    await w.core.storage.outboundEvents.record(theirEvent);
    const summary = await w.dispatch.execute([
      { organizationId: w.organizationId, eventId: first.id }, { organizationId: other, eventId: theirEvent.id }, { organizationId: w.organizationId, eventId: second.id },
      { organizationId: other, eventId: first.id }, { organizationId: w.organizationId, eventId: theirEvent.id }, { organizationId: w.organizationId, eventId: 'unknown' },
    ]);
    expect(summary).to.deep.equal({ events: 3, created: 3, attempted: 3, succeeded: 3 });
    const verify = docSnippetVerifier();
    const delivered = receiver.received.map((r) => {
      const signedBy = verify(r.rawBody, r.headers, [mine.secret]) ? 'mine' : verify(r.rawBody, r.headers, [theirs.secret]) ? 'theirs' : 'nobody';
      const body = JSON.parse(String(r.rawBody)) as { organizationId: string; id: string };
      return `${signedBy}:${body.organizationId}:${body.id}`;
    }).sort();
    expect(delivered).to.deep.equal([`mine:${w.organizationId}:${first.id}`, `mine:${w.organizationId}:${second.id}`, `theirs:${other}:${theirEvent.id}`].sort());
  });

  it('attempts again only a delivery that exists but was never attempted (a run stopped before recording it)', async () => {
    const w = await buildWebhooks();
    const stopped = await w.create({ url: receiver.url });
    const fresh = await w.create({ url: receiver.url });
    const event = await w.publish();
    const now = w.core.clock.now();
    // What a run that stopped after its fan-out leaves behind: a PENDING delivery never attempted.
    await w.core.storage.webhookDeliveries.insertIfAbsent({
      id: 'left-behind', organizationId: w.organizationId, endpointId: stopped.id, eventId: event.id, kind: event.kind, status: 'PENDING', attempts: 0,
      responseCode: null, lastError: null, nextAttemptAt: now, lastAttemptAt: null, createdAt: now, updatedAt: now,
    });
    expect(await w.runDispatch()).to.deep.equal({ events: 1, created: 1, attempted: 2, succeeded: 2 });
    expect(await w.core.storage.webhookDeliveries.find(w.organizationId, 'left-behind')).to.include({ status: 'SUCCEEDED', attempts: 1 });
    expect((await w.core.storage.webhookDeliveries.listByEndpoint(w.organizationId, fresh.id, 10)).map((d) => d.status)).to.deep.equal(['SUCCEEDED']);
    // Once attempted (here: failed, its retry queued), a repeated job sends nothing more.
    receiver.respond = () => ({ status: 503 });
    const later = await w.publish();
    await w.runDispatch();
    w.takeDeliverJobs();
    const sent = receiver.received.length;
    expect(await w.dispatch.execute([{ organizationId: w.organizationId, eventId: later.id }])).to.include({ created: 0, attempted: 0 });
    expect(receiver.received.length).to.equal(sent);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const w = await buildWebhooks();
    receiver.respond = () => ({ status: 204, delayMs: 30 });
    let inFlight = 0;
    let most = 0;
    const counting: WebhookSender = {
      checkTarget: (url) => w.deps.sender.checkTarget(url),
      async post(request) {
        inFlight += 1; most = Math.max(most, inFlight);
        try { return await w.deps.sender.post(request); } finally { inFlight -= 1; }
      },
    };
    const dispatch = new DispatchOutboundEvents({ ...w.deps, sender: counting, ids: w.core.ids, concurrency: 3 });
    await w.create({ url: receiver.url });
    await w.create({ url: receiver.url });
    const events = [];
    for (let i = 0; i < 5; i += 1) events.push(await w.publish());
    const summary = await dispatch.execute(events.map((e) => ({ organizationId: w.organizationId, eventId: e.id })));
    expect(summary).to.include({ created: 10, attempted: 10, succeeded: 10 });
    expect(most).to.equal(3);
  });

  it('folds the outcomes of one endpoint in a batch: retries only the failures, on the schedule, and keeps the failing streak of the last', async () => {
    const w = await buildWebhooks();
    const endpoint = await w.create({ url: receiver.url });
    receiver.respond = (n) => ({ status: n === 2 ? 200 : 503 });
    const dispatch = new DispatchOutboundEvents({ ...w.deps, ids: w.core.ids, concurrency: 1 }); // one at a time: the receiver's n is the batch order
    const events = [await w.publish(), await w.publish(), await w.publish()];
    const summary = await dispatch.execute(events.map((e) => ({ organizationId: w.organizationId, eventId: e.id })));
    expect(summary).to.include({ attempted: 3, succeeded: 1 });
    const deliveries = await w.core.storage.webhookDeliveries.listByEndpoint(w.organizationId, endpoint.id, 10);
    const byEvent = new Map(deliveries.map((d) => [d.eventId, d]));
    expect(events.map((e) => [byEvent.get(e.id)!.status, byEvent.get(e.id)!.attempts])).to.deep.equal([['PENDING', 1], ['SUCCEEDED', 1], ['PENDING', 1]]);
    const retries = w.takeDeliverJobs();
    expect(retries.map((j) => [j.data['deliveryId'], j.startAfterSeconds])).to.deep.equal([[byEvent.get(events[0]!.id)!.id, 5], [byEvent.get(events[2]!.id)!.id, 5]]);
    expect((await w.core.storage.webhookEndpoints.find(w.organizationId, endpoint.id))!.failingSince).to.deep.equal(w.core.clock.now());
  });

  it('fails every delivery of a batch to an endpoint that answers 410 Gone, and disables it', async () => {
    const w = await buildWebhooks();
    const gone = await w.create({ url: receiver.url });
    receiver.respond = () => ({ status: 410 });
    for (let i = 0; i < 3; i += 1) await w.publish();
    expect(await w.runDispatch()).to.include({ attempted: 3, succeeded: 0 });
    expect((await w.core.storage.webhookDeliveries.listByEndpoint(w.organizationId, gone.id, 10)).map((d) => d.status)).to.deep.equal(['FAILED', 'FAILED', 'FAILED']);
    expect(w.takeDeliverJobs()).to.have.length(0);
    expect(await w.core.storage.webhookEndpoints.find(w.organizationId, gone.id)).to.include({ isActive: false, disabledReason: 'GONE' });
    expect(await w.subscriptions.hasSubscribers(w.organizationId, 'contact.opted_out')).to.equal(false);
  });

  it('the worker handler completes every job of a batch, malformed ones included, in one dispatch', async () => {
    const w = await buildWebhooks();
    await w.create({ url: receiver.url });
    const events = [await w.publish(), await w.publish()];
    const handler = webhookDispatchHandler(w.dispatch, 10);
    const outcomes = await handler.handleBatch!([
      { organizationId: w.organizationId, eventId: events[0]!.id }, { eventId: 42 }, { organizationId: w.organizationId, eventId: events[1]!.id },
    ]);
    expect(outcomes).to.deep.equal([null, null, null]);
    expect(receiver.received.map((r) => r.headers['x-service-event-id']).sort()).to.deep.equal(events.map((e) => e.id).sort());
  });
});
