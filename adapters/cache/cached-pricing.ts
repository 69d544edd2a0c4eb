import type { PricingRule } from '../../core/domain/pricing.ts';
import type { PricingRepository } from '../../core/ports/pricing-repository.ts';

/** Pricing rules cached in process for `ttlMs` (they change rarely; every send reads them). */
export class CachedPricing implements PricingRepository {
  readonly #source: () => PricingRepository;
  readonly #ttlMs: number;
  #cached: { rules: Promise<PricingRule[]>; until: number } | null = null;
  constructor(source: () => PricingRepository, ttlMs = 30_000) { this.#source = source; this.#ttlMs = ttlMs; }

  listActive(): Promise<PricingRule[]> {
    const now = Date.now();
    if (!this.#cached || this.#cached.until <= now) {
      const rules = this.#source().listActive();
      this.#cached = { rules, until: now + this.#ttlMs };
      rules.catch(() => { this.#cached = null; });
    }
    return this.#cached.rules;
  }

  /** Forgets the cached rules (after this process changed a price: a network route's). */
  invalidate(): void { this.#cached = null; }
}
