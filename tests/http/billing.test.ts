import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import type { SandboxPaymentGateway } from '../../adapters/payments/sandbox-gateway.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { BILLING } from '../../hosts/api/modules/billing-module.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { LedgerWatch } from '../support/ledger-invariant.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';

describe('HTTP: billing (sandbox gateway)', () => {
  let app: TestApp;
  let storage: Storage;
  let sandbox: SandboxPaymentGateway;
  const ledger = new LedgerWatch(() => storage);

  before(async () => {
    app = await startTestApp();
    storage = app.container.get(INFRA.storage);
    sandbox = app.container.get(BILLING.gateway) as SandboxPaymentGateway;
  });
  after(async () => { await app?.close(); });
  afterEach(async () => { await ledger.check(); });

  const tenant = async (label = 'billing') => ledger.watch(await registerTenant(app.api, label));
  const balance = async (t: TestTenant) => (await app.api.get('/billing/wallet', t.auth)).body.data.balance as number;
  const topUp = (t: TestTenant, body: unknown) => app.api.post('/billing/top-up', body, t.auth);
  const pay = (reference: string, outcome: 'success' | 'failed') => fetch(`${app.url}/billing/sandbox-checkout/${reference}`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `outcome=${outcome}`, signal: AbortSignal.timeout(5_000),
  });
  const webhook = (body: Buffer | string, signature?: string) => fetch(`${app.url}/billing/webhooks/gateway`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'x-gateway-signature': signature }) },
    body, signal: AbortSignal.timeout(5_000),
  });

  it('answers GET /billing/top-up-options in the exact spec shape', async () => {
    const t = await tenant();
    const response = await app.api.get('/billing/top-up-options', t.auth);
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      success: true,
      data: { currency: 'GHS', minAmount: 25, maxAmount: 50000, presets: [25, 50, 100, 250, 500, 1000], gateway: 'sandbox', available: true },
    });
  });

  it('shows a new wallet at GHS 0', async () => {
    const t = await tenant();
    const response = await app.api.get('/billing/wallet', t.auth);
    expect(response.status).to.equal(200);
    expect(response.body.data).to.include({ balance: 0, currency: 'GHS', lowBalanceThreshold: 10 });
  });

  describe('top-up limits', () => {
    for (const [amount, status] of [[24.99, 400], [25, 200], [50000, 200], [50000.01, 400]] as const) {
      it(`answers ${status} for a gateway top-up of GHS ${amount}`, async () => {
        const t = await tenant();
        const response = await topUp(t, { amount, paymentMethod: 'mobile_money' });
        expect(response.status, response.text).to.equal(status);
        if (status === 400) {
          expect(response.body.error.code).to.equal('INVALID_AMOUNT');
          expect(await storage.payments.listByOrganization(t.organizationId, 10)).to.deep.equal([]);
        } else {
          expect(response.body.data).to.include({ status: 'pending', amount, currency: 'GHS', paymentMethod: 'mobile_money', gateway: 'sandbox' });
          expect(response.body.data.checkoutUrl).to.match(/\/billing\/sandbox-checkout\/nkra-[0-9a-f]+$/);
          const payment = await storage.payments.findByReference(response.body.data.reference);
          expect(payment).to.include({ status: 'PENDING', amount: Math.round(amount * 100), method: 'mobile_money', organizationId: t.organizationId });
        }
        expect(await balance(t)).to.equal(0);
      });
    }

    it('refuses amounts with more than two decimals with INVALID_AMOUNT, and a string amount with VALIDATION_ERROR', async () => {
      const t = await tenant();
      expect((await topUp(t, { amount: 25.001 })).body.error.code).to.equal('INVALID_AMOUNT');
      const text = await topUp(t, { amount: '25' });
      expect(text.status).to.equal(400);
      expect(text.body.error.code).to.equal('VALIDATION_ERROR');
      expect((await topUp(t, {})).body.error.details.fieldErrors.amount).to.deep.equal(['is required']);
    });
  });

  it('credits the wallet once when the person pays on the sandbox checkout; verify then answers already processed', async () => {
    const t = await tenant();
    const started = await topUp(t, { amount: 100 });
    expect(started.status).to.equal(200);
    const { reference, checkoutUrl } = started.body.data;
    const page = await fetch(`${app.url}${new URL(checkoutUrl).pathname}`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/text\/html/);
    expect(await page.text()).to.include('GHS 100.00');
    const paid = await pay(reference, 'success');
    expect(paid.status).to.equal(200);
    expect(await paid.text()).to.include('Payment successful');
    expect(await balance(t)).to.equal(100);
    const verify = await app.api.post('/billing/verify-payment', { reference }, t.auth);
    expect(verify.status).to.equal(200);
    expect(verify.body.data).to.include({ status: 'already_processed', reference, amount: 100, balance: 100 });
    expect((await pay(reference, 'success')).status).to.equal(200); // a second click changes nothing
    expect(await balance(t)).to.equal(100);
    expect(await storage.wallets.findEntry(t.organizationId, 'TOP_UP', reference)).to.include({ amount: 10_000 });
  });

  it('credits through verify-payment when the webhook never arrived', async () => {
    const t = await tenant();
    const { reference } = (await topUp(t, { amount: 25, paymentMethod: 'card' })).body.data;
    sandbox.complete(reference, 'success', new Date()); // paid, but the webhook is lost
    const verify = await app.api.post('/billing/verify-payment', { reference }, t.auth);
    expect(verify.status).to.equal(200);
    expect(verify.body.data).to.include({ status: 'credited', balance: 25 });
    expect((await app.api.post('/billing/verify-payment', { reference }, t.auth)).body.data.status).to.equal('already_processed');
    expect(await balance(t)).to.equal(25);
  });

  it('answers 400 PAYMENT_FAILED when verifying a failed payment, and credits nothing', async () => {
    const t = await tenant();
    const { reference } = (await topUp(t, { amount: 50 })).body.data;
    expect((await pay(reference, 'failed')).status).to.equal(200);
    const verify = await app.api.post('/billing/verify-payment', { reference }, t.auth);
    expect(verify.status).to.equal(400);
    expect(verify.body.error.code).to.equal('PAYMENT_FAILED');
    expect(await balance(t)).to.equal(0);
    expect((await storage.payments.findByReference(reference))?.status).to.equal('FAILED');
  });

  it('answers 409 PAYMENT_PENDING while the checkout is open, 400 without a reference, 404 for an unknown or foreign one', async () => {
    const t = await tenant();
    const other = await tenant('other');
    const { reference } = (await topUp(t, { amount: 25 })).body.data;
    const pending = await app.api.post('/billing/verify-payment', { reference }, t.auth);
    expect(pending.status).to.equal(409);
    expect(pending.body.error.code).to.equal('PAYMENT_PENDING');
    const missing = await app.api.post('/billing/verify-payment', {}, t.auth);
    expect(missing.status).to.equal(400);
    expect(missing.body.error.details.fieldErrors.reference).to.deep.equal(['is required']);
    expect((await app.api.post('/billing/verify-payment', { reference: 'nkra-unknown' }, t.auth)).status).to.equal(404);
    expect((await app.api.post('/billing/verify-payment', { reference }, other.auth)).status).to.equal(404);
  });

  describe('webhook signatures', () => {
    it('credits on a correctly signed charge.success and refuses forged, truncated, re-serialized, empty and missing signatures with 401', async () => {
      const t = await tenant();
      const { reference } = (await topUp(t, { amount: 250 })).body.data;
      const event = sandbox.complete(reference, 'success', new Date())!;
      const forged = createHmac('sha512', 'not-the-secret').update(event.rawBody).digest('hex');
      const reserialized = Buffer.from(JSON.stringify(JSON.parse(event.rawBody.toString()), null, 2));
      const attempts: Array<[Buffer, string | undefined]> = [
        [event.rawBody, forged],
        [event.rawBody, event.signature.slice(0, 64)],
        [event.rawBody, `${event.signature.slice(0, -1)}${event.signature.endsWith('0') ? '1' : '0'}`],
        [reserialized, event.signature],
        [event.rawBody.subarray(0, event.rawBody.length - 1), event.signature],
        [event.rawBody, ''],
        [event.rawBody, undefined],
      ];
      for (const [body, signature] of attempts) {
        const response = await webhook(body, signature);
        expect(response.status).to.equal(401);
        expect(((await response.json()) as { error: { code: string } }).error.code).to.equal('INVALID_SIGNATURE');
      }
      expect(await balance(t)).to.equal(0);
      const good = await webhook(event.rawBody, event.signature);
      expect(good.status).to.equal(200);
      expect(((await good.json()) as { data: unknown }).data).to.deep.equal({ received: true, event: 'charge.success', outcome: 'credited' });
      expect(await balance(t)).to.equal(250);
      const again = await webhook(event.rawBody, event.signature);
      expect(((await again.json()) as { data: { outcome: string } }).data.outcome).to.equal('already_processed');
      expect(await balance(t)).to.equal(250);
    });

    it('acknowledges and ignores signed events of other kinds and unknown references', async () => {
      const t = await tenant();
      const { reference } = (await topUp(t, { amount: 25 })).body.data;
      const tx = sandbox.transaction(reference)!;
      const transfer = sandbox.signedEvent('transfer.success', { ...tx, status: 'success' });
      expect(((await (await webhook(transfer.rawBody, transfer.signature)).json()) as { data: { outcome: string } }).data.outcome).to.equal('ignored');
      const unknown = sandbox.signedEvent('charge.success', { ...tx, reference: 'nkra-nobody', status: 'success' });
      expect(((await (await webhook(unknown.rawBody, unknown.signature)).json()) as { data: { outcome: string } }).data.outcome).to.equal('ignored');
      expect(await balance(t)).to.equal(0);
    });

    it('records a success for another amount as MISMATCH and credits nothing', async () => {
      const t = await tenant();
      const { reference } = (await topUp(t, { amount: 25 })).body.data;
      const tx = sandbox.transaction(reference)!;
      const cheaper = sandbox.signedEvent('charge.success', { ...tx, amount: 100, status: 'success' });
      expect(((await (await webhook(cheaper.rawBody, cheaper.signature)).json()) as { data: { outcome: string } }).data.outcome).to.equal('mismatch');
      const otherCurrency = sandbox.signedEvent('charge.success', { ...tx, currency: 'NGN', status: 'success' });
      expect(((await (await webhook(otherCurrency.rawBody, otherCurrency.signature)).json()) as { data: { outcome: string } }).data.outcome).to.equal('already_processed');
      expect(await storage.payments.findByReference(reference)).to.include({ status: 'MISMATCH', confirmedAmount: 100, confirmedCurrency: 'GHS' });
      expect((await app.api.post('/billing/verify-payment', { reference }, t.auth)).body.error.code).to.equal('PAYMENT_FAILED');
      expect(await balance(t)).to.equal(0);
    });
  });

  describe('invoice credits', () => {
    it('refuses paymentMethod invoice to a tenant owner with 403', async () => {
      const t = await tenant();
      const response = await topUp(t, { amount: 500, paymentMethod: 'invoice', reference: 'INV-2026-001' });
      expect(response.status).to.equal(403);
      expect(response.body.error.code).to.equal('FORBIDDEN');
      expect(await balance(t)).to.equal(0);
      expect(await storage.payments.findByReference('INV-2026-001')).to.equal(null);
    });

    it('credits at once for a platform administrator, audits it, and refuses a reused reference with 409', async () => {
      const t = await tenant();
      const admin = await registerUser(app.api, 'admin');
      await storage.users.setPlatformRole(admin.userId, 'PLATFORM_SUPER_ADMIN');
      expect((await app.api.post('/organizations/invite', { email: admin.email, role: 'TENANT_ADMIN' }, t.auth)).status).to.equal(201);
      const adminAuth = { token: admin.token, organizationId: t.organizationId };
      const reference = `INV-${Date.now()}`;
      const response = await topUp({ ...t, auth: adminAuth }, { amount: 75000, paymentMethod: 'invoice', reference });
      expect(response.status, response.text).to.equal(200);
      expect(response.body.data).to.deep.equal({ status: 'credited', reference, amount: 75000, currency: 'GHS', paymentMethod: 'invoice', balance: 75000 });
      expect(await balance(t)).to.equal(75000);
      const audit = await storage.auditLog.list({ limit: 10, organizationId: t.organizationId });
      expect(audit[0]).to.deep.include({ actorUserId: admin.userId, action: 'wallet.manual_credit', details: { reference, amount: 75000, currency: 'GHS' } });
      const again = await topUp({ ...t, auth: adminAuth }, { amount: 10, paymentMethod: 'invoice', reference });
      expect(again.status).to.equal(409);
      expect(await balance(t)).to.equal(75000);
      const generated = await topUp({ ...t, auth: adminAuth }, { amount: 0.5, paymentMethod: 'invoice' });
      expect(generated.body.data.reference).to.match(/^inv-[0-9a-f]+$/);
      expect(await balance(t)).to.equal(75000.5);
    });
  });

  it('accepts an invoice credit from an administrator\'s impersonation session and audits the administrator behind it', async () => {
    const t = await tenant();
    const admin = await registerUser(app.api, 'admin');
    await storage.users.setPlatformRole(admin.userId, 'PLATFORM_SUPER_ADMIN');
    const sessions = app.container.get(INFRA.sessions);
    const { token } = await sessions.issue({ userId: admin.userId, impersonatorId: admin.userId, organizationId: t.organizationId }, 600);
    const response = await topUp({ ...t, auth: { token, organizationId: t.organizationId } }, { amount: 40, paymentMethod: 'invoice' });
    expect(response.status, response.text).to.equal(200);
    // The impersonation audit (docs/admin.md) also records the request itself, after the credit.
    const entries = await storage.auditLog.list({ limit: 10, organizationId: t.organizationId });
    const entry = entries.find((e) => e.action === 'wallet.manual_credit');
    expect(entry).to.deep.include({ actorUserId: admin.userId, impersonatorUserId: admin.userId, action: 'wallet.manual_credit' });
    expect(entries.map((e) => e.action)).to.include('impersonation.request');
    // An impersonation token whose impersonator is not a platform administrator is no session at all.
    const owner = await sessions.issue({ userId: t.userId, impersonatorId: t.userId, organizationId: t.organizationId }, 600);
    expect((await topUp({ ...t, auth: { token: owner.token, organizationId: t.organizationId } }, { amount: 40, paymentMethod: 'invoice' })).status).to.equal(401);
    expect(await balance(t)).to.equal(40);
  });

  it('refuses a top-up to a VIEWER (billing:write) while letting it read the wallet', async () => {
    const t = await tenant();
    const viewer = await registerUser(app.api, 'viewer');
    await app.api.post('/organizations/invite', { email: viewer.email, role: 'VIEWER' }, t.auth);
    const auth = { token: viewer.token, organizationId: t.organizationId };
    expect((await app.api.post('/billing/top-up', { amount: 25 }, auth)).status).to.equal(403);
    expect((await app.api.get('/billing/wallet', auth)).status).to.equal(200);
  });

  it('lists active pricing rules in GHS and the pay-as-you-go plan', async () => {
    const t = await tenant();
    const response = await app.api.get('/billing/pricing', t.auth);
    expect(response.status).to.equal(200);
    expect(response.body.data.currency).to.equal('GHS');
    expect(response.body.data.rules).to.deep.include({ channel: 'SMS', country: 'GH', unit: 'segment', price: 0.03 });
    expect(response.body.data.plans[0]).to.include({ id: 'payg', monthlyFee: 0 });
  });
});
