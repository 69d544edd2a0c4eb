import { expect } from 'chai';
import { buildInvoice, invoiceCsv, monthBounds, previousMonth } from '../../../core/domain/invoice.ts';
import { crossedBelowThreshold } from '../../../core/domain/low-balance.ts';
import { decideSettlement, type GatewayConfirmation, type Payment } from '../../../core/domain/payment.ts';

const NOW = new Date('2026-05-10T12:00:00.000Z');

function payment(overrides: Partial<Payment> = {}): Payment {
  return {
    reference: 'nkra-1', organizationId: 'org-1', amount: 2_500, currency: 'GHS', method: 'gateway', gateway: 'sandbox', status: 'PENDING',
    checkoutUrl: null, gatewayStatus: null, confirmedAmount: null, confirmedCurrency: null, createdByUserId: null, createdAt: NOW, updatedAt: NOW,
    creditedAt: null, ...overrides,
  };
}

const confirmation = (overrides: Partial<GatewayConfirmation> = {}): GatewayConfirmation => ({
  reference: 'nkra-1', outcome: 'success', gatewayStatus: 'success', amount: 2_500, currency: 'GHS', ...overrides,
});

describe('billing domain rules', () => {
  describe('decideSettlement', () => {
    it('credits a success for exactly the expected amount in GHS (any letter case)', () => {
      const decision = decideSettlement(payment(), confirmation({ currency: 'ghs' }), NOW);
      expect(decision).to.deep.equal({ action: 'credit', settlement: {
        status: 'SUCCEEDED', gatewayStatus: 'success', confirmedAmount: 2_500, confirmedCurrency: 'ghs', creditedAt: NOW, updatedAt: NOW,
      } });
    });

    it('records a success for another amount, another currency or no amount as MISMATCH without crediting', () => {
      for (const c of [confirmation({ amount: 2_499 }), confirmation({ amount: 2_501 }), confirmation({ currency: 'NGN' }), confirmation({ amount: null }), confirmation({ currency: null })]) {
        const decision = decideSettlement(payment(), c, NOW);
        expect(decision.action).to.equal('record');
        expect(decision.action === 'record' && decision.settlement).to.include({ status: 'MISMATCH', creditedAt: null });
      }
    });

    it('marks failures FAILED, keeps pending ones as they are, and lets a FAILED payment still succeed later', () => {
      expect(decideSettlement(payment(), confirmation({ outcome: 'failed', gatewayStatus: 'abandoned' }), NOW)).to.deep.include({ action: 'record' });
      const failed = decideSettlement(payment(), confirmation({ outcome: 'failed', gatewayStatus: 'abandoned' }), NOW);
      expect(failed.action === 'record' && failed.settlement.status).to.equal('FAILED');
      const pending = decideSettlement(payment(), confirmation({ outcome: 'pending', gatewayStatus: 'ongoing' }), NOW);
      expect(pending.action === 'record' && pending.settlement.status).to.equal('PENDING');
      expect(decideSettlement(payment({ status: 'FAILED' }), confirmation(), NOW).action).to.equal('credit');
    });

    it('treats SUCCEEDED and MISMATCH as final', () => {
      expect(decideSettlement(payment({ status: 'SUCCEEDED' }), confirmation(), NOW)).to.deep.equal({ action: 'already-processed' });
      expect(decideSettlement(payment({ status: 'MISMATCH' }), confirmation(), NOW)).to.deep.equal({ action: 'already-processed' });
    });
  });

  describe('crossedBelowThreshold', () => {
    it('is true only for the debit that goes from at or above the threshold to below it', () => {
      expect(crossedBelowThreshold({ amount: -3, balanceAfter: 997 }, 1_000)).to.equal(true);
      expect(crossedBelowThreshold({ amount: -3, balanceAfter: 1_000 }, 1_000)).to.equal(false);
      expect(crossedBelowThreshold({ amount: -3, balanceAfter: 994 }, 1_000)).to.equal(false);
      expect(crossedBelowThreshold({ amount: -5_000, balanceAfter: 0 }, 1_000)).to.equal(true);
      expect(crossedBelowThreshold({ amount: 3, balanceAfter: 997 }, 1_000)).to.equal(false);
      expect(crossedBelowThreshold({ amount: -3, balanceAfter: 997 }, 0)).to.equal(false);
    });
  });

  describe('monthly statements', () => {
    it('takes the previous UTC month, across a year end too', () => {
      expect(previousMonth(NOW)).to.deep.equal({ period: '2026-04', start: new Date('2026-04-01T00:00:00.000Z'), end: new Date('2026-05-01T00:00:00.000Z') });
      expect(previousMonth(new Date('2027-01-01T00:15:00.000Z')).period).to.equal('2026-12');
      expect(monthBounds('2026-02')).to.deep.equal({ start: new Date('2026-02-01T00:00:00.000Z'), end: new Date('2026-03-01T00:00:00.000Z') });
      for (const bad of ['2026-13', '2026-1', '26-01', '2026-00', '']) expect(monthBounds(bad)).to.equal(null);
    });

    it('computes the closing balance from the opening balance and the movements, and renders a safe CSV', () => {
      const invoice = buildInvoice({ id: 'i1', organizationId: 'o1', period: '2026-04', periodStart: NOW, periodEnd: NOW, createdAt: NOW },
        { openingBalance: 1_000, topUps: 5_000, debits: -1_234, refunds: 34, adjustments: -100 }, [{ channel: 'SMS', messages: 10, segments: 12, cost: 36 }]);
      expect(invoice.closingBalance).to.equal(4_700);
      const csv = invoiceCsv(invoice, '=HYPERLINK("x"), Ltd');
      expect(csv).to.include(`organization,"'=HYPERLINK(""x""), Ltd"\r\n`);
      expect(csv).to.include('closing_balance,47.00\r\n').and.include('debits,-12.34\r\n').and.include('SMS,10,12,0.36\r\n');
    });
  });
});
