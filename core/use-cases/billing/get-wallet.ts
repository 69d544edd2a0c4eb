import { AppError } from '../../errors.ts';
import { pesewasToGhs, type Pesewas } from '../../domain/money.ts';
import { walletView } from '../../domain/wallet.ts';
import type { Storage } from '../../ports/storage.ts';

/** GET /billing/wallet: the organization's GHS balance, and the threshold under which the owner is alerted. */
export class GetWallet {
  readonly #deps: { storage: Pick<Storage, 'wallets'>; lowBalanceThreshold: Pesewas };
  constructor(deps: { storage: Pick<Storage, 'wallets'>; lowBalanceThreshold: Pesewas }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    const wallet = await this.#deps.storage.wallets.get(scope.organizationId);
    if (!wallet) throw new AppError('NOT_FOUND', 'Wallet not found');
    return { ...walletView(wallet), lowBalanceThreshold: pesewasToGhs(this.#deps.lowBalanceThreshold) };
  }
}
