import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { vendorAccountView } from '../../domain/provider.ts';
import { auditAccountChange, checkAccountBuildable, ownedAccount, VENDOR_ACCOUNT_FIELDS, type MemberScope, type VendorAccountDeps } from './vendor-account-support.ts';

export const UpdateVendorAccountInput = v.object(Object.fromEntries(Object.entries(VENDOR_ACCOUNT_FIELDS).map(([k, s]) => [k, v.optional(s)])) as {
  [K in keyof typeof VENDOR_ACCOUNT_FIELDS]: v.OptionalSchema<(typeof VENDOR_ACCOUNT_FIELDS)[K], undefined>
});

/**
 * PATCH /vendor-accounts/{id}: changes the organization's own account (routes, priority, settings,
 * active, platformFallback); `credentials`, when given, replace the stored ones (rotation: sends in
 * flight finish on the old adapter, new ones use the new credentials). NOT_FOUND for anything but the
 * organization's own account. Audited.
 */
export class UpdateVendorAccount {
  readonly #deps: VendorAccountDeps;
  constructor(deps: VendorAccountDeps) { this.#deps = deps; }

  async execute(scope: MemberScope, id: string, raw: unknown) {
    const input = parseInput(UpdateVendorAccountInput, raw);
    await ownedAccount(this.#deps, scope, id);
    const current = await this.#deps.providers.findWithCredentials(id);
    if (!current || current.config.organizationId !== scope.organizationId) throw new AppError('NOT_FOUND', 'Vendor account not found');
    const { credentials, ...changes } = input;
    const c = current.config;
    const fields = {
      name: changes.name ?? c.name, vendor: c.vendor, channel: c.channel, priority: changes.priority ?? c.priority, active: changes.active ?? c.active,
      countries: changes.countries ? [...new Set(changes.countries)] : c.countries, settings: changes.settings ?? c.settings,
      organizationId: scope.organizationId, platformFallback: changes.platformFallback ?? c.platformFallback,
    };
    checkAccountBuildable(this.#deps, fields, credentials ?? current.credentials, c);
    const updated = await this.#deps.providers.update(id, fields, credentials ?? null, this.#deps.clock.now());
    if (!updated) throw new AppError('NOT_FOUND', 'Vendor account not found');
    await auditAccountChange(this.#deps, scope, 'vendor-account.update', updated, {
      changed: Object.keys(changes).filter((k) => changes[k as keyof typeof changes] !== undefined), credentialsRotated: credentials !== undefined,
    });
    await this.#deps.onChanged?.();
    return vendorAccountView(updated, null);
  }
}
