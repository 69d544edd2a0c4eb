import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import type { Message } from '../../core/domain/message.ts';
import { newOrganization } from '../../core/domain/organization.ts';
import type { ChannelProvider, OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { SendMessage } from '../../core/use-cases/messaging/send-message.ts';
import type { Config } from '../../hosts/config.ts';
import type { Infrastructure } from '../../hosts/infrastructure.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders, MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { testConfig } from '../support/test-config.ts';

/** A provider whose answers wait until the test releases them: a worker stuck (or killed) mid-call. */
class GatedProvider implements ChannelProvider {
  readonly name = 'gated-sms';
  readonly channel = 'SMS' as const;
  readonly received: OutboundMessage[] = [];
  #release: (result: ProviderResult) => void = () => undefined;
  readonly #answer = new Promise<ProviderResult>((resolve) => { this.#release = resolve; });
  async send(message: OutboundMessage): Promise<ProviderResult> {
    this.received.push(message);
    return this.#answer;
  }
  release(result: ProviderResult): void { this.#release(result); }
}

const phone = (n: number) => `+23324${String(5_000_000 + n).padStart(7, '0')}`;
const FINAL = ['SENT', 'DELIVERED', 'FAILED', 'REJECTED'];

describe('Worker: durable delivery through pg-boss', function () {
  this.timeout(30_000);
  let infra: Infrastructure;
  const running: RunningWorker[] = [];

  before(async () => { infra = await sharedInfrastructure(); });
  afterEach(async () => { for (const w of running.splice(0)) await w.stop(); });

  /** A worker process: its own container on the shared database, delivering through `providers`. */
  async function worker(providers: ChannelProvider[], config: Partial<Config> = {}) {
    const container = buildWorkerContainer(testConfig(config), createLogger('silent'), infra, { providers: new StaticProviderDirectory(providers, []) });
    await loadProviders(container);
    return {
      container,
      async start(): Promise<RunningWorker> {
        const w = await startWorker(infra.boss, container.getAll(WORKER.handlers), createLogger('silent'));
        running.push(w);
        return w;
      },
    };
  }

  /** An organization with GHS 10 and a live sender built on `container`'s adapters (as the API host does). */
  async function tenant(container: ReturnType<typeof buildWorkerContainer>) {
    const storage = container.get(INFRA.storage);
    const organizationId = randomUUID();
    const now = new Date();
    await storage.organizations.insert(newOrganization(organizationId, 'Worker test', now));
    await storage.wallets.create(organizationId, now);
    await storage.wallets.update(organizationId, () => ({ amount: 1_000, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), now);
    const deliver = container.get(MESSAGING.deliverMessage);
    const send = new SendMessage({
      storage, pricing: container.get(MESSAGING.pricing), clock: container.get(INFRA.clock), ids: container.get(INFRA.ids),
      secrets: container.get(INFRA.secrets), fraud: container.get(MESSAGING.fraudLimits), deliverNow: (id) => deliver.execute(id),
    });
    const ctx = { organizationId, userId: null, apiKeyId: null, isSandbox: false };
    return {
      organizationId,
      send: async (to: string, options: { async?: boolean } = { async: true }) => (await send.execute(ctx, { channel: 'SMS', to, body: 'Parcel update', ...options })).log,
      message: async (id: string) => (await storage.messages.findById(organizationId, id))!,
      ledger: async () => (await storage.wallets.listEntries(organizationId, 100)).filter((e) => e.kind !== 'TOP_UP').reverse(),
      balance: async () => (await storage.wallets.get(organizationId))!.balance,
    };
  }

  async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const final = (m: Message) => FINAL.includes(m.status);

  it('delivers async sends: QUEUED -> SENT by the worker, each sent once and charged once', async () => {
    const sms = new RecordingProvider('SMS', 'worker-sms');
    const w = await worker([sms]);
    await w.start();
    const t = await tenant(w.container);
    const logs = await Promise.all([1, 2, 3, 4, 5].map((n) => t.send(phone(n))));
    expect(logs.map((l) => l['status'])).to.deep.equal(Array(5).fill('QUEUED'));

    for (const log of logs) {
      const m = await until('delivery', () => t.message(String(log['id'])), final);
      expect(m).to.include({ status: 'SENT', provider: 'worker-sms', attempts: 1, cost: 3 });
    }
    const ids = logs.map((l) => l['id']);
    expect(sms.received.filter((m) => ids.includes(m.messageId))).to.have.length(5);
    // Concurrent queued sends are group-committed: fewer ledger entries, the same total charge.
    const debits = await t.ledger();
    expect(debits.every((e) => e.kind === 'DEBIT')).to.equal(true);
    expect(debits.reduce((sum, e) => sum + e.amount, 0)).to.equal(-15);
    expect(await t.balance()).to.equal(1_000 - 15);
  });

  it('picks up, after a restart, the messages queued while no worker ran', async () => {
    const sms = new RecordingProvider('SMS', 'restart-sms');
    const w = await worker([sms]);
    const first = await w.start();
    const t = await tenant(w.container);
    await first.stop();
    running.splice(running.indexOf(first), 1);

    const logs = await Promise.all([10, 11, 12].map((n) => t.send(phone(n))));
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // more than two polling intervals: nobody is working
    for (const log of logs) expect((await t.message(String(log['id']))).status).to.equal('QUEUED');

    await (await worker([sms])).start();
    for (const log of logs) expect(await until('delivery after restart', () => t.message(String(log['id'])), final)).to.include({ status: 'SENT', attempts: 1 });
    expect(sms.received.filter((m) => logs.some((l) => l['id'] === m.messageId))).to.have.length(3);
    expect((await t.ledger()).reduce((sum, e) => sum + e.amount, 0)).to.equal(-9);
  });

  it('delivers exactly once, charged once, a message whose worker died mid-call (the dead worker\'s late answer changes nothing)', async () => {
    const gated = new GatedProvider();
    const dying = await worker([gated]);
    await dying.start();
    const t = await tenant(dying.container);
    const log = await t.send(phone(20));
    const id = String(log['id']);
    await until('the first worker to call the provider', async () => gated.received.length, (n) => n === 1);
    const held = await t.message(id);
    expect(held).to.include({ status: 'PENDING', attempts: 1 });
    expect(held.leaseUntil!.getTime()).to.be.greaterThan(Date.now());

    // The first worker dies: it stops polling, and its lease runs out (time passes); pg-boss's expiry
    // would then hand the job out again, which the test does at once by re-enqueueing it.
    await infra.boss.offWork(QUEUES.notificationSend, { wait: false });
    const storage = dying.container.get(INFRA.storage);
    await storage.messages.transition(id, ['PENDING'], { leaseUntil: new Date(Date.now() - 1_000), updatedAt: new Date() });
    const sms = new RecordingProvider('SMS', 'survivor-sms');
    await (await worker([sms])).start();
    await infra.boss.send(QUEUES.notificationSend, { messageId: id });

    const delivered = await until('redelivery', () => t.message(id), final);
    expect(delivered).to.include({ status: 'SENT', provider: 'survivor-sms', attempts: 2, cost: 3 });
    gated.release({ accepted: true, providerMessageId: 'late', delivered: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await t.message(id)).to.include({ status: 'SENT', provider: 'survivor-sms', providerMessageId: `rec_${delivered.internalMessageId}` });
    expect(sms.received.filter((m) => m.messageId === id)).to.have.length(1);
    expect((await t.ledger()).map((e) => [e.kind, e.amount])).to.deep.equal([['DEBIT', -3]]);
    expect(await t.balance()).to.equal(1_000 - 3);
  });

  it('retries a job that finds the message leased by another attempt until the lease ends, instead of stranding it', async () => {
    const sms = new RecordingProvider('SMS', 'lease-sms');
    const w = await worker([sms]);
    const t = await tenant(w.container);
    const log = await t.send(phone(30)); // queued before any worker runs
    const id = String(log['id']);
    const storage = w.container.get(INFRA.storage);
    // Another (dead) attempt claimed it a moment ago; its lease ends in 1.5 s.
    await storage.messages.transition(id, ['QUEUED'], { status: 'PENDING', attempts: 1, leaseUntil: new Date(Date.now() + 1_500), updatedAt: new Date() });
    await w.start();
    await infra.boss.send(QUEUES.notificationSend, { messageId: id }, { retryDelay: 1, retryBackoff: false, retryLimit: 5 });

    const delivered = await until('delivery after the lease', () => t.message(id), final, 20_000);
    expect(delivered).to.include({ status: 'SENT', attempts: 2 });
    expect(sms.received.filter((m) => m.messageId === id)).to.have.length(1);
    expect(await t.ledger()).to.have.length(1);
  });

  it('retries transient failures through pg-boss and fails the message, refunded once, after DELIVERY_MAX_ATTEMPTS', async () => {
    const queue = await infra.boss.getQueue(QUEUES.notificationSend);
    expect(queue).to.include({ retryBackoff: true, retryDelay: 5, retryLimit: 8 }); // production backoff: 5 s doubling, capped at 600 s

    const flaky = new RecordingProvider('SMS', 'flaky-sms');
    flaky.next = () => ({ accepted: false, retryable: true, errorCode: 'VENDOR_TIMEOUT', errorMessage: 'vendor timed out' });
    const w = await worker([flaky], { deliveryMaxAttempts: 3 });
    const t = await tenant(w.container);
    // A sync send: attempt 1 inline (answers PENDING), then the queue owns the retries. The job is
    // enqueued with a 1 s retry delay so the test does not wait for the production backoff.
    const log = await t.send(phone(40), { async: false });
    const id = String(log['id']);
    expect(log).to.include({ status: 'PENDING' });
    await w.start();
    await infra.boss.send(QUEUES.notificationSend, { messageId: id }, { retryDelay: 1, retryBackoff: false, retryLimit: 5 });

    const failed = await until('failure after 3 attempts', () => t.message(id), final, 20_000);
    expect(failed).to.include({ status: 'FAILED', attempts: 3, errorCode: 'VENDOR_TIMEOUT', cost: 0 });
    expect(flaky.received.filter((m) => m.messageId === id)).to.have.length(3);
    expect((await t.ledger()).map((e) => [e.kind, e.amount, e.reference === id])).to.deep.equal([['DEBIT', -3, false], ['REFUND', 3, true]]);
    expect(await t.balance()).to.equal(1_000);
  });
});
