import { AppError } from '../../errors.ts';
import { invoiceCsv, invoiceView, type Invoice } from '../../domain/invoice.ts';
import type { Storage } from '../../ports/storage.ts';

/** GET /billing/invoices/{id}: one statement of the caller's organization (another's id -> NOT_FOUND), as JSON or CSV. */
export class GetInvoice {
  readonly #deps: { storage: Pick<Storage, 'invoices' | 'organizations'> };
  constructor(deps: { storage: Pick<Storage, 'invoices' | 'organizations'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    return invoiceView(await this.#find(scope, id));
  }

  /** The statement as a CSV document with a file name for downloads. */
  async csv(scope: { organizationId: string }, id: string): Promise<{ fileName: string; csv: string }> {
    const invoice = await this.#find(scope, id);
    const organization = await this.#deps.storage.organizations.findById(scope.organizationId);
    return { fileName: `statement-${invoice.period}.csv`, csv: invoiceCsv(invoice, organization?.name ?? '') };
  }

  async #find(scope: { organizationId: string }, id: string): Promise<Invoice> {
    const invoice = id.length > 0 && id.length <= 64 ? await this.#deps.storage.invoices.findById(scope.organizationId, id) : null;
    if (!invoice) throw new AppError('NOT_FOUND', 'Invoice not found');
    return invoice;
  }
}
