import { AppError } from '../../errors.ts';
import type { Storage } from '../../ports/storage.ts';

/** DELETE /conversations/keywords/{id}: removes one of the organization's keywords. Errors: NOT_FOUND. */
export class DeleteKeyword {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.#deps.storage.conversations.deleteKeyword(scope.organizationId, id))) throw new AppError('NOT_FOUND', 'Keyword not found');
    return { id, deleted: true };
  }
}
