import type { Invoice } from '../domain/invoice.ts';

/**
 * Monthly statements. One per organization and period: `insert` of a second one throws AppError
 * CONFLICT (the worker's generation is idempotent). Reads are tenant-scoped: another organization's
 * id reads as null.
 */
export interface InvoiceRepository {
  insert(invoice: Invoice): Promise<void>;
  findById(organizationId: string, id: string): Promise<Invoice | null>;
  findByPeriod(organizationId: string, period: string): Promise<Invoice | null>;
  /** Newest period first, at most `limit` (capped at 120). */
  list(organizationId: string, limit: number): Promise<Invoice[]>;
}
