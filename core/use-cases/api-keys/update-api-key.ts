import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { apiKeyView } from '../../domain/api-key.ts';
import type { ApiKeyLookup } from '../../ports/api-key-lookup.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Storage } from '../../ports/storage.ts';
import { AllowedCidrsField, canonicalAllowedCidrs } from './allowed-cidrs-input.ts';
import type { ApiKeyView } from './list-api-keys.ts';

/** PATCH /api-keys/:id: `allowedCidrs` (required; `[]` lifts the restriction). */
export const UpdateApiKeyInput = v.object({ allowedCidrs: AllowedCidrsField });

/**
 * PATCH /api-keys/:id: replaces a key's allowed client address ranges. The request-path cache is told
 * to forget the key, so the change holds at once in this process (other API processes within the
 * cache's 10 s). Errors: VALIDATION_ERROR (not a range, more than 20), NOT_FOUND (unknown id or a
 * key of another organization).
 */
export class UpdateApiKey {
  readonly #deps: { storage: Storage; apiKeys: ApiKeyLookup; clock: Clock };
  constructor(deps: { storage: Storage; apiKeys: ApiKeyLookup; clock: Clock }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, id: string, raw: unknown): Promise<ApiKeyView> {
    const input = parseInput(UpdateApiKeyInput, raw);
    const ranges = canonicalAllowedCidrs(input.allowedCidrs);
    const { storage, apiKeys, clock } = this.#deps;
    const key = id.length > 0 && id.length <= 64 ? await storage.apiKeys.setAllowedCidrs(scope.organizationId, id, ranges) : null;
    if (!key) throw new AppError('NOT_FOUND', 'API key not found');
    apiKeys.forget(key.keyHash);
    return apiKeyView(key, clock.now());
  }
}
