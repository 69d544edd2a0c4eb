import type { LookupMode } from '../../core/domain/mobile-network.ts';
import type { RoutingSettingsRepository } from '../../core/ports/routing-settings-repository.ts';

/**
 * Organizations' lookup modes cached per process for `ttlMs` (the send path asks per send when a lookup
 * vendor is configured: no statement per message). A change applies everywhere within the TTL, in this
 * process at once.
 */
export class CachedRoutingSettings implements RoutingSettingsRepository {
  readonly #inner: RoutingSettingsRepository;
  readonly #ttlMs: number;
  readonly #cached = new Map<string, { mode: LookupMode; until: number }>();
  constructor(inner: RoutingSettingsRepository, ttlMs = 10_000) { this.#inner = inner; this.#ttlMs = ttlMs; }

  async lookupMode(organizationId: string): Promise<LookupMode> {
    const hit = this.#cached.get(organizationId);
    if (hit && hit.until > Date.now()) return hit.mode;
    const mode = await this.#inner.lookupMode(organizationId);
    if (this.#cached.size >= 10_000) this.#cached.clear();
    this.#cached.set(organizationId, { mode, until: Date.now() + this.#ttlMs });
    return mode;
  }

  async setLookupMode(organizationId: string, mode: LookupMode, now: Date): Promise<void> {
    await this.#inner.setLookupMode(organizationId, mode, now);
    this.#cached.delete(organizationId);
  }
}
