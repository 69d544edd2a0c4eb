import type { Channel } from './channel.ts';
import { pesewasToGhs, type Pesewas } from './money.ts';

/** Spec section 2, "Payment method". `gateway` and the specific methods open a checkout; `invoice` is a manual credit. */
export const PAYMENT_METHODS = ['gateway', 'mobile_money', 'card', 'bank_transfer', 'ussd', 'qr', 'apple_pay', 'invoice'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * PENDING: checkout opened, nothing confirmed. SUCCEEDED: the gateway confirmed success for the
 * expected amount and currency, and the wallet was credited (exactly once). FAILED: the gateway
 * reported failure (a later success still credits: a customer may retry the same checkout).
 * MISMATCH: the gateway confirmed success for another amount or currency; recorded, never credited,
 * left to an operator. SUCCEEDED and MISMATCH are final.
 */
export type PaymentStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'MISMATCH';

export interface Payment {
  /** Our reference, unique across the whole service (the gateway's transaction reference). */
  reference: string;
  organizationId: string;
  /** Expected amount, integer pesewas. */
  amount: Pesewas;
  currency: 'GHS';
  method: PaymentMethod;
  /** 'paystack', 'sandbox', or 'invoice' for manual credits. */
  gateway: string;
  status: PaymentStatus;
  checkoutUrl: string | null;
  /** The gateway's own word for the last confirmation ('success', 'failed', 'abandoned' ...). */
  gatewayStatus: string | null;
  /** What the gateway confirmed (set with SUCCEEDED or MISMATCH). */
  confirmedAmount: Pesewas | null;
  confirmedCurrency: string | null;
  createdByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** When the wallet was credited. */
  creditedAt: Date | null;
}

/** The changes a settlement writes to a payment. */
export type PaymentSettlement = Pick<Payment, 'status' | 'gatewayStatus' | 'confirmedAmount' | 'confirmedCurrency' | 'creditedAt' | 'updatedAt'>;

/** What a gateway says about one transaction (verify answer or webhook payload), in our units. */
export interface GatewayConfirmation {
  reference: string;
  /** Normalized: only `success` ever credits. */
  outcome: 'success' | 'failed' | 'pending';
  /** The gateway's own status word, kept for the record. */
  gatewayStatus: string;
  /** Integer pesewas (Paystack sends the subunit); null when the gateway did not say. */
  amount: Pesewas | null;
  currency: string | null;
}

/** Top-up limits for gateway methods (spec section 8), integer pesewas. */
export interface TopUpLimits {
  min: Pesewas;
  max: Pesewas;
  presets: readonly Pesewas[];
}

export const DEFAULT_TOP_UP_LIMITS: TopUpLimits = { min: 2_500, max: 5_000_000, presets: [2_500, 5_000, 10_000, 25_000, 50_000, 100_000] };

/** Largest manual (invoice) credit accepted in one call: GHS 1,000,000. */
export const MAX_INVOICE_CREDIT: Pesewas = 100_000_000;

export type SettlementDecision =
  | { action: 'already-processed' }
  | { action: 'credit'; settlement: PaymentSettlement }
  | { action: 'record'; settlement: PaymentSettlement };

/**
 * The money rule of a confirmation: credit only a `success` for exactly the expected amount in GHS,
 * and only once (a SUCCEEDED or MISMATCH payment is final). A success for another amount or currency
 * becomes MISMATCH (recorded, not credited); a failure marks FAILED; pending changes nothing but the
 * recorded gateway status.
 */
export function decideSettlement(payment: Payment, confirmation: GatewayConfirmation, now: Date): SettlementDecision {
  if (payment.status === 'SUCCEEDED' || payment.status === 'MISMATCH') return { action: 'already-processed' };
  const base = { gatewayStatus: confirmation.gatewayStatus.slice(0, 40), updatedAt: now };
  if (confirmation.outcome === 'success') {
    const matches = confirmation.amount === payment.amount && confirmation.currency?.toUpperCase() === payment.currency;
    const settlement: PaymentSettlement = {
      ...base, status: matches ? 'SUCCEEDED' : 'MISMATCH', confirmedAmount: confirmation.amount,
      confirmedCurrency: confirmation.currency?.slice(0, 8) ?? null, creditedAt: matches ? now : null,
    };
    return matches ? { action: 'credit', settlement } : { action: 'record', settlement };
  }
  return {
    action: 'record',
    settlement: { ...base, status: confirmation.outcome === 'failed' ? 'FAILED' : payment.status, confirmedAmount: null, confirmedCurrency: null, creditedAt: null },
  };
}

export function paymentView(payment: Payment) {
  return {
    reference: payment.reference, amount: pesewasToGhs(payment.amount), currency: payment.currency, method: payment.method,
    gateway: payment.gateway, status: payment.status, checkoutUrl: payment.checkoutUrl,
    createdAt: payment.createdAt.toISOString(), creditedAt: payment.creditedAt?.toISOString() ?? null,
  };
}

/** One channel's usage over a period: messages accepted (not rejected), SMS segments, net cost after refunds. */
export interface ChannelUsage {
  channel: Channel;
  messages: number;
  segments: number;
  cost: Pesewas;
}

/** Ledger totals of a period, by kind (signed pesewas), and the balance before it. */
export interface LedgerSummary {
  openingBalance: Pesewas;
  topUps: Pesewas;
  debits: Pesewas;
  refunds: Pesewas;
  adjustments: Pesewas;
}
