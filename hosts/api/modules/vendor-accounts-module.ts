import type { Container } from 'inversify';
import { AddVendorAccount } from '../../../core/use-cases/vendor-accounts/add-vendor-account.ts';
import { ListVendorAccounts } from '../../../core/use-cases/vendor-accounts/list-vendor-accounts.ts';
import { RemoveVendorAccount } from '../../../core/use-cases/vendor-accounts/remove-vendor-account.ts';
import { TestVendorAccount } from '../../../core/use-cases/vendor-accounts/test-vendor-account.ts';
import { UpdateVendorAccount } from '../../../core/use-cases/vendor-accounts/update-vendor-account.ts';
import type { VendorAccountDeps } from '../../../core/use-cases/vendor-accounts/vendor-account-support.ts';
import { MESSAGING } from '../../messaging-bindings.ts';
import { INFRA } from '../../tokens.ts';
import { vendorAccountRoutes } from '../routes/vendor-account-routes.ts';
import { API } from '../tokens.ts';

/** Organizations' own vendor accounts: stored with the providers, routed first for their owner's sends. */
export function bindVendorAccountsModule(container: Container): void {
  container.bind(API.routes).toResolvedValue((providers, runtime, storage, ids, clock, config) => {
    const deps: VendorAccountDeps = { providers, storage, ids, clock, check: (c, credentials) => runtime.check(c, credentials), egress: runtime.egress, onChanged: () => runtime.reload() };
    return vendorAccountRoutes({
      addVendorAccount: new AddVendorAccount(deps), updateVendorAccount: new UpdateVendorAccount(deps), removeVendorAccount: new RemoveVendorAccount(deps),
      listVendorAccounts: new ListVendorAccounts({ providers, ownAccountFee: config.ownAccountFee }),
      testVendorAccount: new TestVendorAccount({ providers, storage, ids, clock, send: (id, message) => runtime.sendThrough(id, message) }),
      publicUrl: config.publicUrl,
    });
  }, [MESSAGING.providerRepository, MESSAGING.runtime, INFRA.storage, INFRA.ids, INFRA.clock, INFRA.config]).inSingletonScope();
}
