import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { CHANNELS } from '../../domain/channel.ts';
import { DEFAULT_ROUTE, type ProviderConfig } from '../../domain/provider.ts';
import type { Clock } from '../../ports/clock.ts';
import type { ProviderRepository } from '../../ports/provider-repository.ts';

const country = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^([A-Z]{2}|\*)$/, 'must be an ISO 3166 alpha-2 code or *'));

export const ProviderDefinition = v.object({
  name: v.pipe(v.string(), v.trim(), v.regex(/^[a-z0-9][a-z0-9._-]{1,62}$/, 'must be 2-63 lowercase letters, digits, dot, underscore or hyphen')),
  vendor: v.pipe(v.string(), v.trim(), v.minLength(1)),
  channel: v.picklist(CHANNELS),
  priority: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000)), 100),
  active: v.optional(v.boolean(), true),
  countries: v.optional(v.pipe(v.array(country), v.minLength(1), v.maxLength(250)), [DEFAULT_ROUTE]),
  settings: v.optional(v.record(v.string(), v.pipe(v.string(), v.maxLength(2_000))), {}),
  credentials: v.optional(v.record(v.string(), v.pipe(v.string(), v.maxLength(20_000)))),
});

export const ProvidersConfigInput = v.object({
  providers: v.pipe(v.array(ProviderDefinition), v.maxLength(100)),
});

/**
 * Applies the platform's provider configuration (from PROVIDERS_FILE at start): upserts every
 * provider by name, encrypting credentials at rest. Providers missing from the file are left as they
 * are (deactivate them with `active: false`). Returns the stored configuration, without credentials.
 */
export class ConfigureProviders {
  readonly #deps: { providers: ProviderRepository; clock: Clock };
  constructor(deps: { providers: ProviderRepository; clock: Clock }) { this.#deps = deps; }

  async execute(raw: unknown): Promise<ProviderConfig[]> {
    const input = parseInput(ProvidersConfigInput, raw);
    const stored: ProviderConfig[] = [];
    for (const p of input.providers) {
      stored.push(await this.#deps.providers.upsert({
        name: p.name, vendor: p.vendor, channel: p.channel, priority: p.priority, active: p.active,
        countries: [...new Set(p.countries)], settings: p.settings,
      }, p.credentials ?? null, this.#deps.clock.now()));
    }
    return stored;
  }
}
