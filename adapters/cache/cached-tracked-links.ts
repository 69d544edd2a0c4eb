import type { LinkSettings } from '../../core/domain/link-settings.ts';
import type { LinkSettingsRepository } from '../../core/ports/link-settings-repository.ts';
import type { TrackedLink } from '../../core/ports/tracked-link-repository.ts';

/**
 * An in-process LRU over the redirect's lookups (docs/links.md, "Speed"): a link never changes once
 * recorded, so a hit is good until the link expires (checked by the caller); an unknown code is
 * remembered as unknown for NEGATIVE_TTL_MS only (a code is never reused, but a send may record it
 * later in theory: codes are random, so it never does in practice).
 */
export class CachedTrackedLinks {
  static readonly NEGATIVE_TTL_MS = 5_000;
  readonly #source: { findByCode(code: string): Promise<TrackedLink | null> };
  readonly #max: number;
  readonly #entries = new Map<string, { link: TrackedLink | null; until: number }>();
  readonly #now: () => number;

  constructor(source: { findByCode(code: string): Promise<TrackedLink | null> }, max = 50_000, now: () => number = Date.now) {
    this.#source = source; this.#max = max; this.#now = now;
  }

  async findByCode(code: string): Promise<TrackedLink | null> {
    const hit = this.#entries.get(code);
    if (hit && (hit.link || hit.until > this.#now())) {
      this.#entries.delete(code); // move to the newest end
      this.#entries.set(code, hit);
      return hit.link;
    }
    const link = await this.#source.findByCode(code);
    if (this.#max === 0) return link;
    this.#entries.set(code, { link, until: this.#now() + CachedTrackedLinks.NEGATIVE_TTL_MS });
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
    return link;
  }
}

/**
 * Link settings read on every send and custom domains on every redirect to one: kept TTL_MS, so a change
 * (tracking turned off, a domain verified) applies within that time in every process.
 */
export class CachedLinkSettings implements Pick<LinkSettingsRepository, 'find' | 'findByVerifiedDomain'> {
  static readonly TTL_MS = 5_000;
  readonly #source: Pick<LinkSettingsRepository, 'find' | 'findByVerifiedDomain'>;
  readonly #byOrg = new Map<string, { value: LinkSettings | null; until: number }>();
  readonly #byDomain = new Map<string, { value: LinkSettings | null; until: number }>();
  readonly #now: () => number;
  constructor(source: Pick<LinkSettingsRepository, 'find' | 'findByVerifiedDomain'>, now: () => number = Date.now) { this.#source = source; this.#now = now; }

  /** Drops what this process holds for an organization (its settings just changed here; other processes follow within TTL_MS). */
  forget(organizationId: string): void {
    this.#byOrg.delete(organizationId);
    this.#byDomain.clear();
  }

  find(organizationId: string): Promise<LinkSettings | null> {
    return this.#cached(this.#byOrg, organizationId, () => this.#source.find(organizationId));
  }

  findByVerifiedDomain(domain: string): Promise<LinkSettings | null> {
    return this.#cached(this.#byDomain, domain, () => this.#source.findByVerifiedDomain(domain));
  }

  async #cached(map: Map<string, { value: LinkSettings | null; until: number }>, key: string, load: () => Promise<LinkSettings | null>): Promise<LinkSettings | null> {
    const hit = map.get(key);
    if (hit && hit.until > this.#now()) return hit.value;
    const value = await load();
    if (map.size >= 10_000) map.clear();
    map.set(key, { value, until: this.#now() + CachedLinkSettings.TTL_MS });
    return value;
  }
}
