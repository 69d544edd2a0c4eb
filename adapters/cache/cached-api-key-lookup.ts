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
 * Concurrent misses for one key share a single database read (no stampede when an entry expires
 * under load), and a read that was in flight when `forget` ran is not cached.
 */
export class CachedApiKeyLookup implements ApiKeyLookup {
  readonly #storage: Storage;
  readonly #options: CachedApiKeyLookupOptions;
  readonly #entries = new Map<string, { key: ApiKey | null; expiresAt: number }>();
  readonly #pending = new Map<string, Promise<ApiKey | null>>();
  readonly #touched = new Map<string, number>();
  /** Bumped by `forget`: a read that started before it may have seen the key unrevoked. */
  #generation = 0;

  constructor(storage: Storage, options: Partial<CachedApiKeyLookupOptions> = {}) {
    this.#storage = storage;
    this.#options = { ttlMs: 10_000, maxEntries: 10_000, touchIntervalMs: 60_000, ...options };
  }

  async findByHash(keyHash: string): Promise<ApiKey | null> {
    const cached = this.#entries.get(keyHash);
    if (cached && cached.expiresAt > Date.now()) return cached.key;
    const inFlight = this.#pending.get(keyHash);
    if (inFlight) return inFlight;
    const read = this.#read(keyHash);
    this.#pending.set(keyHash, read);
    try {
      return await read;
    } finally {
      if (this.#pending.get(keyHash) === read) this.#pending.delete(keyHash);
    }
  }

  async #read(keyHash: string): Promise<ApiKey | null> {
    const generation = this.#generation;
    const key = await this.#storage.apiKeys.findByHash(keyHash);
    if (generation !== this.#generation) return key;
    if (this.#entries.size >= this.#options.maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(keyHash, { key, expiresAt: Date.now() + (key ? this.#options.ttlMs : Math.min(this.#options.ttlMs, 2_000)) });
    return key;
  }

  forget(keyHash: string): void {
    this.#generation += 1;
    this.#entries.delete(keyHash);
    this.#pending.delete(keyHash);
  }

  /**
   * At most one write per key per `touchIntervalMs` (60 s) in this process, fire and forget: the
   * request never waits for it. The address shown is that of the use that was written.
   */
  markUsed(id: string, now: Date, ip: string | null): void {
    const last = this.#touched.get(id) ?? 0;
    if (now.getTime() - last < this.#options.touchIntervalMs) return;
    this.#touched.set(id, now.getTime());
    if (this.#touched.size > this.#options.maxEntries) this.#touched.delete(this.#touched.keys().next().value!);
    this.#storage.apiKeys.touchLastUsed(id, now, ip).catch((error: unknown) => this.#options.onError?.(error));
  }
}
