import type { LinkSettings } from '../../core/domain/link-settings.ts';
import type { LinkSettingsRepository } from '../../core/ports/link-settings-repository.ts';
import type { TrackedLink, TrackedLinkRepository } from '../../core/ports/tracked-link-repository.ts';

/**
 * An in-process LRU over the redirect's lookups (docs/links.md, "Speed"): a link never changes once
 * recorded, so a hit is good until the link expires (checked by the caller); an unknown code is
 * remembered as unknown for NEGATIVE_TTL_MS only (a code is never reused, but a send may record it
 * later in theory: codes are random, so it never does in practice). The misses of one event-loop turn
 * are looked up together in one statement (`where code = any($1)`), so concurrent redirects of
 * different links share a round trip instead of queueing for pool connections.
 */
export class CachedTrackedLinks {
  static readonly NEGATIVE_TTL_MS = 5_000;
  /** Most codes looked up in one statement. */
  static readonly BATCH = 500;
  readonly #source: Pick<TrackedLinkRepository, 'findManyByCodes'>;
  readonly #max: number;
  readonly #entries = new Map<string, { link: TrackedLink | null; until: number }>();
  readonly #now: () => number;
  /** Misses waiting for the next batch lookup (all misses of one event-loop turn share one statement). */
  #waiting = new Map<string, Array<{ resolve: (link: TrackedLink | null) => void; reject: (error: unknown) => void }>>();

  constructor(source: Pick<TrackedLinkRepository, 'findManyByCodes'>, max = 50_000, now: () => number = Date.now) {
    this.#source = source; this.#max = max; this.#now = now;
  }

  findByCode(code: string): Promise<TrackedLink | null> {
    const hit = this.#entries.get(code);
    if (hit && (hit.link || hit.until > this.#now())) {
      this.#entries.delete(code); // move to the newest end
      this.#entries.set(code, hit);
      return Promise.resolve(hit.link);
    }
    return new Promise((resolve, reject) => {
      const waiters = this.#waiting.get(code);
      if (waiters) { waiters.push({ resolve, reject }); return; }
      this.#waiting.set(code, [{ resolve, reject }]);
      if (this.#waiting.size === 1) setImmediate(() => void this.#lookUp());
    });
  }

  async #lookUp(): Promise<void> {
    const batch = this.#waiting;
    this.#waiting = new Map();
    const codes = [...batch.keys()];
    for (let i = 0; i < codes.length; i += CachedTrackedLinks.BATCH) {
      const part = codes.slice(i, i + CachedTrackedLinks.BATCH);
      try {
        const found = new Map((await this.#source.findManyByCodes(part)).map((l) => [l.code, l]));
        for (const code of part) {
          const link = found.get(code) ?? null;
          if (this.#max > 0) {
            this.#entries.set(code, { link, until: this.#now() + CachedTrackedLinks.NEGATIVE_TTL_MS });
            if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
          }
          for (const w of batch.get(code)!) w.resolve(link);
        }
      } catch (error) {
        for (const code of part) for (const w of batch.get(code)!) w.reject(error);
      }
    }
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
