import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { newOrganization } from '../../core/domain/organization.ts';
import { SendMessage } from '../../core/use-cases/messaging/send-message.ts';
import type { Infrastructure } from '../../hosts/infrastructure.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders, MESSAGING } from '../../hosts/messaging-bindings.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { testConfig } from '../support/test-config.ts';

/** A polling interval no test waits out: a job picked up is one the worker was woken for. */
const NEVER_POLL_SECONDS = 3_600;

for (const kind of await availableDatabaseKinds()) {
  describe(`Worker wake-up (${kind}): an idle worker picks up a delivery job without waiting for its poll`, function () {
    this.timeout(30_000);
    let infra: Infrastructure;
    let running: RunningWorker | null = null;
    before(async () => { infra = await sharedInfrastructure(kind); });
    after(async () => { await running?.stop(); });

    it('delivers an async send at once, by NOTIFY (in-process on PGlite), with a polling interval of an hour', async () => {
      const sms = new RecordingProvider('SMS', `wakeup-${kind}`);
      const container = buildWorkerContainer(testConfig(), createLogger('silent'), infra, { providers: new StaticProviderDirectory([sms], []) });
      await loadProviders(container);
      running = await startWorker(infra.boss, container.getAll(WORKER.handlers), createLogger('silent'), [], NEVER_POLL_SECONDS);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // the workers' first fetch (at start) is behind them: now they only wait

      const storage = container.get(INFRA.storage);
      const organizationId = randomUUID();
      const now = new Date();
      await storage.organizations.insert(newOrganization(organizationId, 'Wake-up test', now));
      await storage.wallets.create(organizationId, now);
      await storage.wallets.update(organizationId, () => ({ amount: 1_000, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), now);
      const deliver = container.get(MESSAGING.deliverMessage);
      const send = new SendMessage({
        storage, pricing: container.get(MESSAGING.pricing), clock: container.get(INFRA.clock), ids: container.get(INFRA.ids),
        secrets: container.get(INFRA.secrets), fraud: container.get(MESSAGING.fraudLimits), deliverNow: (id) => deliver.execute(id),
      });
      const ctx = { organizationId, userId: null, apiKeyId: null, isSandbox: false };
      const { log } = await send.execute(ctx, { channel: 'SMS', to: '+233245550001', body: 'Your code is 123456', category: 'OTP', async: true });
      expect(log['status']).to.equal('QUEUED');

      const deadline = Date.now() + 20_000; // far below the polling interval
      while (!sms.received.some((m) => m.messageId === log['id']) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sms.received.map((m) => m.messageId)).to.include(log['id']);
      // The vendor has it; the SENT status is written once its answer is read.
      let message = await storage.messages.findById(organizationId, String(log['id']));
      while (message?.status !== 'SENT' && Date.now() < deadline + 5_000) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        message = await storage.messages.findById(organizationId, String(log['id']));
      }
      expect(message).to.include({ status: 'SENT', attempts: 1 });
    });

    /**
     * A worker whose every regular delivery loop holds a batch of one tenant's backlog: the vendor answers
     * none of that backlog (nor a passcode `holds` names) while the test looks.
     */
    async function heldWorker(holds: (message: OutboundMessage) => boolean = () => false) {
      await running?.stop();
      const held = randomUUID();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => { release = resolve; });
      const sms = new (class extends RecordingProvider {
        override async send(message: OutboundMessage): Promise<ProviderResult> {
          const result = await super.send(message);
          if ((message.organizationId === held && message.lane !== 'OTP') || holds(message)) await gate; // no answer while the test looks
          return result;
        }
      })('SMS', `express-${kind}`);
      const config = testConfig();
      const container = buildWorkerContainer(config, createLogger('silent'), infra, { providers: new StaticProviderDirectory([sms], []) });
      await loadProviders(container);
      const storage = container.get(INFRA.storage);
      const deliver = container.get(MESSAGING.deliverMessage);
      const sender = new SendMessage({
        storage, pricing: container.get(MESSAGING.pricing), clock: container.get(INFRA.clock), ids: container.get(INFRA.ids),
        secrets: container.get(INFRA.secrets), fraud: container.get(MESSAGING.fraudLimits), deliverNow: (id) => deliver.execute(id),
      });
      const tenant = async (organizationId: string) => {
        const now = new Date();
        await storage.organizations.insert(newOrganization(organizationId, `Express ${organizationId.slice(0, 8)}`, now));
        await storage.wallets.create(organizationId, now);
        await storage.wallets.update(organizationId, () => ({ amount: 100_000, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), now);
        return { organizationId, userId: null, apiKeyId: null, isSandbox: false };
      };
      const [backlogged, quiet] = [await tenant(held), await tenant(randomUUID())];
      const backlog = 2 * config.deliveryFetchers * config.workerConcurrency;
      for (let i = 0; i < backlog; i++) await sender.execute(backlogged, { channel: 'SMS', to: `+2332455${String(10_000 + i).padStart(5, '0')}`, body: `Parcel ${i} shipped`, async: true });
      running = await startWorker(infra.boss, container.getAll(WORKER.handlers), createLogger('silent'), [], NEVER_POLL_SECONDS);
      const deadline = Date.now() + 15_000;
      const heldCount = () => sms.received.filter((m) => m.organizationId === held && m.lane !== 'OTP').length;
      while (heldCount() < config.deliveryFetchers * config.workerConcurrency && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(heldCount(), 'every delivery loop holds a batch of the backlog').to.equal(config.deliveryFetchers * config.workerConcurrency);
      const reached = (id: unknown) => sms.received.some((m) => m.messageId === id);
      // The answers come, the worker stops, and the backlog's jobs still waiting go: a leftover batch would keep a loop of the next test's worker busy.
      const done = async () => {
        release();
        await running?.stop();
        running = null;
        await infra.database.em().execute(`delete from pgboss.job where name = ? and state < 'active' and group_id = ?`, [QUEUES.notificationSend, held]);
      };
      return {
        backlogged, quiet, done, heldCount, reached, inFlight: config.deliveryFetchers * config.workerConcurrency,
        send: async (ctx: typeof quiet, to: string, body: string, category?: 'OTP') => (await sender.execute(ctx, { channel: 'SMS', to, body, async: true, ...(category ? { category } : {}) })).log,
        until: async (done: () => boolean) => { while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20)); },
      };
    }

    it('fetches a quiet tenant\'s single message and a passcode at once while every delivery loop is held by another tenant\'s backlog (the express loop)', async () => {
      const w = await heldWorker();
      try {
        const single = await w.send(w.quiet, '+233245559001', 'Your table is ready');
        const passcode = await w.send(w.backlogged, '+233245559002', 'Your code is 246810', 'OTP');
        await w.until(() => w.reached(single['id']) && w.reached(passcode['id']));
        expect(w.reached(single['id']), 'the quiet tenant\'s message reached the vendor while the backlog held every loop').to.equal(true);
        expect(w.reached(passcode['id']), 'the passcode too').to.equal(true);
        expect(w.heldCount(), 'no more of the backlog was fetched meanwhile').to.equal(w.inFlight);
      } finally {
        await w.done();
      }
    });

    it('fetches a passcode while an express loop waits for the vendor\'s answer to the one before (two express loops)', async () => {
      const w = await heldWorker((message) => message.to === '+233245559003');
      try {
        const first = await w.send(w.backlogged, '+233245559003', 'Your code is 135790', 'OTP');
        await w.until(() => w.reached(first['id']));
        expect(w.reached(first['id']), 'the first passcode is at the vendor, unanswered').to.equal(true);
        const second = await w.send(w.quiet, '+233245559004', 'Your code is 246810', 'OTP');
        await w.until(() => w.reached(second['id']));
        expect(w.reached(second['id']), 'the second passcode reached the vendor while the first waited for its answer').to.equal(true);
      } finally {
        await w.done();
      }
    });
  });
}
