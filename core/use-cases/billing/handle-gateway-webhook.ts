import { AppError } from '../../errors.ts';
import type { PaymentGateway } from '../../ports/payment-gateway.ts';
import { settlePayment, type SettleDeps, type SettleOutcome } from './settle-payment.ts';

export interface WebhookAck {
  received: true;
  event: string;
  /** What it did: credited, already_processed, mismatch, failed, pending, ignored (other events, unknown references). */
  outcome: SettleOutcome | 'ignored';
}

/**
 * POST /billing/webhooks/gateway. The signature is verified over the raw body first (INVALID_SIGNATURE);
 * `charge.success` then settles the payment it names with the amount and currency the gateway signed
 * (settlePayment: credits at most once, whatever the number of retries). Other events and unknown
 * references are acknowledged and ignored, so the gateway stops retrying them. A payment already
 * SUCCEEDED answers without opening a transaction (cheap retries).
 */
export class HandleGatewayWebhook {
  readonly #deps: SettleDeps & { gateway: PaymentGateway | null };
  constructor(deps: SettleDeps & { gateway: PaymentGateway | null }) { this.#deps = deps; }

  async execute(rawBody: Buffer, signature: string | undefined): Promise<WebhookAck> {
    const { gateway, storage } = this.#deps;
    if (!gateway) throw new AppError('INVALID_SIGNATURE', 'No payment gateway is configured to verify this webhook');
    const { event, confirmation } = gateway.parseWebhook(rawBody, signature);
    if (!confirmation) return { received: true, event, outcome: 'ignored' };
    const payment = await storage.payments.findByReference(confirmation.reference);
    if (!payment || payment.method === 'invoice') return { received: true, event, outcome: 'ignored' };
    if (payment.status === 'SUCCEEDED') return { received: true, event, outcome: 'already_processed' };
    const settled = await settlePayment(this.#deps, payment.reference, confirmation);
    return { received: true, event, outcome: settled.outcome };
  }
}
