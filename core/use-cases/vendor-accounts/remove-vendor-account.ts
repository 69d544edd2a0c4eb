import { auditAccountChange, ownedAccount, type MemberScope, type VendorAccountDeps } from './vendor-account-support.ts';

/** DELETE /vendor-accounts/{id}: removes the organization's own account (and its credentials); its routes fall back to the platform's providers. Audited. */
export class RemoveVendorAccount {
  readonly #deps: VendorAccountDeps;
  constructor(deps: VendorAccountDeps) { this.#deps = deps; }

  async execute(scope: MemberScope, id: string) {
    const account = await ownedAccount(this.#deps, scope, id);
    await this.#deps.providers.delete(id);
    await auditAccountChange(this.#deps, scope, 'vendor-account.delete', account);
    await this.#deps.onChanged?.();
    return { id, deleted: true };
  }
}
