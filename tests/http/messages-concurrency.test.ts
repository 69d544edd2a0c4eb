import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { testDatabaseUrl } from '../support/test-database.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const SMS_PRICE = 3; // pesewas: one GSM-7 segment to a Ghanaian number (seeded pricing)

describe('HTTP: sends under concurrency', function () {
  this.timeout(60_000);
  let app: TestApp;
  const sms = new RecordingProvider('SMS', 'recording-sms');

  before(async () => {
    app = await startTestApp({ providers: new StaticProviderDirectory([sms], []) });
  });
  after(async () => { await app.close(); });

  async function liveTenant(label: string, pesewas: number): Promise<{ tenant: TestTenant; apiKey: string }> {
    const tenant = await registerTenant(app.api, label);
    if (pesewas > 0) {
      await app.container.get(INFRA.storage).wallets.update(tenant.organizationId,
        () => ({ amount: pesewas, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'test top-up' }), new Date());
    }
    const key = await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth);
    expect(key.status, key.text).to.equal(201);
    return { tenant, apiKey: key.body.data.key as string };
  }

  async function ledger(organizationId: string) {
    return (await app.container.get(INFRA.storage).wallets.listEntries(organizationId, 1_000)).filter((e) => e.kind !== 'TOP_UP');
  }

  it('replays 20 concurrent identical requests as one message and one debit, every response carrying its id', async () => {
    const { tenant, apiKey } = await liveTenant('idem-race', 1_000);
    const body = { channel: 'SMS', to: '+233243000001', body: 'Your OTP is 481516', idempotencyKey: `otp-${randomUUID()}` };
    const responses = await Promise.all(Array.from({ length: 20 }, () => app.api.post('/messages/send', body, { apiKey })));

    expect(responses.map((r) => r.status)).to.deep.equal(Array(20).fill(201));
    const ids = new Set(responses.map((r) => r.body.data.id));
    expect(ids.size).to.equal(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).to.have.length(19);

    const storage = app.container.get(INFRA.storage);
    const logs = await storage.messages.list(tenant.organizationId, {}, 0, 100);
    expect(logs.total).to.equal(1);
    expect(logs.items[0]).to.include({ id: [...ids][0], status: 'SENT', cost: SMS_PRICE });
    expect((await ledger(tenant.organizationId)).map((e) => [e.kind, e.amount])).to.deep.equal([['DEBIT', -SMS_PRICE]]);
    expect((await storage.wallets.get(tenant.organizationId))!.balance).to.equal(1_000 - SMS_PRICE);
    expect(sms.received.filter((m) => m.organizationId === tenant.organizationId)).to.have.length(1);
  });

  it('charges exactly 50 of 200 concurrent live sends against a balance covering 50: balance 0, 150 clear 402 refusals, no 500 (PostgreSQL)', async function () {
    if (!(await testDatabaseUrl())) this.skip();
    const { tenant, apiKey } = await liveTenant('balance-race', 50 * SMS_PRICE);
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => app.api.post('/messages/send',
      { channel: 'SMS', to: `+23324${String(4_000_000 + i).padStart(7, '0')}`, body: 'Flash sale', async: i % 2 === 0 }, { apiKey })));

    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500), JSON.stringify(responses.find((r) => r.status >= 500)?.body)).to.have.length(0);
    const accepted = responses.filter((r) => r.status === 201 || r.status === 202);
    const refused = responses.filter((r) => r.status === 402);
    expect(accepted).to.have.length(50);
    expect(refused).to.have.length(150);
    for (const r of refused) expect(r.body.error.code).to.equal('INSUFFICIENT_BALANCE');
    for (const r of accepted) expect(r.body.data.cost).to.equal(SMS_PRICE / 100);

    const storage = app.container.get(INFRA.storage);
    expect((await storage.wallets.get(tenant.organizationId))!.balance).to.equal(0);
    const entries = await ledger(tenant.organizationId);
    // Queued sends are group-committed (one ledger entry may cover several messages): the sum is what counts.
    expect(entries.every((e) => e.kind === 'DEBIT' && e.amount < 0 && e.amount % SMS_PRICE === 0 && e.balanceAfter >= 0)).to.equal(true);
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).to.equal(-50 * SMS_PRICE);
    expect(Math.min(...entries.map((e) => e.balanceAfter))).to.equal(0);
    const logs = await storage.messages.list(tenant.organizationId, {}, 0, 100);
    expect(logs.total).to.equal(50);
    expect(new Set(logs.items.map((m) => m.id))).to.deep.equal(new Set(accepted.map((r) => r.body.data.id)));
  });
});
