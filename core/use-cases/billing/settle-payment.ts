import { AppError } from '../../errors.ts';
import { decideSettlement, type GatewayConfirmation, type Payment } from '../../domain/payment.ts';
import { pesewasToGhs } from '../../domain/money.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';

export interface SettleDeps {
  storage: Storage;
  clock: Clock;
}

export type SettleOutcome = 'credited' | 'already_processed' | 'failed' | 'mismatch' | 'pending';

export interface Settled {
  outcome: SettleOutcome;
  payment: Payment;
}

/**
 * Applies a gateway confirmation to a payment (shared by VerifyPayment and HandleGatewayWebhook). In
 * one transaction: lock the organization's wallet row (serialising every settlement and debit of the
 * organization), re-read the payment under that lock, decide (decideSettlement: success for exactly
 * the expected amount and GHS credits; SUCCEEDED/MISMATCH are final), then credit the wallet with one
 * TOP_UP ledger entry referencing the payment and record the settlement. Concurrent webhook retries
 * and verify calls therefore credit at most once; the ledger's unique (organization, kind, reference)
 * is the second line of defence. Errors: NOT_FOUND for an unknown reference.
 */
export async function settlePayment(deps: SettleDeps, reference: string, confirmation: GatewayConfirmation): Promise<Settled> {
  if (confirmation.reference !== reference) throw new AppError('VALIDATION_ERROR', 'Gateway confirmation is for another reference');
  return deps.storage.transaction(async (tx) => {
    const now = deps.clock.now();
    const found = await tx.payments.findByReference(reference);
    if (!found) throw new AppError('NOT_FOUND', 'Payment not found');
    await tx.wallets.update(found.organizationId, () => null, now); // row lock for the rest of the transaction
    const payment = (await tx.payments.findByReference(reference))!;
    const decision = decideSettlement(payment, confirmation, now);
    if (decision.action === 'already-processed') return { outcome: 'already_processed', payment };
    if (decision.action === 'credit') {
      await tx.wallets.update(payment.organizationId, () => ({
        amount: payment.amount, kind: 'TOP_UP', reference: payment.reference,
        description: `Top-up GHS ${pesewasToGhs(payment.amount).toFixed(2)} via ${payment.gateway} (${payment.method})`,
      }), now);
    }
    const settled = (await tx.payments.settle(reference, decision.settlement))!;
    const outcome: SettleOutcome = decision.action === 'credit' ? 'credited'
      : settled.status === 'MISMATCH' ? 'mismatch' : settled.status === 'FAILED' ? 'failed' : 'pending';
    return { outcome, payment: settled };
  });
}
