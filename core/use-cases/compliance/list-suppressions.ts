import * as v from 'valibot';
import type { Storage } from '../../ports/storage.ts';
import { parseInput } from '../../validation.ts';
import { pageQueryFields, toPage, withoutBlankValues, type Page } from './page-query.ts';
import { suppressionView, type SuppressionView } from './suppression-view.ts';

export const ListSuppressionsInput = v.object({ ...pageQueryFields });

/** GET /compliance/suppression: the organization's entries, newest first, paged. Errors: VALIDATION_ERROR. */
export class ListSuppressions {
  readonly #deps: { storage: Pick<Storage, 'suppressions'> };
  constructor(deps: { storage: Pick<Storage, 'suppressions'> }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, query: unknown = {}): Promise<Page<SuppressionView>> {
    const { page, limit } = parseInput(ListSuppressionsInput, withoutBlankValues(query));
    const found = await this.#deps.storage.suppressions.list(scope.organizationId, (page - 1) * limit, limit);
    return toPage(found.items.map(suppressionView), page, limit, found.total);
  }
}
