import { expect } from 'chai';
import type { Storage } from '../../core/ports/storage.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startFakePaystack, type FakePaystack } from '../support/fake-vendors/paystack.ts';
import { LedgerWatch } from '../support/ledger-invariant.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant } from '../support/tenants.ts';

describe('HTTP: billing through Paystack (local fake Paystack)', () => {
  let app: TestApp;
  let fake: FakePaystack;
  let storage: Storage;
  const ledger = new LedgerWatch(() => storage);

  before(async () => {
    fake = await startFakePaystack();
    app = await startTestApp({ config: { paymentGateway: 'paystack', paystackSecretKey: fake.secretKey, paystackBaseUrl: fake.url, paymentCallbackUrl: 'https://dashboard.example/billing/return' } });
    storage = app.container.get(INFRA.storage);
  });
  after(async () => { await app?.close(); await fake?.close(); });
  afterEach(async () => { await ledger.check(); });

  const paystackWebhook = (body: Buffer, signature: string) => fetch(`${app.url}/billing/webhooks/gateway`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'x-paystack-signature': signature }, body, signal: AbortSignal.timeout(5_000),
  });

  it('opens a Paystack checkout for the organization and credits on charge.success signed as Paystack signs it', async () => {
    const t = ledger.watch(await registerTenant(app.api, 'paystack'));
    const options = await app.api.get('/billing/top-up-options', t.auth);
    expect(options.body.data).to.include({ gateway: 'paystack', available: true });
    const started = await app.api.post('/billing/top-up', { amount: 100, paymentMethod: 'mobile_money' }, t.auth);
    expect(started.status, started.text).to.equal(200);
    const { reference, checkoutUrl } = started.body.data;
    expect(checkoutUrl).to.match(new RegExp(`^${fake.url}/checkout/`));
    expect(fake.transactions.get(reference)).to.deep.include({ amount: 10_000, currency: 'GHS', email: t.email, callbackUrl: 'https://dashboard.example/billing/return' });

    fake.settle(reference, 'success');
    const event = fake.webhook(reference);
    const response = await paystackWebhook(event.rawBody, event.signature);
    expect(response.status).to.equal(200);
    expect(((await response.json()) as { data: { outcome: string } }).data.outcome).to.equal('credited');
    const verify = await app.api.post('/billing/verify-payment', { reference }, t.auth);
    expect(verify.body.data).to.include({ status: 'already_processed', balance: 100 });
    expect((await app.api.get('/billing/wallet', t.auth)).body.data.balance).to.equal(100);
  });

  it('records a payment Paystack confirms for a smaller amount as MISMATCH: verify answers 400 and nothing is credited', async () => {
    const t = ledger.watch(await registerTenant(app.api, 'mismatch'));
    const { reference } = (await app.api.post('/billing/top-up', { amount: 500 }, t.auth)).body.data;
    fake.settle(reference, 'success', { amount: 50_00 });
    const verify = await app.api.post('/billing/verify-payment', { reference }, t.auth);
    expect(verify.status).to.equal(400);
    expect(verify.body.error.code).to.equal('PAYMENT_FAILED');
    expect(await storage.payments.findByReference(reference)).to.include({ status: 'MISMATCH', confirmedAmount: 5_000 });
    expect((await app.api.get('/billing/wallet', t.auth)).body.data.balance).to.equal(0);
  });

  it('answers 503 PROVIDER_UNAVAILABLE when Paystack is down, leaving the payment FAILED and the wallet untouched', async () => {
    const t = ledger.watch(await registerTenant(app.api, 'down'));
    fake.script({ kind: 'error', status: 503 });
    const response = await app.api.post('/billing/top-up', { amount: 25 }, t.auth);
    expect(response.status).to.equal(503);
    expect(response.body.error.code).to.equal('PROVIDER_UNAVAILABLE');
    expect(response.text).to.not.include(fake.secretKey);
    const [payment] = await storage.payments.listByOrganization(t.organizationId, 1);
    expect(payment).to.include({ status: 'FAILED', gatewayStatus: 'initialize_failed' });
  });

  it('has no sandbox checkout when Paystack is the gateway', async () => {
    expect((await fetch(`${app.url}/billing/sandbox-checkout/nkra-x`)).status).to.equal(404);
  });
});
