import { expect } from 'chai';
import { CachedWebhookSubscriptions } from '../../../adapters/cache/cached-webhook-subscriptions.ts';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../../adapters/providers/static-provider-directory.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { ApplyDeliveryReport } from '../../../core/use-cases/messaging/apply-delivery-report.ts';
import { DeliverMessage } from '../../../core/use-cases/messaging/deliver-message.ts';
import { buildPipeline, ghPhone } from '../messaging/messaging-fixtures.ts';

async function setup() {
  const p = await buildPipeline();
  let probes = 0;
  const subscriptions = new CachedWebhookSubscriptions(() => {
    probes += 1;
    return p.core.storage.webhookEndpoints;
  }, 60_000);
  const provider = new RecordingProvider('SMS', 'live-sms');
  const deliver = new DeliverMessage({
    storage: p.core.storage, providers: new StaticProviderDirectory([provider], []), clock: p.core.clock, ids: p.core.ids, maxAttempts: 3, leaseSeconds: 60, webhooks: subscriptions,
  });
  const apply = new ApplyDeliveryReport({ storage: p.core.storage, clock: p.core.clock, ids: p.core.ids, webhooks: subscriptions });
  const queued = async () => {
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(Math.floor(Math.random() * 1000)), body: 'hello', async: true });
    p.takeJobs();
    return String(log['id']);
  };
  const subscribe = async (events: string[]) => {
    const now = p.core.clock.now();
    await p.core.storage.webhookEndpoints.insert({
      id: p.core.ids.next(), organizationId: p.organizationId, url: 'https://hooks.example/x', events: events as never, isActive: true, secretCiphertext: 'x',
      previousSecretCiphertext: null, previousSecretExpiresAt: null, disabledReason: null, failingSince: null, createdAt: now, updatedAt: now,
    });
    subscriptions.invalidate(p.organizationId);
  };
  return { p, deliver, apply, queued, subscribe, provider, probes: () => probes };
}

describe('message.status.updated events', () => {
  it('publishes nothing, and probes at most once per TTL, for an organization without a subscribed endpoint', async () => {
    const s = await setup();
    await s.subscribe(['contact.opted_out']);
    for (let i = 0; i < 5; i += 1) await s.deliver.execute(await s.queued());
    expect(s.p.core.storage.state.outboundEvents).to.have.length(0);
    expect(s.p.core.storage.jobs.take(QUEUES.webhookDispatch)).to.have.length(0);
    expect(s.probes()).to.equal(1);
  });

  it('publishes every real status change, in the outbox with its dispatch job, once an endpoint subscribes', async () => {
    const s = await setup();
    await s.subscribe([]);
    const id = await s.queued();
    const sent = await s.deliver.execute(id);
    expect(sent?.status).to.equal('SENT');
    await s.deliver.execute(id); // already SENT: no change, no event
    const report = { providerMessageId: sent!.providerMessageId!, status: 'DELIVERED' as const, errorCode: null, vendorStatus: 'DELIVRD', occurredAt: null };
    await s.apply.execute('live-sms', report, 'callback:test');
    await s.apply.execute('live-sms', report, 'callback:test'); // duplicate report: no change, no event
    const events = s.p.core.storage.state.outboundEvents;
    expect(events.map((e) => [e.kind, e.data['status'], e.data['messageId']])).to.deep.equal([
      ['message.status.updated', 'SENT', id], ['message.status.updated', 'DELIVERED', id],
    ]);
    expect(events[0]!.data).to.include({ channel: 'SMS', provider: 'live-sms' });
    const jobs = s.p.core.storage.jobs.take(QUEUES.webhookDispatch);
    expect(jobs.map((j) => j.data['eventId'])).to.deep.equal(events.map((e) => e.id));
  });
});
