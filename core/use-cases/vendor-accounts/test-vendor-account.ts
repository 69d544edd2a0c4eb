import type { Clock } from '../../ports/clock.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import type { ProviderRepository } from '../../ports/provider-repository.ts';
import type { Storage } from '../../ports/storage.ts';
import { sendTestThrough, type SendThroughProvider } from '../providers/send-provider-test-message.ts';
import { ownedAccount, type MemberScope } from './vendor-account-support.ts';

/**
 * POST /vendor-accounts/{id}/test-message: one message through exactly this own account, to check its
 * credentials and sender end to end (not recorded in delivery logs, not charged; audited as
 * vendor-account.test). The vendor's error, if any, is the organization's own account's error.
 */
export class TestVendorAccount {
  readonly #deps: { providers: ProviderRepository; storage: Pick<Storage, 'auditLog'>; ids: IdGenerator; clock: Clock; send: SendThroughProvider };
  constructor(deps: { providers: ProviderRepository; storage: Pick<Storage, 'auditLog'>; ids: IdGenerator; clock: Clock; send: SendThroughProvider }) { this.#deps = deps; }

  async execute(scope: MemberScope, id: string, raw: unknown) {
    const account = await ownedAccount(this.#deps, scope, id);
    return sendTestThrough(this.#deps, account, raw, { userId: scope.userId, organizationId: scope.organizationId, action: 'vendor-account.test', target: `vendor-account:${id}` });
  }
}
