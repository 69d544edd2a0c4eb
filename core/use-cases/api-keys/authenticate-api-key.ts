import { AppError } from '../../errors.ts';
import { apiKeyAllowsAddress, apiKeyState, looksLikeApiKey, type ApiKeyScope } from '../../domain/api-key.ts';
import { normalizeIpAddress } from '../../domain/ip-address.ts';
import type { ApiKeyLookup } from '../../ports/api-key-lookup.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Secrets } from '../../ports/secrets.ts';

export interface AuthenticatedApiKey {
  id: string;
  organizationId: string;
  isSandbox: boolean;
  scopes: readonly ApiKeyScope[];
}

/**
 * Resolves an X-API-Key header to its organization. Errors: UNAUTHORIZED for an unknown, malformed,
 * revoked or expired key; API_KEY_ADDRESS_NOT_ALLOWED when the key has allowed address ranges and
 * `clientIp` is in none of them; FORBIDDEN when the key lacks the scope the route needs. A use is
 * recorded (time and address, throttled by the lookup, never awaited) only when it is accepted. SHA-256 only:
 * keys are long random secrets, so a slow hash would add cost without adding safety.
 */
export class AuthenticateApiKey {
  readonly #deps: { apiKeys: ApiKeyLookup; secrets: Secrets; clock: Clock };
  constructor(deps: { apiKeys: ApiKeyLookup; secrets: Secrets; clock: Clock }) { this.#deps = deps; }

  async execute(keyText: string, requiredScope: ApiKeyScope, clientIp: string | null = null): Promise<AuthenticatedApiKey> {
    if (!looksLikeApiKey(keyText)) throw new AppError('UNAUTHORIZED', 'Invalid API key');
    const key = await this.#deps.apiKeys.findByHash(this.#deps.secrets.sha256(keyText));
    if (!key) throw new AppError('UNAUTHORIZED', 'Invalid API key');
    const now = this.#deps.clock.now();
    const state = apiKeyState(key, now);
    if (state !== 'active') throw new AppError('UNAUTHORIZED', `API key has been ${state}`);
    const ip = clientIp === null ? null : normalizeIpAddress(clientIp);
    if (!apiKeyAllowsAddress(key, ip)) {
      throw new AppError('API_KEY_ADDRESS_NOT_ALLOWED', `This API key may not be used from ${ip ?? 'an unknown address'}; its allowed address ranges do not include it`);
    }
    if (!key.scopes.includes(requiredScope)) throw new AppError('FORBIDDEN', `API key lacks the ${requiredScope} scope`);
    this.#deps.apiKeys.markUsed(key.id, now, ip);
    return { id: key.id, organizationId: key.organizationId, isSandbox: key.isSandbox, scopes: key.scopes };
  }
}
