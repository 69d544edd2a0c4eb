import * as v from 'valibot';
import { AppError } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import { DEFAULT_ROUTE, vendorAccountView } from '../../domain/provider.ts';
import {
  auditAccountChange, checkAccountBuildable, MAX_VENDOR_ACCOUNTS, tenantVendorChannel, VENDOR_ACCOUNT_FIELDS, type MemberScope, type VendorAccountDeps,
} from './vendor-account-support.ts';

export const AddVendorAccountInput = v.object({
  name: VENDOR_ACCOUNT_FIELDS.name,
  vendor: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'is required'), v.maxLength(63, 'is too long')),
  priority: v.optional(VENDOR_ACCOUNT_FIELDS.priority, 1),
  active: v.optional(VENDOR_ACCOUNT_FIELDS.active, true),
  countries: v.optional(VENDOR_ACCOUNT_FIELDS.countries, [DEFAULT_ROUTE]),
  settings: v.optional(VENDOR_ACCOUNT_FIELDS.settings, {}),
  credentials: VENDOR_ACCOUNT_FIELDS.credentials,
  platformFallback: v.optional(VENDOR_ACCOUNT_FIELDS.platformFallback, true),
});

/**
 * POST /vendor-accounts: an organization adds its own account with a supported vendor (credentials
 * write-only, encrypted at rest). Its live sends on the account's routes go through it first (then the
 * platform's providers, unless `platformFallback` is false) and are charged the own-account fee. The
 * configuration must build (400 naming the field); a name the organization already uses is CONFLICT;
 * at most MAX_VENDOR_ACCOUNTS (LIMIT_REACHED). Applied within seconds in every process. Audited.
 */
export class AddVendorAccount {
  readonly #deps: VendorAccountDeps;
  constructor(deps: VendorAccountDeps) { this.#deps = deps; }

  async execute(scope: MemberScope, raw: unknown) {
    const input = parseInput(AddVendorAccountInput, raw);
    const channel = tenantVendorChannel(input.vendor);
    if ((await this.#deps.providers.listOwned(scope.organizationId)).length >= MAX_VENDOR_ACCOUNTS) throw limitReached();
    const fields = {
      name: input.name, vendor: input.vendor, channel, priority: input.priority, active: input.active, countries: [...new Set(input.countries)],
      settings: input.settings, organizationId: scope.organizationId, platformFallback: input.platformFallback,
    };
    checkAccountBuildable(this.#deps, fields, input.credentials, null);
    const created = await this.#deps.providers.createOwned(fields, input.credentials, this.#deps.clock.now(), MAX_VENDOR_ACCOUNTS);
    if (!created) throw limitReached(); // the early count above is only the common case: this one holds under concurrency
    await auditAccountChange(this.#deps, scope, 'vendor-account.create', created, { credentials: Object.keys(input.credentials) });
    await this.#deps.onChanged?.();
    return vendorAccountView(created, null);
  }
}

function limitReached(): AppError {
  return new AppError('LIMIT_REACHED', `An organization may hold at most ${MAX_VENDOR_ACCOUNTS} vendor accounts`, { limit: MAX_VENDOR_ACCOUNTS });
}
