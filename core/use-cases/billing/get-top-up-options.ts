import { pesewasToGhs } from '../../domain/money.ts';
import type { TopUpLimits } from '../../domain/payment.ts';

export interface TopUpOptions {
  currency: 'GHS';
  minAmount: number;
  maxAmount: number;
  presets: number[];
  gateway: string;
  available: boolean;
}

/** GET /billing/top-up-options: the live limits (spec section 8 defaults, configurable) and whether a gateway is configured. */
export class GetTopUpOptions {
  readonly #deps: { limits: TopUpLimits; gateway: { name: string } | null };
  constructor(deps: { limits: TopUpLimits; gateway: { name: string } | null }) { this.#deps = deps; }

  execute(): TopUpOptions {
    const { limits, gateway } = this.#deps;
    return {
      currency: 'GHS', minAmount: pesewasToGhs(limits.min), maxAmount: pesewasToGhs(limits.max),
      presets: limits.presets.map(pesewasToGhs), gateway: gateway?.name ?? 'none', available: gateway !== null,
    };
  }
}
