import { DEFAULT_PRICING_RULES, type PricingRule } from '../../core/domain/pricing.ts';
import type { PricingRepository } from '../../core/ports/pricing-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

/** Pricing rules in memory, starting from the seeded defaults (tests may replace `state.pricingRules`). */
export class InMemoryPricingRepository implements PricingRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) {
    this.#state = state;
    if (state.pricingRules.length === 0) state.pricingRules = DEFAULT_PRICING_RULES.map(copy);
  }

  async listActive(): Promise<PricingRule[]> { return this.#state.pricingRules.map(copy); }
}
