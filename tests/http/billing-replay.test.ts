import { expect } from 'chai';
import type { SandboxPaymentGateway } from '../../adapters/payments/sandbox-gateway.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { BILLING } from '../../hosts/api/modules/billing-module.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { expectWalletMatchesLedger } from '../support/ledger-invariant.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant } from '../support/tenants.ts';

/** Runs `tasks` with at most `limit` in flight. */
async function pool<T>(tasks: ReadonlyArray<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  }));
  return results;
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

describe('HTTP: gateway webhook replay storm (exactly-once crediting)', function () {
  this.timeout(120_000);
  let app: TestApp;
  let storage: Storage;
  let sandbox: SandboxPaymentGateway;

  before(async () => {
    app = await startTestApp();
    storage = app.container.get(INFRA.storage);
    sandbox = app.container.get(BILLING.gateway) as SandboxPaymentGateway;
  });
  after(async () => { await app?.close(); });

  it('credits once for 1,000 shuffled deliveries of the same charge.success (100 concurrent) interleaved with verify calls', async () => {
    const tenant = await registerTenant(app.api, 'replay');
    const first = (await app.api.post('/billing/top-up', { amount: 100 }, tenant.auth)).body.data.reference as string;
    const second = (await app.api.post('/billing/top-up', { amount: 25, paymentMethod: 'mobile_money' }, tenant.auth)).body.data.reference as string;
    const events = [first, second].map((reference) => sandbox.complete(reference, 'success', new Date())!);

    type Call = { kind: 'webhook' | 'verify'; status: number; outcome: string };
    const deliver = (i: number) => async (): Promise<Call> => {
      const event = events[i % 10 === 0 ? 1 : 0]!;
      const response = await fetch(`${app.url}/billing/webhooks/gateway`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-gateway-signature': event.signature }, body: event.rawBody, signal: AbortSignal.timeout(60_000),
      });
      const body = (await response.json()) as { data?: { outcome: string } };
      return { kind: 'webhook', status: response.status, outcome: body.data?.outcome ?? 'error' };
    };
    const verify = (i: number) => async (): Promise<Call> => {
      const response = await fetch(`${app.url}/billing/verify-payment`, {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.token}`, 'x-organization-id': tenant.organizationId },
        body: JSON.stringify({ reference: i % 2 === 0 ? first : second }), signal: AbortSignal.timeout(60_000),
      });
      const body = (await response.json()) as { data?: { status: string } };
      return { kind: 'verify', status: response.status, outcome: body.data?.status ?? 'error' };
    };
    const tasks = shuffle([...Array.from({ length: 1_000 }, (_, i) => deliver(i)), ...Array.from({ length: 100 }, (_, i) => verify(i))]);

    const calls = await pool(tasks, 100);

    expect(calls.filter((c) => c.status !== 200), 'every delivery and verify answers 200').to.deep.equal([]);
    expect(calls.filter((c) => c.outcome === 'credited')).to.have.length(2); // one per payment, by webhook or verify
    expect(calls.every((c) => c.outcome === 'credited' || c.outcome === 'already_processed')).to.equal(true);
    const wallet = await storage.wallets.get(tenant.organizationId);
    expect(wallet?.balance).to.equal(12_500);
    const entries = await storage.wallets.listEntries(tenant.organizationId, 100);
    expect(entries.map((e) => [e.kind, e.reference, e.amount]).sort()).to.deep.equal([['TOP_UP', first, 10_000], ['TOP_UP', second, 2_500]].sort());
    for (const reference of [first, second]) expect((await storage.payments.findByReference(reference))?.status).to.equal('SUCCEEDED');
    await expectWalletMatchesLedger(storage, tenant.organizationId);
  });
});
