import type { ApiKey } from '../../core/domain/api-key.ts';
import type { ApiKeyLookup } from '../../core/ports/api-key-lookup.ts';
import type { Storage } from '../../core/ports/storage.ts';

export interface CachedApiKeyLookupOptions {
  ttlMs: number;
  maxEntries: number;
  /** Minimum interval between lastUsedAt writes for one key. */
  touchIntervalMs: number;
  onError?: (error: unknown) => void;
}

/**
 * An in-process, bounded, TTL cache in front of the API key repository so the hot request path does
 * not hit the database. Unknown keys are cached too (briefly) so a flood of bad keys stays cheap.
 */
export class CachedApiKeyLookup implements ApiKeyLookup {
  readonly #storage: Storage;
  readonly #options: CachedApiKeyLookupOptions;
  readonly #entries = new Map<string, { key: ApiKey | null; expiresAt: number }>();
  readonly #touched = new Map<string, number>();

  constructor(storage: Storage, options: Partial<CachedApiKeyLookupOptions> = {}) {
    this.#storage = storage;
    this.#options = { ttlMs: 10_000, maxEntries: 10_000, touchIntervalMs: 60_000, ...options };
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const now = Date.now();
    const cached = this.#entries.get(keyHash);
    if (cached && cached.expiresAt > now) return cached.key;
    const key = await this.#storage.apiKeys.findByHash(keyHash);
    if (this.#entries.size >= this.#options.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(keyHash, { key, expiresAt: now + (key ? this.#options.ttlMs : Math.min(this.#options.ttlMs, 2_000)) });
    return key;
  }

  forget(keyHash: string): void {
    this.#entries.delete(keyHash);
  }

  markUsed(id: string, now: Date): void {
    const last = this.#touched.get(id) ?? 0;
    if (now.getTime() - last < this.#options.touchIntervalMs) return;
    this.#touched.set(id, now.getTime());
    if (this.#touched.size > this.#options.maxEntries) this.#touched.delete(this.#touched.keys().next().value!);
    this.#storage.apiKeys.touchLastUsed(id, now).catch((error: unknown) => this.#options.onError?.(error));
  }
}
