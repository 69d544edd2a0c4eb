import type { EntityManager } from '@mikro-orm/sql';
import type { Channel } from '../../core/domain/channel.ts';
import type { PricingRule } from '../../core/domain/pricing.ts';
import type { PricingRepository } from '../../core/ports/pricing-repository.ts';

/** Active pricing rules, read with SQL (a small platform table; the send path caches it, see CachedPricing). */
export class SqlPricingRepository implements PricingRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async listActive(): Promise<PricingRule[]> {
    const rows = await this.#em.execute<{ channel: string; country: string; price_per_unit: string | number; unit: string }[]>(
      'select channel, country, price_per_unit, unit from pricing_rules where active order by channel, country');
    return rows.map((r) => ({ channel: r.channel as Channel, country: r.country, pricePerUnit: Number(r.price_per_unit), unit: r.unit as PricingRule['unit'] }));
  }
}
