import { AppError } from '../../errors.ts';
import { contactView } from '../../domain/contact.ts';
import type { Storage } from '../../ports/storage.ts';

/** GET /contacts/{id}. NOT_FOUND for an unknown id or another organization's contact. */
export class GetContact {
  readonly #deps: { storage: Pick<Storage, 'contacts'> };
  constructor(deps: { storage: Pick<Storage, 'contacts'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string) {
    const contact = await this.#deps.storage.contacts.findById(scope.organizationId, id);
    if (!contact) throw new AppError('NOT_FOUND', 'Contact not found');
    return contactView(contact);
  }
}
