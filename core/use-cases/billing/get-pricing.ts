import { pesewasToGhs } from '../../domain/money.ts';
import type { PricingRepository } from '../../ports/pricing-repository.ts';

/** The one plan the service sells today: prepaid, no subscription; messages are charged by the pricing rules. */
export const PLANS = [
  { id: 'payg', name: 'Pay as you go', currency: 'GHS', monthlyFee: 0, description: 'Prepaid GHS wallet topped up by mobile money or card; each message is charged by the pricing rules' },
] as const;

/** GET /billing/pricing: the active pricing rules (GHS per unit; country '*' = every other destination) and the plans. */
export class GetPricing {
  readonly #deps: { pricing: PricingRepository; ownAccountFee?: number };
  constructor(deps: { pricing: PricingRepository; ownAccountFee?: number }) { this.#deps = deps; }

  async execute() {
    const rules = await this.#deps.pricing.listActive();
    return {
      currency: 'GHS',
      rules: [...rules].sort((a, b) => a.channel.localeCompare(b.channel) || a.country.localeCompare(b.country))
        .map((r) => ({ channel: r.channel, country: r.country, unit: r.unit, price: pesewasToGhs(r.pricePerUnit) })),
      plans: PLANS,
      // What a message sent through the organization's own vendor account costs (docs/providers.md): the platform fee only.
      ownAccount: { feePerMessage: pesewasToGhs(this.#deps.ownAccountFee ?? 0), unit: 'MESSAGE',
        description: 'Charged per message delivered through your own vendor account; the vendor bills you directly. A fallback to the platform\'s providers is charged the difference to the price above.' },
    };
  }
}
