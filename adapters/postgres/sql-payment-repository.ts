import type { EntityManager } from '@mikro-orm/sql';
import type { Payment, PaymentSettlement } from '../../core/domain/payment.ts';
import type { PaymentRepository } from '../../core/ports/payment-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { sqlRows, toDate } from './sql-rows.ts';

interface Row {
  reference: string; organization_id: string; amount: string | number; currency: string; method: string; gateway: string; status: string;
  checkout_url: string | null; gateway_status: string | null; confirmed_amount: string | number | null; confirmed_currency: string | null;
  created_by_user_id: string | null; created_at: Date | string; updated_at: Date | string; credited_at: Date | string | null;
}

function toPayment(r: Row): Payment {
  return {
    reference: r.reference, organizationId: r.organization_id, amount: Number(r.amount), currency: 'GHS', method: r.method as Payment['method'],
    gateway: r.gateway, status: r.status as Payment['status'], checkoutUrl: r.checkout_url, gatewayStatus: r.gateway_status,
    confirmedAmount: r.confirmed_amount === null ? null : Number(r.confirmed_amount), confirmedCurrency: r.confirmed_currency,
    createdByUserId: r.created_by_user_id, createdAt: toDate(r.created_at)!, updatedAt: toDate(r.updated_at)!, creditedAt: toDate(r.credited_at),
  };
}

export class SqlPaymentRepository implements PaymentRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(p: Payment): Promise<void> {
    // Through the ORM's execute so a duplicate reference surfaces as a unique violation (CONFLICT).
    await translateUniqueViolation('payment reference', () => this.#em.execute(`insert into payments
      (reference, organization_id, amount, currency, method, gateway, status, checkout_url, gateway_status, confirmed_amount,
       confirmed_currency, created_by_user_id, created_at, updated_at, credited_at)
      values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [p.reference, p.organizationId, p.amount, p.currency, p.method, p.gateway, p.status, p.checkoutUrl, p.gatewayStatus, p.confirmedAmount,
      p.confirmedCurrency, p.createdByUserId, p.createdAt, p.updatedAt, p.creditedAt]));
  }

  async findByReference(reference: string): Promise<Payment | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from payments where reference = $1', [reference]);
    return rows[0] ? toPayment(rows[0]) : null;
  }

  async setCheckoutUrl(reference: string, checkoutUrl: string, now: Date): Promise<void> {
    await sqlRows(this.#em, `update payments set checkout_url = $2, updated_at = $3 where reference = $1 and status = 'PENDING'`, [reference, checkoutUrl, now]);
  }

  async settle(reference: string, s: PaymentSettlement): Promise<Payment | null> {
    const rows = await sqlRows<Row>(this.#em, `update payments set status = $2, gateway_status = $3, confirmed_amount = $4, confirmed_currency = $5,
      credited_at = $6, updated_at = $7 where reference = $1 returning *`,
    [reference, s.status, s.gatewayStatus, s.confirmedAmount, s.confirmedCurrency, s.creditedAt, s.updatedAt]);
    return rows[0] ? toPayment(rows[0]) : null;
  }

  async listByOrganization(organizationId: string, limit: number): Promise<Payment[]> {
    const rows = await sqlRows<Row>(this.#em, `select * from payments where organization_id = $1 order by created_at desc, reference desc limit $2`,
      [organizationId, Math.min(limit, 200)]);
    return rows.map(toPayment);
  }
}
