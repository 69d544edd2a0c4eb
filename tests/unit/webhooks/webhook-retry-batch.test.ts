import { expect } from 'chai';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver.ts';
import { buildWebhooks } from './webhook-fixtures.ts';

describe('Webhook retries of a batch of webhook-deliver jobs', function () {
  this.timeout(20_000);
  let receiver: WebhookReceiver;
  before(async () => { receiver = await startWebhookReceiver(); });
  after(async () => { await receiver.close(); });
  beforeEach(() => { receiver.received.length = 0; receiver.respond = () => ({ status: 200 }); });

  /** Three events whose first attempts failed (503), each with its retry job taken; the clock moved to when the retries are due. */
  async function threeFailedDeliveries() {
    const w = await buildWebhooks();
    const kept = await w.create({ url: receiver.url, events: ['contact.opted_out'] });
    const dropped = await w.create({ url: receiver.url, events: ['campaign.completed'] });
    receiver.respond = () => ({ status: 503 });
    await w.publish('contact.opted_out'); await w.publish('contact.opted_out'); await w.publish('campaign.completed');
    await w.runDispatch();
    const jobs = w.takeDeliverJobs();
    w.core.clock.advance(jobs[0]!.startAfterSeconds * 1000);
    receiver.received.length = 0;
    receiver.respond = () => ({ status: 200 });
    return { w, kept, dropped, deliveryIds: jobs.map((j) => String(j.data['deliveryId'])) };
  }

  it('attempts each due delivery of a batch once, however many jobs name it, and only within the job\'s organization', async () => {
    const { w, deliveryIds } = await threeFailedDeliveries();
    const [first, second, third] = deliveryIds as [string, string, string];
    const result = await w.deliverWebhooks.execute([
      { organizationId: w.organizationId, deliveryId: first }, { organizationId: w.organizationId, deliveryId: first },
      { organizationId: 'another-organization', deliveryId: second }, { organizationId: w.organizationId, deliveryId: third },
    ]);
    expect(result.map((d) => d && [d.id, d.status, d.attempts])).to.deep.equal([[first, 'SUCCEEDED', 2], [first, 'SUCCEEDED', 2], null, [third, 'SUCCEEDED', 2]]);
    expect(receiver.received).to.have.length(2);
    expect(await w.core.storage.webhookDeliveries.find(w.organizationId, second)).to.include({ status: 'PENDING', attempts: 1 });
  });

  it('fails without a request the deliveries of an endpoint deactivated meanwhile, and attempts the others of the batch', async () => {
    const { w, dropped, deliveryIds } = await threeFailedDeliveries();
    const endpoint = (await w.core.storage.webhookEndpoints.find(w.organizationId, dropped.id))!;
    await w.core.storage.webhookEndpoints.save({ ...endpoint, isActive: false });
    const result = await w.deliverWebhooks.execute(deliveryIds.map((deliveryId) => ({ organizationId: w.organizationId, deliveryId })));
    expect(result.map((d) => [d!.endpointId === dropped.id ? 'dropped' : 'kept', d!.status, d!.lastError])).to.deep.equal([
      ['kept', 'SUCCEEDED', null], ['kept', 'SUCCEEDED', null], ['dropped', 'FAILED', 'endpoint inactive'],
    ]);
    expect(receiver.received).to.have.length(2);
    expect(w.takeDeliverJobs()).to.have.length(0);
  });

  it('ignores a job that runs before its delivery is due (a stale duplicate) and one whose delivery is no longer pending', async () => {
    const { w, deliveryIds } = await threeFailedDeliveries();
    const [first, second] = deliveryIds as [string, string];
    await w.deliver(first); // SUCCEEDED now
    w.core.clock.advance(-4_000); // second is due in 4 s
    const result = await w.deliverWebhooks.execute([{ organizationId: w.organizationId, deliveryId: first }, { organizationId: w.organizationId, deliveryId: second }]);
    expect(result.map((d) => [d!.status, d!.attempts])).to.deep.equal([['SUCCEEDED', 2], ['PENDING', 1]]);
    expect(receiver.received).to.have.length(1);
  });
});
