import { AppError } from '../../core/errors.ts';
import type { Invoice } from '../../core/domain/invoice.ts';
import type { InvoiceRepository } from '../../core/ports/invoice-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryInvoiceRepository implements InvoiceRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(invoice: Invoice): Promise<void> {
    const clash = [...this.#state.invoices.values()].some((i) => i.id === invoice.id || (i.organizationId === invoice.organizationId && i.period === invoice.period));
    if (clash) throw new AppError('CONFLICT', 'invoice already exists for this period');
    this.#state.invoices.set(invoice.id, copy(invoice));
  }

  async findById(organizationId: string, id: string): Promise<Invoice | null> {
    const found = this.#state.invoices.get(id);
    return found && found.organizationId === organizationId ? copy(found) : null;
  }

  async findByPeriod(organizationId: string, period: string): Promise<Invoice | null> {
    const found = [...this.#state.invoices.values()].find((i) => i.organizationId === organizationId && i.period === period);
    return found ? copy(found) : null;
  }

  async list(organizationId: string, limit: number): Promise<Invoice[]> {
    return [...this.#state.invoices.values()].filter((i) => i.organizationId === organizationId)
      .sort((a, b) => b.period.localeCompare(a.period)).slice(0, Math.min(limit, 120)).map(copy);
  }
}
