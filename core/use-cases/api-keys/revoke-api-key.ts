import { AppError } from '../../errors.ts';
import { apiKeyView } from '../../domain/api-key.ts';
import type { ApiKeyLookup } from '../../ports/api-key-lookup.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import type { ApiKeyView } from './list-api-keys.ts';

export interface RevokeApiKeyDeps {
  storage: Storage;
  /** The request-path cache, told to forget the key so the revocation bites at once in this process. */
  apiKeys: ApiKeyLookup;
  clock: Clock;
}

/**
 * DELETE /api-keys/:id: revokes a key of the caller's organization. Idempotent: revoking a revoked
 * key answers the same view with its original revokedAt. Errors: NOT_FOUND for an unknown id or a
 * key of another organization (indistinguishable by design).
 */
export class RevokeApiKey {
  readonly #deps: RevokeApiKeyDeps;
  constructor(deps: RevokeApiKeyDeps) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string): Promise<ApiKeyView> {
    const { storage, apiKeys, clock } = this.#deps;
    const now = clock.now();
    const key = id.length > 0 && id.length <= 64 ? await storage.apiKeys.revoke(scope.organizationId, id, now) : null;
    if (!key) throw new AppError('NOT_FOUND', 'API key not found');
    apiKeys.forget(key.keyHash);
    return apiKeyView(key, now);
  }
}
