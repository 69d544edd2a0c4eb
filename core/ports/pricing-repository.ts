import type { PricingRule } from '../domain/pricing.ts';

/** Active pricing rules (platform-wide). Seeded with defaults by a migration. */
export interface PricingRepository {
  listActive(): Promise<PricingRule[]>;
}
