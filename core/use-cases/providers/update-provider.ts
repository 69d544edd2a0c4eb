import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { callbackPath, providerView } from '../../domain/provider.ts';
import type { AdminActor } from '../admin/admin-actor.ts';
import { auditProviderChange, checkBuildable, ProviderPatch, type ProviderAdminDeps } from './provider-admin.ts';

/**
 * PATCH /admin/providers/{id}: changes routes, priority, settings, activation (`active: false`
 * deactivates), or rotates credentials (given ones replace the stored set; sends already in flight
 * finish on the adapter they started with, new ones use the new credentials: no downtime). The
 * result must still build (400 otherwise). NOT_FOUND for an unknown id. Audited as provider.update
 * with the names of the changed fields (credential values never).
 */
export class UpdateProvider {
  readonly #deps: ProviderAdminDeps;
  constructor(deps: ProviderAdminDeps) { this.#deps = deps; }

  async execute(admin: AdminActor, id: string, raw: unknown) {
    const input = parseInput(ProviderPatch, raw);
    const current = await this.#deps.providers.findWithCredentials(id);
    // Organizations' own accounts are theirs to manage (/vendor-accounts), not the platform administrators'.
    if (!current || current.config.organizationId !== null) throw new AppError('NOT_FOUND', 'Provider not found');
    const { credentials, ...changes } = input;
    const c = current.config;
    const fields = {
      name: changes.name ?? c.name, vendor: changes.vendor ?? c.vendor, channel: changes.channel ?? c.channel, priority: changes.priority ?? c.priority,
      active: changes.active ?? c.active, countries: changes.countries ? [...new Set(changes.countries)] : c.countries, settings: changes.settings ?? c.settings,
      organizationId: null, platformFallback: true,
    };
    checkBuildable(this.#deps, fields, credentials ?? current.credentials, current.config);
    const updated = await this.#deps.providers.update(id, fields, credentials ?? null, this.#deps.clock.now());
    if (!updated) throw new AppError('NOT_FOUND', 'Provider not found');
    await auditProviderChange(this.#deps, admin, 'provider.update', updated, { changed: Object.keys(changes).filter((k) => changes[k as keyof typeof changes] !== undefined), credentialsRotated: credentials !== undefined });
    await this.#deps.onChanged?.();
    return { ...providerView(updated, null), callbackPath: callbackPath(updated) }; // administrators only: GET /providers (every user) never shows it
  }
}
