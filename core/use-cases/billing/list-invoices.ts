import { invoiceView } from '../../domain/invoice.ts';
import type { Storage } from '../../ports/storage.ts';

export const MAX_INVOICES_LISTED = 120;

/** GET /billing/invoices: the organization's monthly statements, newest period first (ten years at most). */
export class ListInvoices {
  readonly #deps: { storage: Pick<Storage, 'invoices'> };
  constructor(deps: { storage: Pick<Storage, 'invoices'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    return (await this.#deps.storage.invoices.list(scope.organizationId, MAX_INVOICES_LISTED)).map(invoiceView);
  }
}
