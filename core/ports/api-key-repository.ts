import type { ApiKey } from '../domain/api-key.ts';

/**
 * API keys, stored by SHA-256 hash. Tenant-scoped except `findByHash`, which is how a request's
 * key finds its organization in the first place.
 */
export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  findByHash(keyHash: string): Promise<ApiKey | null>;
  findById(organizationId: string, id: string): Promise<ApiKey | null>;
  /** Newest first, at most `limit`. */
  listByOrganization(organizationId: string, limit: number): Promise<ApiKey[]>;
  /** Marks the key revoked; returns the key, or null when it is not in this organization. */
  revoke(organizationId: string, id: string, now: Date): Promise<ApiKey | null>;
  /**
   * Records a use (when, and from which normalized client address) unless the recorded one is less
   * than API_KEY_TOUCH_INTERVAL_MS older than `now`: at most one row write per key per minute, however
   * many processes report uses.
   */
  touchLastUsed(id: string, now: Date, ip: string | null): Promise<void>;
  /** Replaces the key's allowed client address ranges; returns the key, or null when it is not in this organization. */
  setAllowedCidrs(organizationId: string, id: string, allowedCidrs: readonly string[]): Promise<ApiKey | null>;
}
