import { vendorAccountView, TENANT_VENDOR_CHANNELS } from '../../domain/provider.ts';
import type { ProviderRepository } from '../../ports/provider-repository.ts';
import { ownedAccount, MAX_VENDOR_ACCOUNTS } from './vendor-account-support.ts';

/** GET /vendor-accounts and GET /vendor-accounts/{id}: the organization's own accounts only, with health; never credentials. */
export class ListVendorAccounts {
  readonly #deps: { providers: ProviderRepository; ownAccountFee: number };
  constructor(deps: { providers: ProviderRepository; ownAccountFee: number }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    const [accounts, latest] = await Promise.all([this.#deps.providers.listOwned(scope.organizationId), this.#deps.providers.latestHealth()]);
    return {
      items: accounts.map((a) => vendorAccountView(a, latest.get(a.id) ?? null)), limit: MAX_VENDOR_ACCOUNTS,
      supportedVendors: TENANT_VENDOR_CHANNELS, feePerMessage: this.#deps.ownAccountFee / 100, currency: 'GHS',
    };
  }

  async one(scope: { organizationId: string }, id: string) {
    const account = await ownedAccount(this.#deps, scope, id);
    const history = await this.#deps.providers.healthHistory(id, 20);
    return { ...vendorAccountView(account, history[0] ?? null), healthHistory: history.map((h) => ({ ok: h.ok, latencyMs: h.latencyMs, detail: h.detail, checkedAt: h.checkedAt.toISOString() })) };
  }
}
