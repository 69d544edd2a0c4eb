import type { InferEntity } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { API_KEY_TOUCH_INTERVAL_MS, type ApiKey, type ApiKeyScope } from '../../core/domain/api-key.ts';
import type { ApiKeyRepository } from '../../core/ports/api-key-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { ApiKeyEntity } from './entities/api-key-entity.ts';

type Row = InferEntity<typeof ApiKeyEntity>;

export class MikroOrmApiKeyRepository implements ApiKeyRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async insert(key: ApiKey): Promise<void> {
    await translateUniqueViolation('api key', () => this.#em.insert(ApiKeyEntity, { ...key }));
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const row = await this.#em.findOne(ApiKeyEntity, { keyHash }, { disableIdentityMap: true });
    return row ? toApiKey(row) : null;
  }

  async findById(organizationId: string, id: string): Promise<ApiKey | null> {
    const row = await this.#em.findOne(ApiKeyEntity, { organizationId, id }, { disableIdentityMap: true });
    return row ? toApiKey(row) : null;
  }

  async listByOrganization(organizationId: string, limit: number): Promise<ApiKey[]> {
    const rows = await this.#em.find(ApiKeyEntity, { organizationId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, disableIdentityMap: true });
    return rows.map(toApiKey);
  }

  async revoke(organizationId: string, id: string, now: Date): Promise<ApiKey | null> {
    await this.#em.nativeUpdate(ApiKeyEntity, { organizationId, id, revokedAt: null }, { revokedAt: now });
    return this.findById(organizationId, id);
  }

  async touchLastUsed(id: string, now: Date, ip: string | null): Promise<void> {
    const stale = new Date(now.getTime() - API_KEY_TOUCH_INTERVAL_MS);
    await this.#em.nativeUpdate(ApiKeyEntity, { id, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lte: stale } }] }, { lastUsedAt: now, lastUsedIp: ip });
  }

  async setAllowedCidrs(organizationId: string, id: string, allowedCidrs: readonly string[]): Promise<ApiKey | null> {
    const updated = await this.#em.nativeUpdate(ApiKeyEntity, { organizationId, id }, { allowedCidrs: [...allowedCidrs] });
    return updated > 0 ? this.findById(organizationId, id) : null;
  }
}

function toApiKey(row: Row): ApiKey {
  return {
    id: row.id, organizationId: row.organizationId, name: row.name, prefix: row.prefix, keyHash: row.keyHash,
    isSandbox: row.isSandbox, scopes: row.scopes as ApiKeyScope[], expiresAt: row.expiresAt ?? null, revokedAt: row.revokedAt ?? null,
    lastUsedAt: row.lastUsedAt ?? null, lastUsedIp: row.lastUsedIp ?? null, allowedCidrs: row.allowedCidrs ?? [], createdByUserId: row.createdByUserId, createdAt: row.createdAt,
  };
}
