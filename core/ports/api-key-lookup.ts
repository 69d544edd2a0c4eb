import type { ApiKey } from '../domain/api-key.ts';

/**
 * Finds API keys by hash on the request path. Production wraps the repository in a short-lived
 * in-process cache (adapters/cache), so a revoked key may work for up to the cache TTL in other
 * processes; `forget` makes the revocation immediate in this one.
 */
export interface ApiKeyLookup {
  findByHash(keyHash: string): Promise<ApiKey | null>;
  forget(keyHash: string): void;
  /** Records use (time and client address); implementations may throttle and must not block the request. */
  markUsed(id: string, now: Date, ip: string | null): void;
}
