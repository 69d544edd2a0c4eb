import { AppError } from '../../errors.ts';
import type { Storage } from '../../ports/storage.ts';

/** DELETE /compliance/suppression/{id}: the recipient may be messaged again. Errors: NOT_FOUND (unknown id or another organization's). */
export class RemoveSuppression {
  readonly #deps: { storage: Pick<Storage, 'suppressions'> };
  constructor(deps: { storage: Pick<Storage, 'suppressions'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string): Promise<{ id: string; removed: true }> {
    if (!(await this.#deps.storage.suppressions.remove(scope.organizationId, id))) throw new AppError('NOT_FOUND', 'Suppression entry not found');
    return { id, removed: true };
  }
}
