import type { EntityManager } from '@mikro-orm/sql';
import type { Channel } from '../../core/domain/channel.ts';
import type { PricingRule } from '../../core/domain/pricing.ts';
import type { PricingRepository } from '../../core/ports/pricing-repository.ts';

/** Active pricing rules and network route prices, read with SQL (small platform tables; the send path caches them, see CachedPricing). */
export class SqlPricingRepository implements PricingRepository {
  readonly #em: EntityManager;
  constructor(em: EntityManager) { this.#em = em; }

  async listActive(): Promise<PricingRule[]> {
    // Network routes with a price are pricing rules for their network (docs/routing.md): one list, one findRule.
    const rows = await this.#em.execute<{ channel: string; country: string; network: string | null; price_per_unit: string | number; unit: string }[]>(
      `select channel, country, null as network, price_per_unit, unit from pricing_rules where active
       union all
       select channel, country, network, price_per_unit, case when channel = 'SMS' then 'segment' else 'message' end from network_routes where price_per_unit is not null
       order by 1, 2, 3 nulls first`);
    return rows.map((r) => ({
      channel: r.channel as Channel, country: r.country, pricePerUnit: Number(r.price_per_unit), unit: r.unit as PricingRule['unit'], ...(r.network ? { network: r.network } : {}),
    }));
  }
}
