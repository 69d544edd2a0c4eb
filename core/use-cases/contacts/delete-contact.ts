import { AppError } from '../../errors.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * DELETE /contacts/{id}: removes the contact (and its static segment memberships). Its suppression
 * entries stay: deleting a contact never re-allows messages to someone who opted out.
 */
export class DeleteContact {
  readonly #deps: { storage: Pick<Storage, 'contacts'> };
  constructor(deps: { storage: Pick<Storage, 'contacts'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.#deps.storage.contacts.delete(scope.organizationId, id))) throw new AppError('NOT_FOUND', 'Contact not found');
    return { id, deleted: true };
  }
}
