import { expect } from 'chai';
import { ApiClient } from '../support/api-client.ts';
import { randomUUID } from 'node:crypto';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import type { ChannelProvider, OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import { INFRA } from '../../hosts/tokens.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { availableDatabaseKinds } from '../support/test-database.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const SMS_PRICE = 3; // pesewas: one GSM-7 segment to a Ghanaian number (seeded pricing)

/** An SMS provider whose sends wait until the test opens the gate: a sync send sits inside the provider call meanwhile. */
class GatedProvider implements ChannelProvider {
  readonly name = 'gated-sms';
  readonly channel = 'SMS' as const;
  readonly entered: OutboundMessage[] = [];
  #open!: () => void;
  readonly #gate = new Promise<void>((resolve) => { this.#open = resolve; });
  #onEnter: (() => void) | null = null;
  open(): void { this.#open(); }
  /** Resolves once a send is inside the provider call. */
  waitForEntry(): Promise<void> { return this.entered.length > 0 ? Promise.resolve() : new Promise((resolve) => { this.#onEnter = resolve; }); }
  async send(message: OutboundMessage): Promise<ProviderResult> {
    this.entered.push(message);
    this.#onEnter?.();
    await this.#gate;
    return { accepted: true, providerMessageId: `gated_${message.internalMessageId}`, delivered: false };
  }
}

const recipient = (i: number) => `+23324${String(5_000_000 + i).padStart(7, '0')}`;

/**
 * The money guarantees of issue 15 under 200 concurrent requests, on PostgreSQL and on the embedded
 * default: a balance never goes negative, every charge is in the ledger exactly once, a retried key
 * answers the first answer and never charges twice, a refused send is charged nothing, and a sync send
 * holds no lock or transaction across the provider call. Requests go to two API instances on one
 * database (each with its own group-commit lanes, as separate processes have).
 */
for (const kind of await availableDatabaseKinds()) {
  describe(`HTTP: money and idempotency under 200 concurrent requests (${kind})`, function () {
    this.timeout(120_000);
    let app: TestApp;
    /** A second API instance on the same database: its own group-commit lanes, as a second process has. */
    let other: TestApp;
    let storage: Storage;
    const sms = new RecordingProvider('SMS', 'recording-sms');

    before(async () => {
      app = await startTestApp({ providers: new StaticProviderDirectory([sms], []), database: kind });
      other = await startTestApp({ providers: new StaticProviderDirectory([sms], []), database: kind });
      storage = app.container.get(INFRA.storage);
    });
    after(async () => { await app?.close(); await other?.close(); });
    /**
     * Requests alternate between the two API instances. 200 requests at once queue behind one another
     * (on PGlite, one connection): the last answers after several seconds on a busy CI host, so these
     * clients wait 30 s. Correctness is what is measured here, not latency (bench:send does that).
     */
    const clients = new Map<TestApp, ApiClient>();
    const via = (i: number) => { const target = i % 2 === 0 ? app : other; if (!clients.has(target)) clients.set(target, new ApiClient(target.url, 30_000)); return clients.get(target)!; };

    async function liveTenant(label: string, pesewas: number): Promise<{ tenant: TestTenant; apiKey: string }> {
      const tenant = await registerTenant(app.api, label);
      if (pesewas > 0) {
        await storage.wallets.update(tenant.organizationId, () => ({ amount: pesewas, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'test top-up' }), new Date());
      }
      const key = await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth);
      expect(key.status, key.text).to.equal(201);
      return { tenant, apiKey: key.body.data.key as string };
    }

    /** Balance = the ledger's sum, debits = the costs of the organization's messages, never below zero. */
    async function expectMoneyAddsUp(organizationId: string, toppedUp: number) {
      const entries = await storage.wallets.listEntries(organizationId, 1_000);
      const balance = (await storage.wallets.get(organizationId))!.balance;
      const messages = await storage.messages.list(organizationId, {}, 0, 1_000);
      const charged = messages.items.reduce((sum, m) => sum + m.cost, 0);
      const debited = -entries.filter((e) => e.kind === 'DEBIT').reduce((sum, e) => sum + e.amount, 0);
      expect(entries.every((e) => e.balanceAfter >= 0), 'no entry leaves the balance negative').to.equal(true);
      expect(balance).to.equal(entries.reduce((sum, e) => sum + e.amount, 0));
      expect(debited).to.equal(charged);
      expect(balance).to.equal(toppedUp - charged);
      return { balance, messages: messages.items, charged };
    }

    it('charges exactly the 120 of 200 concurrent live keyed sends (API key and dashboard, sync and async) a balance covers: balance 0, 80 clear 402s, no 500', async () => {
      const { tenant, apiKey } = await liveTenant('cover-120', 120 * SMS_PRICE);
      const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => via(i >> 1).post('/messages/send',
        { channel: 'SMS', to: recipient(i), body: 'Flash sale today', async: i % 2 === 0, idempotencyKey: `k-${i}` },
        i % 4 === 3 ? tenant.auth : { apiKey })));
      expect(responses.filter((r) => r.status >= 500).map((r) => r.text)).to.deep.equal([]);
      const accepted = responses.filter((r) => r.status === 201 || r.status === 202);
      const refused = responses.filter((r) => r.status === 402);
      expect(accepted).to.have.length(120);
      expect(refused).to.have.length(80);
      for (const r of refused) expect(r.body.error.code).to.equal('INSUFFICIENT_BALANCE');
      const { balance, messages } = await expectMoneyAddsUp(tenant.organizationId, 120 * SMS_PRICE);
      expect(balance).to.equal(0);
      expect(new Set(messages.map((m) => m.id))).to.deep.equal(new Set(accepted.map((r) => r.body.data.id)));
    });

    it('keeps tenants apart in a shared batch: 200 concurrent sends of a funded and an underfunded tenant, only the underfunded one refused', async () => {
      const funded = await liveTenant('funded', 100 * SMS_PRICE);
      const short = await liveTenant('short', 30 * SMS_PRICE);
      const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => {
        const t = i % 2 === 0 ? funded : short;
        return via(i >> 2).post('/messages/send', { channel: 'SMS', to: recipient(400 + i), body: 'Shared batch', async: i % 3 !== 0, idempotencyKey: `mix-${i}` }, { apiKey: t.apiKey });
      }));
      expect(responses.filter((r) => r.status >= 500).map((r) => r.text)).to.deep.equal([]);
      const even = responses.filter((_, i) => i % 2 === 0);
      const odd = responses.filter((_, i) => i % 2 === 1);
      expect(even.every((r) => r.status === 201 || r.status === 202), JSON.stringify(even.find((r) => r.status >= 300)?.body)).to.equal(true);
      expect(odd.filter((r) => r.status === 201 || r.status === 202)).to.have.length(30);
      expect(odd.filter((r) => r.status === 402)).to.have.length(70);
      expect((await expectMoneyAddsUp(funded.tenant.organizationId, 100 * SMS_PRICE)).balance).to.equal(0);
      expect((await expectMoneyAddsUp(short.tenant.organizationId, 30 * SMS_PRICE)).balance).to.equal(0);
    });

    it('answers 200 concurrent requests over 20 keys (10 retries each) with 20 messages charged once, every retry the first answer', async () => {
      const { tenant, apiKey } = await liveTenant('retries', 10_000);
      const body = (k: number) => ({ channel: 'SMS', to: recipient(100 + k), body: `Your code is ${1000 + k}`, async: k % 2 === 0, idempotencyKey: `otp-${k}` });
      const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => via(Math.floor(i / 20)).post('/messages/send', body(i % 20), i % 3 === 0 ? tenant.auth : { apiKey })));
      expect(responses.filter((r) => r.status >= 300).map((r) => r.text)).to.deep.equal([]);
      for (let k = 0; k < 20; k += 1) {
        const answers = responses.filter((_, i) => i % 20 === k);
        expect(new Set(answers.map((r) => r.body.data.id)).size, `key otp-${k}`).to.equal(1);
        expect(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true')).to.have.length(9);
      }
      const { messages, charged } = await expectMoneyAddsUp(tenant.organizationId, 10_000);
      expect(messages).to.have.length(20);
      expect(charged).to.equal(20 * SMS_PRICE);
    });

    it('refuses a key reused with another body (422 IDEMPOTENCY_KEY_REUSED) and charges refused and rejected sends nothing', async () => {
      const { tenant, apiKey } = await liveTenant('refusals', 10_000);
      const suppressed = recipient(999);
      expect((await app.api.post('/compliance/suppression', { channel: 'SMS', phone: suppressed, reason: 'asked' }, tenant.auth)).status).to.be.oneOf([200, 201]);
      const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => via(i >> 2).post('/messages/send', i < 100
        ? { channel: 'SMS', to: recipient(200 + (i % 2)), body: `variant ${i % 2}`, async: true, idempotencyKey: 'shared-key' }
        : { channel: 'SMS', to: i % 2 === 0 ? suppressed : recipient(300 + i), body: 'Hello', async: true, idempotencyKey: `own-${i}` }, { apiKey })));
      expect(responses.filter((r) => r.status >= 500)).to.have.length(0);
      const shared = responses.slice(0, 100);
      const winner = shared.find((r) => r.status === 202 && r.headers.get('idempotent-replayed') !== 'true')!;
      const sameBody = shared.filter((r) => r.status === 202);
      const reused = shared.filter((r) => r.status === 422);
      expect(sameBody.length + reused.length).to.equal(100);
      expect(new Set(sameBody.map((r) => r.body.data.id))).to.deep.equal(new Set([winner.body.data.id]));
      for (const r of reused) expect(r.body.error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
      const rejected = responses.slice(100).filter((r) => r.body.data?.status === 'REJECTED');
      expect(rejected).to.have.length(50);
      for (const r of rejected) expect(r.body.data).to.include({ cost: 0, errorCode: 'RECIPIENT_SUPPRESSED' });
      const { messages, charged } = await expectMoneyAddsUp(tenant.organizationId, 10_000);
      expect(messages).to.have.length(101);
      expect(charged).to.equal(51 * SMS_PRICE);
    });
  });
}

for (const kind of await availableDatabaseKinds()) {
  describe(`HTTP: a sync live send holds no lock or transaction across the provider call (${kind})`, function () {
    this.timeout(60_000);
    const gated = new GatedProvider();
    let app: TestApp;
    before(async () => { app = await startTestApp({ providers: new StaticProviderDirectory([gated], []), database: kind }); });
    after(async () => { gated.open(); await app?.close(); });

    it('debits, sends and tops up the same wallet while a sync send of it waits on its provider', async () => {
      const tenant = await registerTenant(app.api, 'gated');
      const storage = app.container.get(INFRA.storage);
      await storage.wallets.update(tenant.organizationId, () => ({ amount: 1_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'test top-up' }), new Date());
      const key = (await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth)).body.data.key as string;
      const slow = app.api.post('/messages/send', { channel: 'SMS', to: recipient(1), body: 'Slow vendor', idempotencyKey: 'slow' }, { apiKey: key });
      await gated.waitForEntry();
      // The sync send is inside the provider call now: the same organization's wallet must be free.
      const queued = await app.api.post('/messages/send', { channel: 'SMS', to: recipient(2), body: 'Meanwhile', async: true, idempotencyKey: 'meanwhile' }, { apiKey: key });
      expect(queued.status, queued.text).to.equal(202);
      await storage.wallets.update(tenant.organizationId, () => ({ amount: 500, kind: 'TOP_UP', reference: `more-${randomUUID()}`, description: 'second top-up' }), new Date());
      expect((await storage.wallets.get(tenant.organizationId))!.balance).to.equal(1_000 + 500 - 2 * SMS_PRICE);
      gated.open();
      const answer = await slow;
      expect(answer.status, answer.text).to.equal(201);
      expect(answer.body.data).to.include({ status: 'SENT', cost: SMS_PRICE / 100 });
    });
  });
}
