import { parseInput } from '../../validation.ts';
import { callbackPath, providerView } from '../../domain/provider.ts';
import type { AdminActor } from '../admin/admin-actor.ts';
import { ProviderDefinition } from './configure-providers.ts';
import { auditProviderChange, checkBuildable, type ProviderAdminDeps } from './provider-admin.ts';

/**
 * POST /admin/providers (platform administrators): adds a messaging provider: vendor, channel, routes
 * (countries, priority), settings and write-only credentials (encrypted at rest, never returned). The
 * configuration must build (known vendor, required credentials and settings: 400 otherwise); a name
 * already used is CONFLICT. Applied at once in this process and within seconds in every other one.
 * Audited as provider.create.
 */
export class CreateProvider {
  readonly #deps: ProviderAdminDeps;
  constructor(deps: ProviderAdminDeps) { this.#deps = deps; }

  async execute(admin: AdminActor, raw: unknown) {
    const input = parseInput(ProviderDefinition, raw);
    const fields = { name: input.name, vendor: input.vendor, channel: input.channel, priority: input.priority, active: input.active,
      countries: [...new Set(input.countries)], settings: input.settings, organizationId: null, platformFallback: true };
    checkBuildable(this.#deps, fields, input.credentials ?? {}, null);
    const created = await this.#deps.providers.create(fields, input.credentials ?? null, this.#deps.clock.now());
    await auditProviderChange(this.#deps, admin, 'provider.create', created, { vendor: created.vendor, channel: created.channel, credentials: Object.keys(input.credentials ?? {}) });
    await this.#deps.onChanged?.();
    return { ...providerView(created, null), callbackPath: callbackPath(created) }; // administrators only: GET /providers (every user) never shows it
  }
}
