import { apiKeyView } from '../../domain/api-key.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';

/** Upper bound on API keys listed for one organization. */
export const MAX_API_KEYS_LISTED = 100;

export type ApiKeyView = ReturnType<typeof apiKeyView>;

/**
 * GET /api-keys: the organization's keys, newest first, at most {@link MAX_API_KEYS_LISTED}. Shows
 * prefixes only: never the key text (not stored) nor its hash.
 */
export class ListApiKeys {
  readonly #deps: { storage: Storage; clock: Clock };
  constructor(deps: { storage: Storage; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }): Promise<ApiKeyView[]> {
    const keys = await this.#deps.storage.apiKeys.listByOrganization(scope.organizationId, MAX_API_KEYS_LISTED);
    const now = this.#deps.clock.now();
    return keys.map((key) => apiKeyView(key, now));
  }
}
