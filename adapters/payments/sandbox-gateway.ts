import { randomBytes } from 'node:crypto';
import type { GatewayConfirmation } from '../../core/domain/payment.ts';
import type { CheckoutRequest, GatewayEvent, PaymentGateway } from '../../core/ports/payment-gateway.ts';
import { hmacSha512Hex, readEvent, verifyHmacSha512 } from './paystack-format.ts';

/** Open sandbox checkouts kept in memory; the oldest is forgotten beyond this. */
const MAX_TRANSACTIONS = 10_000;

export interface SandboxTransaction {
  reference: string;
  amount: number;
  currency: string;
  email: string;
  callbackUrl: string;
  status: 'pending' | 'success' | 'failed';
  paidAt: string | null;
}

/**
 * The built-in gateway of the embedded default and the tests: no money moves. Its checkout URL is a
 * page of the API host (GET /billing/sandbox-checkout/{reference}) where a person pays or fails the
 * payment. It speaks Paystack's format (verify answers, `charge.success` events signed with
 * HMAC-SHA512 under its own per-process secret), so paying drives the same verify and webhook code
 * as the real gateway. Transactions live in this process's memory (bounded): a restart forgets
 * open checkouts, which only leaves their payments PENDING.
 */
export class SandboxPaymentGateway implements PaymentGateway {
  readonly name = 'sandbox';
  readonly #secret: Buffer;
  readonly #checkoutBaseUrl: string;
  readonly #transactions = new Map<string, SandboxTransaction>();

  /** `checkoutBaseUrl`: the API host's public URL. `secret`: the webhook key (random per process by default). */
  constructor(options: { checkoutBaseUrl: string; secret?: Buffer }) {
    this.#checkoutBaseUrl = options.checkoutBaseUrl.replace(/\/+$/, '');
    this.#secret = options.secret ?? randomBytes(32);
  }

  async initialize(request: CheckoutRequest): Promise<{ checkoutUrl: string }> {
    if (this.#transactions.size >= MAX_TRANSACTIONS) this.#transactions.delete(this.#transactions.keys().next().value!);
    this.#transactions.set(request.reference, {
      reference: request.reference, amount: request.amount, currency: request.currency, email: request.email,
      callbackUrl: request.callbackUrl, status: 'pending', paidAt: null,
    });
    return { checkoutUrl: `${this.#checkoutBaseUrl}/billing/sandbox-checkout/${encodeURIComponent(request.reference)}` };
  }

  async verify(reference: string): Promise<GatewayConfirmation> {
    const t = this.#transactions.get(reference);
    if (!t) return { reference, outcome: 'pending', gatewayStatus: 'not_found', amount: null, currency: null };
    return { reference, outcome: t.status, gatewayStatus: t.status, amount: t.amount, currency: t.currency };
  }

  parseWebhook(rawBody: Buffer, signature: string | undefined): GatewayEvent {
    verifyHmacSha512(this.#secret, rawBody, signature);
    return readEvent(rawBody);
  }

  transaction(reference: string): SandboxTransaction | null {
    const t = this.#transactions.get(reference);
    return t ? { ...t } : null;
  }

  /**
   * The person's choice on the checkout page. Returns the signed webhook the sandbox sends for it
   * (`charge.success` for a payment, `charge.failed` otherwise), or null for an unknown or already
   * completed checkout.
   */
  complete(reference: string, outcome: 'success' | 'failed', now: Date): { rawBody: Buffer; signature: string } | null {
    const t = this.#transactions.get(reference);
    if (!t || t.status !== 'pending') return null;
    t.status = outcome;
    t.paidAt = outcome === 'success' ? now.toISOString() : null;
    return this.signedEvent(outcome === 'success' ? 'charge.success' : 'charge.failed', t);
  }

  /** A webhook body in Paystack's shape with its signature (tests replay it). */
  signedEvent(event: string, t: SandboxTransaction): { rawBody: Buffer; signature: string } {
    const rawBody = Buffer.from(JSON.stringify({
      event, data: { status: t.status, reference: t.reference, amount: t.amount, currency: t.currency, channel: 'sandbox', paid_at: t.paidAt, customer: { email: t.email } },
    }));
    return { rawBody, signature: hmacSha512Hex(this.#secret, rawBody) };
  }
}
