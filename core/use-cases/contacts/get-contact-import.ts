import { AppError } from '../../errors.ts';
import { contactImportView } from '../../domain/contact-import.ts';
import type { Storage } from '../../ports/storage.ts';

/** GET /contacts/imports/{id}: status, progress (rows done / total), counters and the first per-row errors. */
export class GetContactImport {
  readonly #deps: { storage: Pick<Storage, 'contactImports'> };
  constructor(deps: { storage: Pick<Storage, 'contactImports'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const job = await this.#deps.storage.contactImports.findById(scope.organizationId, id);
    if (!job) throw new AppError('NOT_FOUND', 'Import not found');
    return contactImportView(job);
  }
}
