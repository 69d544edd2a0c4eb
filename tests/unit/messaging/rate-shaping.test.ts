import { expect } from 'chai';
import { InMemoryRateBuckets } from '../../../adapters/memory/in-memory-rate-buckets.ts';
import { InMemoryTenantDeliveryLimitRepository } from '../../../adapters/memory/in-memory-tenant-delivery-limit-repository.ts';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { newOrganization } from '../../../core/domain/organization.ts';
import type { OutboundMessage, ProviderResult } from '../../../core/ports/channel-provider.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { DeliverMessage } from '../../../core/use-cases/messaging/deliver-message.ts';
import type { TestCore } from '../../support/build-core.ts';
import { buildPipeline, ghPhone } from './messaging-fixtures.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A vendor fake with a throughput limit: records when each call arrived (and whose message it was). */
class PacedVendor extends RecordingProvider {
  readonly ratePerSecond: number;
  readonly calls: Array<{ at: number; organizationId: string }> = [];
  constructor(ratePerSecond: number) { super('SMS', 'paced-sms'); this.ratePerSecond = ratePerSecond; }
  override async send(message: OutboundMessage): Promise<ProviderResult> {
    this.calls.push({ at: Date.now(), organizationId: message.organizationId });
    return super.send(message);
  }
}

/** The most calls that arrived within any one second. */
function busiestSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return Math.max(0, ...sorted.map((t, i) => sorted.slice(i).filter((u) => u < t + 1_000).length));
}

/** Two workers fetching batches of the delivery queue until `done`; a postponed job falls due when its delay has passed in real time. */
async function drain(core: TestCore, deliver: DeliverMessage, done: () => boolean, errors: unknown[]): Promise<void> {
  const dueAt = new WeakMap<object, number>();
  const worker = async () => {
    const deadline = Date.now() + 9_000;
    while (!done() && Date.now() < deadline) {
      const now = Date.now();
      for (const job of core.storage.state.jobs) {
        if (job.queue !== QUEUES.notificationSend || job.startAfterSeconds === 0) continue;
        if (!dueAt.has(job)) dueAt.set(job, now + job.startAfterSeconds * 1000);
        else if (dueAt.get(job)! <= now) job.startAfterSeconds = 0;
      }
      const batch = core.storage.jobs.fetch(QUEUES.notificationSend, 5);
      if (batch.length === 0) { await pause(10); continue; }
      for (const outcome of await deliver.executeMany(batch.map((j) => String(j.data['messageId'])))) if (outcome.error) errors.push(outcome.error);
    }
  };
  await Promise.all([worker(), worker()]);
}

describe('Rate shaping at delivery (docs/providers.md, "Rate shaping")', () => {
  it('paces a provider with ratePerSecond 5: 20 queued messages never reach it more than 5 times in any second, each delivered once, attempts not spent on waiting', async () => {
    const vendor = new PacedVendor(5);
    const p = await buildPipeline({ balance: 100_000, liveSms: [vendor] });
    const deliver = new DeliverMessage({ storage: p.core.storage, providers: directoryOf(vendor), clock: p.core.clock, ids: p.core.ids,
      maxAttempts: 3, leaseSeconds: 60, pacing: { buckets: new InMemoryRateBuckets(), limits: new InMemoryTenantDeliveryLimitRepository(p.core.storage.state) } });
    const bulk = await p.bulk.execute(p.live, { async: true, messages: Array.from({ length: 20 }, (_, i) => ({ channel: 'SMS', to: ghPhone(i), body: `Parcel ${i} shipped` })) });
    expect(bulk.logs).to.have.length(20);
    const errors: unknown[] = [];
    await drain(p.core, deliver, () => vendor.calls.length >= 20 && p.core.storage.state.jobs.every((j) => j.queue !== QUEUES.notificationSend), errors);

    expect(errors, 'a rate wait is no failed job').to.deep.equal([]);
    expect(vendor.calls).to.have.length(20);
    expect(new Set(vendor.received.map((m) => m.messageId)).size, 'each message once').to.equal(20);
    expect(busiestSecond(vendor.calls.map((c) => c.at)), 'calls in the busiest second').to.be.at.most(6); // 5, and one at a window's edge
    const messages = await p.messages();
    expect(messages.map((m) => m.status)).to.deep.equal(Array(20).fill('SENT'));
    expect(messages.map((m) => m.attempts), 'waiting for a slot is not an attempt').to.deep.equal(Array(20).fill(1));
  });

  it('backs the provider off for every worker when the vendor answers 429 (RATE_LIMITED), the failure itself retried as usual', async () => {
    const vendor = new PacedVendor(100);
    vendor.next = () => ({ accepted: false, retryable: true, errorCode: 'RATE_LIMITED', errorMessage: 'paced-sms: rate limited (HTTP 429)' });
    const p = await buildPipeline({ balance: 100_000, liveSms: [vendor] });
    const buckets = new InMemoryRateBuckets();
    const deliver = new DeliverMessage({ storage: p.core.storage, providers: directoryOf(vendor), clock: p.core.clock, ids: p.core.ids, maxAttempts: 3, leaseSeconds: 60, pacing: { buckets } });
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'Hello', async: true });
    const [outcome] = await deliver.executeMany([String(log['id'])]);
    expect((outcome?.error as { code?: string } | undefined)?.code).to.equal('PROVIDER_UNAVAILABLE');
    const next = await buckets.take('provider:paced-sms', 100, 0);
    expect(next.granted ? 0 : next.retryAfterMs, 'the next slot is about a second away').to.be.within(800, 1_000);
  });

  it('holds an organization to its delivery ceiling while another organization\'s messages go at full speed', async () => {
    const vendor = new PacedVendor(0);
    const p = await buildPipeline({ balance: 100_000, liveSms: [vendor] });
    const { storage, clock, ids } = p.core;
    const limits = new InMemoryTenantDeliveryLimitRepository(storage.state);
    await limits.save(p.organizationId, { weight: 1, maxPerSecond: 4 });
    const other = ids.next();
    await storage.organizations.insert(newOrganization(other, 'Other Foods', clock.now()));
    await storage.wallets.create(other, clock.now());
    await storage.wallets.update(other, () => ({ amount: 100_000, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), clock.now());
    const deliver = new DeliverMessage({ storage, providers: directoryOf(vendor), clock, ids, maxAttempts: 3, leaseSeconds: 60, pacing: { buckets: new InMemoryRateBuckets(), limits } });

    const started = Date.now();
    await p.bulk.execute(p.live, { async: true, messages: Array.from({ length: 12 }, (_, i) => ({ channel: 'SMS', to: ghPhone(i), body: `Capped ${i}` })) });
    await p.bulk.execute({ ...p.live, organizationId: other }, { async: true, messages: Array.from({ length: 12 }, (_, i) => ({ channel: 'SMS', to: ghPhone(50 + i), body: `Free ${i}` })) });
    const errors: unknown[] = [];
    await drain(p.core, deliver, () => vendor.calls.length >= 24, errors);

    expect(errors).to.deep.equal([]);
    const capped = vendor.calls.filter((c) => c.organizationId === p.organizationId).map((c) => c.at);
    const free = vendor.calls.filter((c) => c.organizationId === other).map((c) => c.at);
    expect([capped.length, free.length]).to.deep.equal([12, 12]);
    expect(busiestSecond(capped), 'the capped organization\'s busiest second').to.be.at.most(5);
    expect(Math.max(...free) - started, 'the other organization is not held to it').to.be.below(1_500);
    expect((await p.messages()).map((m) => m.attempts)).to.deep.equal(Array(12).fill(1));
  });
});

function directoryOf(vendor: PacedVendor) {
  return { providersFor: () => [vendor] };
}
