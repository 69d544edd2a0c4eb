import { DEFAULT_PRICING_RULES } from '../../core/domain/pricing.ts';
import type { Database } from './database.ts';

/** Inserts the default pricing rules when the table is empty (a fresh install). Operators edit them afterwards. */
export async function seedPricingRules(database: Database, ids: { next(): string }): Promise<number> {
  return database.em().transactional(async (em) => {
    await em.execute('lock table pricing_rules in exclusive mode');
    const [row] = await em.execute<{ n: number | string }[]>('select count(*) as n from pricing_rules');
    if (Number(row?.n ?? 0) > 0) return 0;
    for (const rule of DEFAULT_PRICING_RULES) {
      await em.execute('insert into pricing_rules (id, channel, country, price_per_unit, unit) values (?, ?, ?, ?, ?)',
        [ids.next(), rule.channel, rule.country, rule.pricePerUnit, rule.unit]);
    }
    return DEFAULT_PRICING_RULES.length;
  });
}
