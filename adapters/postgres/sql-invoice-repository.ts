import type { EntityManager } from '@mikro-orm/sql';
import type { Invoice } from '../../core/domain/invoice.ts';
import type { ChannelUsage } from '../../core/domain/payment.ts';
import type { InvoiceRepository } from '../../core/ports/invoice-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { sqlRows, toDate } from './sql-rows.ts';

type Amount = string | number;
interface Row {
  id: string; organization_id: string; period: string; period_start: Date | string; period_end: Date | string;
  opening_balance: Amount; top_ups: Amount; debits: Amount; refunds: Amount; adjustments: Amount; closing_balance: Amount;
  usage: ChannelUsage[] | string; created_at: Date | string;
}

function toInvoice(r: Row): Invoice {
  return {
    id: r.id, organizationId: r.organization_id, period: r.period, periodStart: toDate(r.period_start)!, periodEnd: toDate(r.period_end)!,
    openingBalance: Number(r.opening_balance), topUps: Number(r.top_ups), debits: Number(r.debits), refunds: Number(r.refunds),
    adjustments: Number(r.adjustments), closingBalance: Number(r.closing_balance),
    usage: typeof r.usage === 'string' ? (JSON.parse(r.usage) as ChannelUsage[]) : r.usage, createdAt: toDate(r.created_at)!,
  };
}

export class SqlInvoiceRepository implements InvoiceRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(i: Invoice): Promise<void> {
    await translateUniqueViolation('invoice', () => this.#em.execute(`insert into invoices
      (id, organization_id, period, period_start, period_end, opening_balance, top_ups, debits, refunds, adjustments, closing_balance, usage, created_at)
      values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)`,
    [i.id, i.organizationId, i.period, i.periodStart, i.periodEnd, i.openingBalance, i.topUps, i.debits, i.refunds, i.adjustments,
      i.closingBalance, JSON.stringify(i.usage), i.createdAt]));
  }

  async findById(organizationId: string, id: string): Promise<Invoice | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from invoices where organization_id = $1 and id = $2', [organizationId, id]);
    return rows[0] ? toInvoice(rows[0]) : null;
  }

  async findByPeriod(organizationId: string, period: string): Promise<Invoice | null> {
    const rows = await sqlRows<Row>(this.#em, 'select * from invoices where organization_id = $1 and period = $2', [organizationId, period]);
    return rows[0] ? toInvoice(rows[0]) : null;
  }

  async list(organizationId: string, limit: number): Promise<Invoice[]> {
    const rows = await sqlRows<Row>(this.#em, 'select * from invoices where organization_id = $1 order by period desc limit $2',
      [organizationId, Math.min(limit, 120)]);
    return rows.map(toInvoice);
  }
}
