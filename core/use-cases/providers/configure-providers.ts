import * as v from 'valibot';
import { parseInput } from '../../validation.ts';
import { VENDOR_CHANNELS as CHANNELS } from '../../domain/channel.ts';
import { DEFAULT_ROUTE, type ProviderConfig } from '../../domain/provider.ts';
import type { Clock } from '../../ports/clock.ts';
import type { PlatformProviderFields, ProviderRepository, ProviderWithCredentials } from '../../ports/provider-repository.ts';

const country = v.pipe(v.string(), v.trim(), v.toUpperCase(), v.regex(/^([A-Z]{2}|\*)$/, 'must be an ISO 3166 alpha-2 code or *'));

/** A vendor's throughput limit as configured (`settings.ratePerSecond`, docs/providers.md "Rate shaping"): a decimal from 0.01 to 100000. */
function validRate(value: string): boolean {
  const rate = Number(value);
  return /^\d+(\.\d+)?$/.test(value.trim()) && rate >= 0.01 && rate <= 100_000;
}

/** Each field of a provider definition, alone (the PATCH of provider administration takes any of them). */
export const PROVIDER_FIELDS = {
  name: v.pipe(v.string('must be a string'), v.trim(), v.regex(/^[a-z0-9][a-z0-9._-]{1,62}$/, 'must be 2-63 lowercase letters, digits, dot, underscore or hyphen')),
  vendor: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(63, 'is too long')),
  channel: v.picklist(CHANNELS, `must be one of ${CHANNELS.join(', ')}`),
  priority: v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(0, 'must be at least 0'), v.maxValue(10_000, 'must be at most 10000')),
  active: v.boolean('must be true or false'),
  countries: v.pipe(v.array(country, 'must be an array of country codes'), v.minLength(1, 'must name at least one country or *'), v.maxLength(250, 'at most 250 countries')),
  settings: v.pipe(v.record(v.string(), v.pipe(v.string('values must be strings'), v.maxLength(2_000, 'values must be at most 2000 characters'))),
    v.check((s) => Object.keys(s).length <= 50, 'at most 50 settings'),
    v.check((s) => s['ratePerSecond'] === undefined || validRate(s['ratePerSecond']), 'ratePerSecond must be a number of messages per second from 0.01 to 100000')),
  credentials: v.pipe(v.record(v.string(), v.pipe(v.string('values must be strings'), v.maxLength(20_000, 'values are too long'))),
    v.check((s) => Object.keys(s).length <= 20, 'at most 20 credentials')),
};

export const ProviderDefinition = v.object({
  name: PROVIDER_FIELDS.name,
  vendor: PROVIDER_FIELDS.vendor,
  channel: PROVIDER_FIELDS.channel,
  priority: v.optional(PROVIDER_FIELDS.priority, 100),
  active: v.optional(PROVIDER_FIELDS.active, true),
  countries: v.optional(PROVIDER_FIELDS.countries, [DEFAULT_ROUTE]),
  settings: v.optional(PROVIDER_FIELDS.settings, {}),
  credentials: v.optional(PROVIDER_FIELDS.credentials),
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
    const current = new Map((await this.#deps.providers.listWithCredentials())
      .filter((p) => p.config.organizationId === null).map((p) => [p.config.name, p]));
    const stored: ProviderConfig[] = [];
    for (const p of input.providers) {
      const fields = {
        name: p.name, vendor: p.vendor, channel: p.channel, priority: p.priority, active: p.active,
        countries: [...new Set(p.countries)], settings: p.settings,
      };
      const existing = current.get(p.name);
      // Unchanged: left alone, so a process starting with the same file does not make the running ones
      // rebuild the provider (which would reset its circuit breaker and health).
      if (existing && unchanged(existing, fields, p.credentials ?? null)) { stored.push(existing.config); continue; }
      stored.push(await this.#deps.providers.upsert(fields, p.credentials ?? null, this.#deps.clock.now()));
    }
    return stored;
  }
}

/** The file's entry says what is stored already (countries in any order; credentials left out keep the stored ones). */
function unchanged(existing: ProviderWithCredentials, fields: PlatformProviderFields, credentials: Record<string, string> | null): boolean {
  const c = existing.config;
  return c.vendor === fields.vendor && c.channel === fields.channel && c.priority === fields.priority && c.active === fields.active
    && [...c.countries].sort().join() === [...fields.countries].sort().join()
    && sameRecord(c.settings, fields.settings)
    && (credentials === null || (!existing.credentialsError && sameRecord(existing.credentials, credentials)));
}

/** Same keys and values, in any order (the database keeps JSON objects in its own key order). */
function sameRecord(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}
