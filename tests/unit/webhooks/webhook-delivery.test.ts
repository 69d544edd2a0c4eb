import { expect } from 'chai';
import { WEBHOOK_RETRY_DELAYS_SECONDS } from '../../../core/domain/webhook.ts';
import { UpdateWebhookEndpoint } from '../../../core/use-cases/webhooks/update-webhook-endpoint.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { docSnippetVerifier } from '../../support/webhook-doc-snippet.ts';
import { buildWebhooks } from './webhook-fixtures.ts';

describe('Webhook delivery (fan-out, signature, retries, disabling)', function () {
  this.timeout(20_000);
  let receiver: WebhookReceiver;
  before(async () => { receiver = await startWebhookReceiver(); });
  after(async () => { await receiver.close(); });
  beforeEach(() => { receiver.received.length = 0; receiver.respond = () => ({ status: 200 }); });

  it('fans an event out once per subscribed endpoint and attempts each at once, signed so an independent receiver verifies it', async () => {
    const w = await buildWebhooks();
    const all = await w.create({ url: receiver.url });
    const optOuts = await w.create({ url: receiver.url, events: ['contact.opted_out'] });
    await w.create({ url: receiver.url, events: ['campaign.completed'] });
    const event = await w.publish('contact.opted_out', { contactId: 'c-9' });
    expect(await w.runDispatch()).to.deep.equal({ events: 1, created: 2, attempted: 2, succeeded: 2 });
    expect(w.takeDeliverJobs()).to.have.length(0); // the first attempt needs no second job
    // A repeated dispatch job creates nothing twice and sends nothing again.
    expect(await w.dispatch.execute([{ organizationId: w.organizationId, eventId: event.id }])).to.deep.equal({ events: 1, created: 0, attempted: 0, succeeded: 0 });
    expect(receiver.received).to.have.length(2);
    const verify = docSnippetVerifier();
    const bodies = receiver.received.map((r) => verify(r.rawBody, r.headers, [all.secret]) ?? verify(r.rawBody, r.headers, [optOuts.secret]));
    expect(bodies).to.deep.equal([0, 1].map(() => ({
      id: event.id, kind: 'contact.opted_out', organizationId: w.organizationId, occurredAt: event.occurredAt.toISOString(), data: { contactId: 'c-9' },
    })));
    expect(receiver.received.every((r) => r.headers['x-service-event-id'] === event.id && r.headers['x-service-event'] === 'contact.opted_out')).to.equal(true);
    const deliveries = await w.core.storage.webhookDeliveries.listByEndpoint(w.organizationId, all.id, 10);
    expect(deliveries.map((d) => [d.status, d.attempts, d.responseCode])).to.deep.equal([['SUCCEEDED', 1, 200]]);
  });

  it('retries a failing delivery on the documented schedule under a fake clock, then fails it', async () => {
    const w = await buildWebhooks();
    receiver.respond = () => ({ status: 503 });
    await w.create({ url: receiver.url });
    await w.publish();
    await w.runDispatch();
    const delays: number[] = [];
    let [job] = w.takeDeliverJobs();
    let delivery = null;
    expect(receiver.received).to.have.length(1); // the first attempt, made by the dispatch
    while (job) {
      delays.push(job.startAfterSeconds);
      const id = String(job.data['deliveryId']);
      if (job.startAfterSeconds > 0) {
        // A job that runs early (a stale duplicate) changes nothing and sends nothing.
        const before = receiver.received.length;
        await w.deliver(id);
        expect(receiver.received.length).to.equal(before);
      }
      w.core.clock.advance(job.startAfterSeconds * 1000);
      delivery = await w.deliver(id);
      [job] = w.takeDeliverJobs();
    }
    expect(delays).to.deep.equal([...WEBHOOK_RETRY_DELAYS_SECONDS]);
    expect(receiver.received).to.have.length(8);
    expect(delivery).to.include({ status: 'FAILED', attempts: 8, responseCode: 503, lastError: 'HTTP 503', nextAttemptAt: null });
  });

  it('disables the endpoint on 410 Gone and stops retrying', async () => {
    const w = await buildWebhooks();
    receiver.respond = () => ({ status: 410 });
    const endpoint = await w.create({ url: receiver.url });
    expect(await w.subscriptions.hasSubscribers(w.organizationId, 'contact.opted_out')).to.equal(true);
    await w.publish();
    await w.runDispatch();
    const [delivery] = await w.core.storage.webhookDeliveries.listByEndpoint(w.organizationId, endpoint.id, 10);
    expect(delivery).to.include({ status: 'FAILED', responseCode: 410 });
    expect(w.takeDeliverJobs()).to.have.length(0);
    expect(await w.core.storage.webhookEndpoints.find(w.organizationId, endpoint.id)).to.include({ isActive: false, disabledReason: 'GONE' });
    expect(await w.subscriptions.hasSubscribers(w.organizationId, 'contact.opted_out')).to.equal(false); // the cache was invalidated
  });

  it('disables an endpoint failing for 5 days straight and emails the owner; a success resets the streak', async () => {
    const w = await buildWebhooks();
    const endpoint = await w.create({ url: receiver.url });
    receiver.respond = () => ({ status: 500 });
    const attemptNew = async () => {
      await w.publish();
      await w.runDispatch();
      w.takeDeliverJobs(); // retries are left aside
      return (await w.core.storage.webhookDeliveries.listByEndpoint(w.organizationId, endpoint.id, 1))[0];
    };
    await attemptNew();
    const started = w.core.clock.now();
    expect((await w.core.storage.webhookEndpoints.find(w.organizationId, endpoint.id))!.failingSince).to.deep.equal(started);
    w.core.clock.advance(3 * 24 * 3600 * 1000);
    receiver.respond = () => ({ status: 204 });
    await attemptNew();
    expect((await w.core.storage.webhookEndpoints.find(w.organizationId, endpoint.id))!.failingSince).to.equal(null);
    receiver.respond = () => ({ status: 500 });
    await attemptNew();
    w.core.clock.advance(5 * 24 * 3600 * 1000 - 1000);
    await attemptNew();
    expect((await w.core.storage.webhookEndpoints.find(w.organizationId, endpoint.id))!.isActive).to.equal(true);
    expect(w.core.email.sent).to.have.length(0);
    w.core.clock.advance(1000);
    const last = await attemptNew();
    expect(last).to.include({ status: 'FAILED' });
    expect(await w.core.storage.webhookEndpoints.find(w.organizationId, endpoint.id)).to.include({ isActive: false, disabledReason: 'FAILING' });
    expect(w.core.email.sent.map((e) => e.to)).to.deep.equal(['owner@kente.example']);
    expect(w.core.email.sent[0]!.text).to.include(receiver.url);
  });

  it('re-activating a disabled endpoint clears the reason and the failing streak', async () => {
    const w = await buildWebhooks();
    receiver.respond = () => ({ status: 410 });
    const endpoint = await w.create({ url: receiver.url });
    await w.publish();
    await w.runDispatch();
    const update = new UpdateWebhookEndpoint({ storage: w.core.storage, clock: w.core.clock, sender: w.deps.sender, subscriptions: w.subscriptions });
    const view = await update.execute({ organizationId: w.organizationId }, endpoint.id, { isActive: true });
    expect(view).to.include({ isActive: true, disabledReason: null, failingSince: null });
    expect(await w.subscriptions.hasSubscribers(w.organizationId, 'contact.opted_out')).to.equal(true);
  });

  it('fails pending deliveries of an endpoint deactivated meanwhile without sending them', async () => {
    const w = await buildWebhooks();
    const endpoint = await w.create({ url: receiver.url });
    receiver.respond = () => ({ status: 500 });
    await w.publish();
    await w.runDispatch();
    receiver.received.length = 0;
    const endpointRow = (await w.core.storage.webhookEndpoints.find(w.organizationId, endpoint.id))!;
    await w.core.storage.webhookEndpoints.save({ ...endpointRow, isActive: false });
    const [job] = w.takeDeliverJobs();
    w.core.clock.advance(job!.startAfterSeconds * 1000);
    const delivery = await w.deliver(String(job!.data['deliveryId']));
    expect(delivery).to.include({ status: 'FAILED', lastError: 'endpoint inactive' });
    expect(receiver.received).to.have.length(0);
  });

  it('never stores the signing secret in clear', async () => {
    const w = await buildWebhooks();
    const endpoint = await w.create({ url: receiver.url });
    const stored = (await w.core.storage.webhookEndpoints.find(w.organizationId, endpoint.id))!;
    expect(JSON.stringify(stored)).not.to.include(endpoint.secret);
    expect(w.deps.cipher.decrypt(stored.secretCiphertext)).to.equal(endpoint.secret);
  });
});
