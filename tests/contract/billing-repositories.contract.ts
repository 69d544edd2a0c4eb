import { expect } from 'chai';
import type { Invoice } from '../../core/domain/invoice.ts';
import type { Message } from '../../core/domain/message.ts';
import type { GatewayConfirmation, Payment } from '../../core/domain/payment.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { FixedClock } from '../../adapters/memory/fixed-clock.ts';
import { settlePayment } from '../../core/use-cases/billing/settle-payment.ts';
import { expectWalletMatchesLedger } from '../support/ledger-invariant.ts';
import { at, debit, rejection, seedOrganization, seedWallet, T0, topUp, uniqueId } from './contract-fixtures.ts';

export function aPayment(organizationId: string, overrides: Partial<Payment> = {}): Payment {
  return {
    reference: uniqueId('nkra'), organizationId, amount: 2_500, currency: 'GHS', method: 'gateway', gateway: 'sandbox', status: 'PENDING',
    checkoutUrl: null, gatewayStatus: null, confirmedAmount: null, confirmedCurrency: null, createdByUserId: null,
    createdAt: T0, updatedAt: T0, creditedAt: null, ...overrides,
  };
}

function aMessage(organizationId: string, overrides: Partial<Message> = {}): Message {
  const id = uniqueId('msg');
  return {
    id, organizationId, internalMessageId: `msg_${id}`, channel: 'SMS', recipient: '+233241234567', country: 'GH', subject: null, body: 'hi',
    templateId: null, category: 'TRANSACTIONAL', scheduledAt: null, status: 'DELIVERED', errorCode: null, errorMessage: null, cost: 6, price: 6, segments: 2, encoding: 'GSM-7',
    isSandbox: false, apiKeyId: null, userId: null, senderId: null, provider: null, providerMessageId: null, attempts: 1, leaseUntil: null,
    createdAt: at(10), updatedAt: at(10), sentAt: null, deliveredAt: null, failedAt: null, ...overrides,
  };
}

function anInvoice(organizationId: string, period: string, overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: uniqueId('inv'), organizationId, period, periodStart: new Date(`${period}-01T00:00:00.000Z`), periodEnd: at(3600),
    openingBalance: 100, topUps: 5_000, debits: -1_200, refunds: 6, adjustments: 0, closingBalance: 3_906,
    usage: [{ channel: 'SMS', messages: 3, segments: 4, cost: 12 }], createdAt: at(1), ...overrides,
  };
}

const success = (reference: string, amount: number, currency = 'GHS'): GatewayConfirmation => ({ reference, outcome: 'success', gatewayStatus: 'success', amount, currency });

/** PaymentRepository, InvoiceRepository and BillingReportRepository contracts, and exactly-once settlement, on every Storage. */
export function describeBillingRepositoriesContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`Payment, Invoice and BillingReport repositories contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('stores a payment by its reference and refuses a second one with the same reference (CONFLICT)', async () => {
      const org = await seedOrganization(storage);
      const payment = aPayment(org.id);
      await storage.payments.insert(payment);
      expect(await storage.payments.findByReference(payment.reference)).to.deep.equal(payment);
      const other = await seedOrganization(storage);
      expect((await rejection(storage.payments.insert(aPayment(other.id, { reference: payment.reference })))).code).to.equal('CONFLICT');
      expect((await storage.payments.findByReference(payment.reference))?.organizationId).to.equal(org.id);
      expect(await storage.payments.findByReference(uniqueId('nope'))).to.equal(null);
    });

    it('records the checkout URL of a pending payment only, and settlements', async () => {
      const org = await seedOrganization(storage);
      const payment = aPayment(org.id);
      await storage.payments.insert(payment);
      await storage.payments.setCheckoutUrl(payment.reference, 'https://checkout.example/abc', at(1));
      const settled = await storage.payments.settle(payment.reference, {
        status: 'SUCCEEDED', gatewayStatus: 'success', confirmedAmount: 2_500, confirmedCurrency: 'GHS', creditedAt: at(2), updatedAt: at(2),
      });
      expect(settled).to.deep.equal({ ...payment, checkoutUrl: 'https://checkout.example/abc', status: 'SUCCEEDED', gatewayStatus: 'success',
        confirmedAmount: 2_500, confirmedCurrency: 'GHS', creditedAt: at(2), updatedAt: at(2) });
      await storage.payments.setCheckoutUrl(payment.reference, 'https://elsewhere.example', at(3));
      expect((await storage.payments.findByReference(payment.reference))?.checkoutUrl).to.equal('https://checkout.example/abc');
      expect(await storage.payments.settle(uniqueId('nope'), settled!)).to.equal(null);
    });

    it('lists an organization\'s payments newest first, bounded, never another organization\'s', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const older = aPayment(a.id, { createdAt: at(1) }); const newer = aPayment(a.id, { createdAt: at(2) });
      await storage.payments.insert(older); await storage.payments.insert(newer); await storage.payments.insert(aPayment(b.id));
      expect((await storage.payments.listByOrganization(a.id, 10)).map((p) => p.reference)).to.deep.equal([newer.reference, older.reference]);
      expect(await storage.payments.listByOrganization(a.id, 1)).to.have.length(1);
    });

    it('rolls a payment back with its transaction', async () => {
      const org = await seedOrganization(storage);
      const payment = aPayment(org.id);
      await storage.transaction(async (tx) => { await tx.payments.insert(payment); throw new Error('boom'); }).catch(() => undefined);
      expect(await storage.payments.findByReference(payment.reference)).to.equal(null);
    });

    it('settles 50 concurrent confirmations of one payment with exactly one credit', async function () {
      this.timeout(30_000);
      const orgId = await seedWallet(storage, 0);
      const payment = aPayment(orgId, { amount: 10_000 });
      await storage.payments.insert(payment);
      const deps = { storage, clock: new FixedClock(at(5)) };
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => settlePayment(deps, payment.reference, success(payment.reference, 10_000))));
      expect(outcomes.filter((o) => o.outcome === 'credited')).to.have.length(1);
      expect(outcomes.filter((o) => o.outcome === 'already_processed')).to.have.length(49);
      expect((await storage.wallets.get(orgId))?.balance).to.equal(10_000);
      expect((await storage.payments.findByReference(payment.reference))?.status).to.equal('SUCCEEDED');
      await expectWalletMatchesLedger(storage, orgId);
    });

    it('never credits a mismatched amount or currency, and keeps SUCCEEDED final', async () => {
      const orgId = await seedWallet(storage, 0);
      const wrongAmount = aPayment(orgId); const wrongCurrency = aPayment(orgId); const failedThenPaid = aPayment(orgId);
      for (const p of [wrongAmount, wrongCurrency, failedThenPaid]) await storage.payments.insert(p);
      const deps = { storage, clock: new FixedClock(at(5)) };
      expect((await settlePayment(deps, wrongAmount.reference, success(wrongAmount.reference, 2_499))).outcome).to.equal('mismatch');
      expect((await settlePayment(deps, wrongCurrency.reference, success(wrongCurrency.reference, 2_500, 'NGN'))).outcome).to.equal('mismatch');
      expect((await settlePayment(deps, wrongAmount.reference, success(wrongAmount.reference, 2_500))).outcome).to.equal('already_processed');
      const failed = { reference: failedThenPaid.reference, outcome: 'failed' as const, gatewayStatus: 'abandoned', amount: 2_500, currency: 'GHS' };
      expect((await settlePayment(deps, failedThenPaid.reference, failed)).outcome).to.equal('failed');
      expect((await settlePayment(deps, failedThenPaid.reference, success(failedThenPaid.reference, 2_500))).outcome).to.equal('credited');
      expect((await storage.wallets.get(orgId))?.balance).to.equal(2_500);
      expect(await storage.payments.findByReference(wrongCurrency.reference)).to.include({ status: 'MISMATCH', confirmedCurrency: 'NGN', creditedAt: null });
      await expectWalletMatchesLedger(storage, orgId);
    });

    it('keeps one invoice per organization and period, scoped to its organization, newest period first', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const march = anInvoice(a.id, '2026-03'); const april = anInvoice(a.id, '2026-04');
      await storage.invoices.insert(march); await storage.invoices.insert(april);
      expect(await storage.invoices.findById(a.id, march.id)).to.deep.equal(march);
      expect(await storage.invoices.findById(b.id, march.id)).to.equal(null);
      expect(await storage.invoices.findByPeriod(a.id, '2026-04')).to.deep.equal(april);
      expect((await rejection(storage.invoices.insert(anInvoice(a.id, '2026-03')))).code).to.equal('CONFLICT');
      await storage.invoices.insert(anInvoice(b.id, '2026-03'));
      expect((await storage.invoices.list(a.id, 10)).map((i) => i.period)).to.deep.equal(['2026-04', '2026-03']);
    });

    it('sums usage per channel in a period: rejected messages excluded, refunded ones at cost 0', async () => {
      const orgId = await seedWallet(storage, 0);
      const other = await seedWallet(storage, 0);
      await storage.messages.insertMany([
        aMessage(orgId), aMessage(orgId, { segments: 1, cost: 3 }), aMessage(orgId, { status: 'FAILED', cost: 0 }),
        aMessage(orgId, { status: 'REJECTED', cost: 0 }), aMessage(orgId, { channel: 'EMAIL', country: null, segments: 1, cost: 1 }),
        aMessage(orgId, { createdAt: at(-10) }), aMessage(orgId, { createdAt: at(100) }), aMessage(other),
      ]);
      expect(await storage.billingReports.usageByChannel(orgId, T0, at(100))).to.deep.equal([
        { channel: 'EMAIL', messages: 1, segments: 1, cost: 1 },
        { channel: 'SMS', messages: 3, segments: 5, cost: 9 },
      ]);
      expect(await storage.billingReports.usageByChannel(orgId, at(200), at(300))).to.deep.equal([]);
    });

    it('summarises the ledger of a period with the balance before it', async () => {
      const orgId = await seedWallet(storage, 0);
      await storage.wallets.update(orgId, () => topUp(10_000), at(-5));
      await storage.wallets.update(orgId, () => debit(300), at(1));
      await storage.wallets.update(orgId, () => ({ amount: 100, kind: 'REFUND', reference: uniqueId('m'), description: 'r' }), at(2));
      await storage.wallets.update(orgId, () => topUp(2_500), at(3));
      await storage.wallets.update(orgId, () => ({ amount: -50, kind: 'ADJUSTMENT', reference: uniqueId('adj'), description: 'a' }), at(4));
      await storage.wallets.update(orgId, () => topUp(1), at(50));
      expect(await storage.billingReports.ledgerSummary(orgId, T0, at(50))).to.deep.equal({
        openingBalance: 10_000, topUps: 2_500, debits: -300, refunds: 100, adjustments: -50,
      });
      expect(await storage.billingReports.ledgerSummary(uniqueId('org'), T0, at(50))).to.deep.equal({ openingBalance: 0, topUps: 0, debits: 0, refunds: 0, adjustments: 0 });
    });

    it('pages organizations with wallets in id order', async () => {
      const ids = [await seedWallet(storage), await seedWallet(storage), await seedWallet(storage)].sort();
      const firstPage = await storage.billingReports.organizationsWithWallets(null, 100_000);
      for (const id of ids) expect(firstPage).to.include(id);
      expect([...firstPage].sort()).to.deep.equal(firstPage);
      const after = await storage.billingReports.organizationsWithWallets(ids[0]!, 2);
      expect(after).to.have.length(2);
      expect(after.every((id) => id > ids[0]!)).to.equal(true);
    });
  });
}
