import { AppError } from '../../errors.ts';
import { pesewasToGhs, type Pesewas } from '../../domain/money.ts';
import { TRIAL_CREDIT_REFERENCE, walletView } from '../../domain/wallet.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * GET /billing/wallet: the organization's GHS balance, the threshold under which the owner is alerted, and
 * the trial credit it started with (GHS, 0 when none; part of the balance, never refundable).
 */
export class GetWallet {
  readonly #deps: { storage: Pick<Storage, 'wallets'>; lowBalanceThreshold: Pesewas };
  constructor(deps: { storage: Pick<Storage, 'wallets'>; lowBalanceThreshold: Pesewas }) { this.#deps = deps; }

  async execute(scope: { organizationId: string }) {
    const wallet = await this.#deps.storage.wallets.get(scope.organizationId);
    if (!wallet) throw new AppError('NOT_FOUND', 'Wallet not found');
    const trial = await this.#deps.storage.wallets.findEntry(scope.organizationId, 'TRIAL_CREDIT', TRIAL_CREDIT_REFERENCE);
    return { ...walletView(wallet), lowBalanceThreshold: pesewasToGhs(this.#deps.lowBalanceThreshold), trialCredit: pesewasToGhs(trial?.amount ?? 0) };
  }
}
