import { AppError } from '../../core/errors.ts';
import { API_KEY_TOUCH_INTERVAL_MS, type ApiKey } from '../../core/domain/api-key.ts';
import type { ApiKeyRepository } from '../../core/ports/api-key-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryApiKeyRepository implements ApiKeyRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(key: ApiKey): Promise<void> {
    if (this.#all().some((k) => k.keyHash === key.keyHash)) throw new AppError('CONFLICT', 'api key hash collision');
    this.#state.apiKeys.set(key.id, copy(key));
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const k = this.#all().find((x) => x.keyHash === keyHash);
    return k ? copy(k) : null;
  }

  async findById(organizationId: string, id: string): Promise<ApiKey | null> {
    const k = this.#state.apiKeys.get(id);
    return k && k.organizationId === organizationId ? copy(k) : null;
  }

  async listByOrganization(organizationId: string, limit: number): Promise<ApiKey[]> {
    return this.#all().filter((k) => k.organizationId === organizationId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id)).slice(0, limit).map(copy);
  }

  async revoke(organizationId: string, id: string, now: Date): Promise<ApiKey | null> {
    const k = this.#state.apiKeys.get(id);
    if (!k || k.organizationId !== organizationId) return null;
    k.revokedAt ??= now;
    return copy(k);
  }

  async touchLastUsed(id: string, now: Date, ip: string | null): Promise<void> {
    const k = this.#state.apiKeys.get(id);
    if (k && (!k.lastUsedAt || k.lastUsedAt.getTime() <= now.getTime() - API_KEY_TOUCH_INTERVAL_MS)) { k.lastUsedAt = now; k.lastUsedIp = ip; }
  }

  async setAllowedCidrs(organizationId: string, id: string, allowedCidrs: readonly string[]): Promise<ApiKey | null> {
    const k = this.#state.apiKeys.get(id);
    if (!k || k.organizationId !== organizationId) return null;
    k.allowedCidrs = [...allowedCidrs];
    return copy(k);
  }

  #all(): ApiKey[] { return [...this.#state.apiKeys.values()]; }
}
