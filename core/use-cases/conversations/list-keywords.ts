import { OPT_IN_KEYWORDS, OPT_OUT_KEYWORDS, TENANT_KEYWORDS_MAX, tenantKeywordView } from '../../domain/inbound-keywords.ts';
import type { Storage } from '../../ports/storage.ts';

/** GET /conversations/keywords: the built-in keywords and the organization's own (docs/conversations.md, "Keywords"). */
export class ListKeywords {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    const own = await this.#deps.storage.conversations.listKeywords(scope.organizationId);
    return { builtIn: { OPT_OUT: OPT_OUT_KEYWORDS, OPT_IN: OPT_IN_KEYWORDS }, items: own.map(tenantKeywordView), limit: TENANT_KEYWORDS_MAX };
  }
}
