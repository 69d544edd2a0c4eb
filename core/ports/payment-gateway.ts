import type { GatewayConfirmation } from '../domain/payment.ts';

export interface CheckoutRequest {
  /** Our unique reference (alphanumerics, '-', '.', '='). */
  reference: string;
  /** Integer pesewas. */
  amount: number;
  currency: 'GHS';
  /** The organization's billing email (the gateway's customer). */
  email: string;
  /** Where the gateway sends the customer back after paying (with the reference in the query). */
  callbackUrl: string;
  metadata: Record<string, string>;
}

/** A verified inbound gateway event. Only `charge.success` carries a confirmation that may credit. */
export interface GatewayEvent {
  event: string;
  confirmation: GatewayConfirmation | null;
}

/**
 * A payment gateway (Paystack in production, the built-in sandbox on the embedded default). Every
 * network call has a timeout; failures throw AppError PROVIDER_UNAVAILABLE (`retryable` for
 * timeouts and 5xx). Messages never carry the secret key.
 */
export interface PaymentGateway {
  /** 'paystack', 'sandbox' ... shown by GET /billing/top-up-options. */
  readonly name: string;
  /** Opens a hosted checkout offering every method the gateway account enables; returns its URL. */
  initialize(request: CheckoutRequest): Promise<{ checkoutUrl: string }>;
  /** Asks the gateway about a transaction by our reference (a reference it does not know: outcome `pending`). */
  verify(reference: string): Promise<GatewayConfirmation>;
  /**
   * Verifies a webhook's signature over the exact raw body bytes, in constant time, and reads it.
   * Throws AppError INVALID_SIGNATURE for a missing, malformed or wrong signature; VALIDATION_ERROR
   * for a correctly signed body that is not a gateway event.
   */
  parseWebhook(rawBody: Buffer, signature: string | undefined): GatewayEvent;
}
