import type { Payment, PaymentSettlement } from '../domain/payment.ts';

/**
 * Top-up payments, one record per reference. The reference is unique across the service (the
 * database enforces it): `insert` of a used reference throws AppError CONFLICT. `findByReference`
 * is the one unscoped read: gateway webhooks name a reference, not a tenant; callers compare the
 * organization before showing anything to a tenant.
 */
export interface PaymentRepository {
  insert(payment: Payment): Promise<void>;
  findByReference(reference: string): Promise<Payment | null>;
  /** Records the checkout URL of a PENDING payment. */
  setCheckoutUrl(reference: string, checkoutUrl: string, now: Date): Promise<void>;
  /** Writes a settlement (status, what the gateway confirmed); returns the updated payment or null when unknown. */
  settle(reference: string, settlement: PaymentSettlement): Promise<Payment | null>;
  /** The organization's payments, newest first, at most `limit` (capped at 200). */
  listByOrganization(organizationId: string, limit: number): Promise<Payment[]>;
}
