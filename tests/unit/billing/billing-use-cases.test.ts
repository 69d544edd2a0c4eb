import { expect } from 'chai';
import { SandboxPaymentGateway } from '../../../adapters/payments/sandbox-gateway.ts';
import { AppError } from '../../../core/errors.ts';
import { newOrganization } from '../../../core/domain/organization.ts';
import { DEFAULT_TOP_UP_LIMITS } from '../../../core/domain/payment.ts';
import type { CheckoutRequest, PaymentGateway } from '../../../core/ports/payment-gateway.ts';
import { GenerateMonthlyStatements } from '../../../core/use-cases/billing/generate-monthly-statements.ts';
import { HandleGatewayWebhook } from '../../../core/use-cases/billing/handle-gateway-webhook.ts';
import { TopUpWallet, type TopUpScope } from '../../../core/use-cases/billing/top-up-wallet.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';
import { expectWalletMatchesLedger } from '../../support/ledger-invariant.ts';

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try { await promise; } catch (error) { if (error instanceof AppError) return error; throw error; }
  throw new Error('expected an AppError');
}

describe('billing use cases (in-memory adapters)', () => {
  let core: TestCore;
  let scope: TopUpScope;

  beforeEach(async () => {
    core = buildCore();
    const now = core.clock.now();
    await core.storage.users.insert({ id: 'user-1', email: 'owner@example.com', passwordHash: 'x', firstName: 'Ama', lastName: 'Mensah', platformRole: null, createdAt: now });
    await core.storage.organizations.insert(newOrganization('org-1', 'Kente Ltd', now));
    await core.storage.memberships.insert({ id: 'm-1', organizationId: 'org-1', userId: 'user-1', role: 'TENANT_OWNER', createdAt: now });
    await core.storage.wallets.create('org-1', now);
    scope = { organizationId: 'org-1', userId: 'user-1', platformRole: null, impersonatorId: null };
  });
  afterEach(async () => { await expectWalletMatchesLedger(core.storage, 'org-1'); });

  const topUpWith = (gateway: PaymentGateway | null) => new TopUpWallet({
    storage: core.storage, ids: core.ids, clock: core.clock, gateway, limits: DEFAULT_TOP_UP_LIMITS, callbackUrl: 'https://app.example/return',
  });

  it('sends the organization\'s business email to the gateway when it has one, else the member\'s', async () => {
    const seen: CheckoutRequest[] = [];
    const gateway: PaymentGateway = {
      name: 'recording', async initialize(request) { seen.push(request); return { checkoutUrl: 'https://pay.example/x' }; },
      async verify() { throw new Error('unused'); }, parseWebhook() { throw new Error('unused'); },
    };
    await topUpWith(gateway).execute(scope, { amount: 25 });
    await core.storage.organizations.update('org-1', { businessEmail: 'billing@kente.example' }, core.clock.now());
    await topUpWith(gateway).execute(scope, { amount: 25.5 });
    expect(seen.map((r) => [r.email, r.amount, r.currency, r.callbackUrl])).to.deep.equal([
      ['owner@example.com', 2_500, 'GHS', 'https://app.example/return'], ['billing@kente.example', 2_550, 'GHS', 'https://app.example/return'],
    ]);
    expect(seen[0]!.reference).to.match(/^nkra-[0-9a-z]+$/);
  });

  it('answers SERVICE_UNAVAILABLE without a gateway, and refuses webhooks it cannot verify', async () => {
    expect((await rejection(topUpWith(null).execute(scope, { amount: 25 }))).code).to.equal('SERVICE_UNAVAILABLE');
    const webhook = new HandleGatewayWebhook({ storage: core.storage, clock: core.clock, gateway: null });
    expect((await rejection(webhook.execute(Buffer.from('{}'), 'a'.repeat(128)))).code).to.equal('INVALID_SIGNATURE');
  });

  it('marks the payment FAILED when the gateway cannot open the checkout', async () => {
    const down: PaymentGateway = {
      name: 'down', async initialize() { throw new AppError('PROVIDER_UNAVAILABLE', 'down', {}, { retryable: true }); },
      async verify() { throw new Error('unused'); }, parseWebhook() { throw new Error('unused'); },
    };
    expect((await rejection(topUpWith(down).execute(scope, { amount: 30 }))).code).to.equal('PROVIDER_UNAVAILABLE');
    const [payment] = await core.storage.payments.listByOrganization('org-1', 5);
    expect(payment).to.include({ status: 'FAILED', gatewayStatus: 'initialize_failed', amount: 3_000 });
  });

  it('refuses a reference with gateway methods, and invoice credits from anyone but a platform administrator', async () => {
    const sandbox = new SandboxPaymentGateway({ checkoutBaseUrl: 'http://localhost:3000' });
    expect((await rejection(topUpWith(sandbox).execute(scope, { amount: 25, reference: 'X-1' }))).code).to.equal('VALIDATION_ERROR');
    expect((await rejection(topUpWith(sandbox).execute(scope, { amount: 25, paymentMethod: 'invoice' }))).code).to.equal('FORBIDDEN');
    const admin = { ...scope, platformRole: 'PLATFORM_SUPER_ADMIN' as const };
    expect((await rejection(topUpWith(sandbox).execute(admin, { amount: 0, paymentMethod: 'invoice' }))).code).to.equal('INVALID_AMOUNT');
    expect((await rejection(topUpWith(sandbox).execute(admin, { amount: 1_000_000.01, paymentMethod: 'invoice' }))).code).to.equal('INVALID_AMOUNT');
    expect(await topUpWith(sandbox).execute(admin, { amount: 10, paymentMethod: 'invoice', reference: 'INV-7' })).to.include({ status: 'credited', balance: 10 });
  });

  it('generates last month\'s statement from the ledger and the messages, idempotently', async () => {
    const may = new Date('2026-05-20T10:00:00.000Z');
    const update = (amount: number, kind: 'TOP_UP' | 'DEBIT' | 'REFUND', reference: string, at: Date) =>
      core.storage.wallets.update('org-1', () => ({ amount, kind, reference, description: kind }), at);
    await update(1_000, 'TOP_UP', 'april', new Date('2026-04-30T23:59:59.999Z'));
    await update(5_000, 'TOP_UP', 'may-1', may);
    await update(-300, 'DEBIT', 'batch-1', may);
    await update(6, 'REFUND', 'msg-1', may);
    await update(-50, 'DEBIT', 'june', new Date('2026-06-01T00:00:00.000Z'));
    core.clock.set(new Date('2026-06-01T00:15:00.000Z'));
    const generate = new GenerateMonthlyStatements({ storage: core.storage, ids: core.ids, clock: core.clock });
    const progress: unknown[] = [];
    expect(await generate.execute(undefined, (p) => progress.push(p))).to.deep.equal({ period: '2026-05', created: 1, existing: 0 });
    expect(progress).to.have.length(1);
    expect(await generate.execute()).to.deep.equal({ period: '2026-05', created: 0, existing: 1 });
    expect(await core.storage.invoices.findByPeriod('org-1', '2026-05')).to.deep.include({
      openingBalance: 1_000, topUps: 5_000, debits: -300, refunds: 6, adjustments: 0, closingBalance: 5_706,
    });
    expect((await rejection(generate.execute('2026-5'))).code).to.equal('VALIDATION_ERROR');
  });
});
