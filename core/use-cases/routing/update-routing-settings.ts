import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { LOOKUP_MODES } from '../../domain/mobile-network.ts';
import type { Clock } from '../../ports/clock.ts';
import type { RoutingSettingsRepository } from '../../ports/routing-settings-repository.ts';

export const RoutingSettingsInput = v.object({
  lookupMode: v.picklist(LOOKUP_MODES, `must be one of ${LOOKUP_MODES.join(', ')}`),
});

/**
 * PUT /routing/settings: the organization's paid number lookup mode (docs/routing.md): 'off', 'unknown'
 * (numbers no prefix or report places) or 'always' (every number not known from a lookup or report).
 * `lookupAvailable` says whether the platform has a lookup vendor and `lookupPrice` what one costs (GHS).
 */
export class UpdateRoutingSettings {
  readonly #deps: { settings: RoutingSettingsRepository; clock: Clock; lookupAvailable: boolean; lookupPrice: number };
  constructor(deps: { settings: RoutingSettingsRepository; clock: Clock; lookupAvailable: boolean; lookupPrice: number }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }, raw: unknown) {
    const input = parseInput(RoutingSettingsInput, raw);
    await this.#deps.settings.setLookupMode(scope.organizationId, input.lookupMode, this.#deps.clock.now());
    return { lookupMode: input.lookupMode, lookupAvailable: this.#deps.lookupAvailable, lookupPrice: this.#deps.lookupPrice / 100 };
  }

  /** GET /routing/settings. */
  async get(scope: { organizationId: string }) {
    return { lookupMode: await this.#deps.settings.lookupMode(scope.organizationId), lookupAvailable: this.#deps.lookupAvailable, lookupPrice: this.#deps.lookupPrice / 100 };
  }
}
