import { AppError } from '../../errors.ts';
import { organizationView } from '../../domain/organization.ts';
import type { MemberRole } from '../../domain/roles.ts';
import { walletView } from '../../domain/wallet.ts';
import type { Storage } from '../../ports/storage.ts';
import { loadMembers } from './list-members.ts';

/**
 * GET /organizations/current: the caller's organization with its GHS wallet and its members
 * (at most MAX_MEMBERS_LISTED). Errors: NOT_FOUND when the organization no longer exists.
 */
export class GetCurrentOrganization {
  readonly #deps: { storage: Storage };
  constructor(deps: { storage: Storage }) { this.#deps = deps; }

  async execute(scope: { organizationId: string; userId: string; role: MemberRole }) {
    const { storage } = this.#deps;
    const organization = await storage.organizations.findById(scope.organizationId);
    if (!organization) throw new AppError('NOT_FOUND', 'Organization not found');
    const [wallet, members] = await Promise.all([storage.wallets.get(organization.id), loadMembers(storage, organization.id)]);
    return { ...organizationView(organization), wallet: wallet ? walletView(wallet) : null, members };
  }
}
