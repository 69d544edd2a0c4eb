import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import type { Payment } from '../../domain/payment.ts';
import type { PaymentGateway } from '../../ports/payment-gateway.ts';
import { settlePayment, type SettleDeps, type Settled } from './settle-payment.ts';

export const VerifyPaymentInput = v.object({
  reference: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(100, 'must be at most 100 characters')),
});

/**
 * POST /billing/verify-payment: asks the gateway about one of the organization's payments and settles
 * it (settlePayment). Answers `credited` or `already_processed`; a failed payment or one the gateway
 * confirmed for another amount/currency -> PAYMENT_FAILED; not finished yet -> PAYMENT_PENDING;
 * unknown reference or another organization's -> NOT_FOUND; missing reference -> VALIDATION_ERROR.
 */
export class VerifyPayment {
  readonly #deps: SettleDeps & { gateway: PaymentGateway | null };
  constructor(deps: SettleDeps & { gateway: PaymentGateway | null }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown) {
    const { reference } = parseInput(VerifyPaymentInput, raw);
    const payment = await this.#deps.storage.payments.findByReference(reference);
    if (!payment || payment.organizationId !== scope.organizationId) throw new AppError('NOT_FOUND', 'Payment not found');
    if (payment.status === 'SUCCEEDED') return answer({ outcome: 'already_processed', payment }, await this.#balance(scope));
    let settled: Settled = { outcome: 'mismatch', payment };
    if (payment.status !== 'MISMATCH') {
      if (!this.#deps.gateway) throw new AppError('SERVICE_UNAVAILABLE', 'No payment gateway is configured');
      settled = await settlePayment(this.#deps, reference, await this.#deps.gateway.verify(reference));
    }
    if (settled.outcome === 'failed' || settled.outcome === 'mismatch') {
      const reason = settled.outcome === 'failed' ? `the payment ${settled.payment.gatewayStatus ?? 'failed'}` : 'the gateway confirmed a different amount or currency';
      throw new AppError('PAYMENT_FAILED', `Payment not credited: ${reason}`, { reference, status: settled.payment.status, gatewayStatus: settled.payment.gatewayStatus });
    }
    if (settled.outcome === 'pending') {
      throw new AppError('PAYMENT_PENDING', 'The payment is not complete yet; try again shortly', { reference, gatewayStatus: settled.payment.gatewayStatus });
    }
    return answer(settled, await this.#balance(scope));
  }

  async #balance(scope: { organizationId: string }): Promise<number> {
    return (await this.#deps.storage.wallets.get(scope.organizationId))?.balance ?? 0;
  }
}

function answer(settled: { outcome: string; payment: Payment }, balance: number) {
  const { payment } = settled;
  return {
    status: settled.outcome, message: settled.outcome === 'credited' ? 'Wallet credited' : 'Payment already processed',
    reference: payment.reference, amount: pesewasToGhs(payment.amount), currency: 'GHS', balance: pesewasToGhs(balance),
  };
}
