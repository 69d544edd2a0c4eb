import { AppError } from '../../errors.ts';
import type { Storage } from '../../ports/storage.ts';

/** DELETE /organizations/sso/domains/:id: drops a claim (verified or not); its members then sign in by password again. Errors: NOT_FOUND. */
export class RemoveSsoDomain {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(organizationId: string, id: string) {
    if (!(await this.#deps.storage.sso.removeDomain(organizationId, id))) throw new AppError('NOT_FOUND', 'Domain not found');
    return { removed: true };
  }
}
