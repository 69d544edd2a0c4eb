import { AppError } from '../../core/errors.ts';
import type { Payment, PaymentSettlement } from '../../core/domain/payment.ts';
import type { PaymentRepository } from '../../core/ports/payment-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryPaymentRepository implements PaymentRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(payment: Payment): Promise<void> {
    if (this.#state.payments.has(payment.reference)) throw new AppError('CONFLICT', 'payment reference already exists');
    this.#state.payments.set(payment.reference, copy(payment));
  }

  async findByReference(reference: string): Promise<Payment | null> {
    const found = this.#state.payments.get(reference);
    return found ? copy(found) : null;
  }

  async setCheckoutUrl(reference: string, checkoutUrl: string, now: Date): Promise<void> {
    const found = this.#state.payments.get(reference);
    if (found && found.status === 'PENDING') Object.assign(found, { checkoutUrl, updatedAt: now });
  }

  async settle(reference: string, settlement: PaymentSettlement): Promise<Payment | null> {
    const found = this.#state.payments.get(reference);
    if (!found) return null;
    Object.assign(found, copy(settlement));
    return copy(found);
  }

  async listByOrganization(organizationId: string, limit: number): Promise<Payment[]> {
    return [...this.#state.payments.values()].filter((p) => p.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.reference.localeCompare(a.reference))
      .slice(0, Math.min(limit, 200)).map(copy);
  }
}
