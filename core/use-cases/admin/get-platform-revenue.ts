import { pesewasToGhs } from '../../domain/money.ts';
import { WALLET_CURRENCY } from '../../domain/wallet.ts';
import type { Storage } from '../../ports/storage.ts';

/**
 * GET /admin/revenue, in GHS. `totalRevenue` is the money tenants paid in (TOP_UP ledger entries);
 * `usageRevenue` is what their sends consumed (DEBIT minus REFUND entries) less what trial credit paid
 * for (trial credit is never revenue: `revenue.trialCredits` given, `trialCreditsUsed` spent); wallet
 * balances are what is still prepaid. `messageCount` counts every delivery log, rejected ones included.
 */
export class GetPlatformRevenue {
  readonly #deps: { storage: Pick<Storage, 'platformReports'> };
  constructor(deps: { storage: Pick<Storage, 'platformReports'> }) { this.#deps = deps; }

  async execute() {
    const t = await this.#deps.storage.platformReports.totals();
    const usage = t.debits - t.refunds - t.trialCreditsUsed; // sends paid with trial credit earned nothing
    return {
      currency: WALLET_CURRENCY,
      totalRevenue: pesewasToGhs(t.topUps),
      revenue: {
        topUps: pesewasToGhs(t.topUps), usage: pesewasToGhs(usage), debits: pesewasToGhs(t.debits), refunds: pesewasToGhs(t.refunds),
        trialCredits: pesewasToGhs(t.trialCredits), trialCreditsUsed: pesewasToGhs(t.trialCreditsUsed),
      },
      usageRevenue: pesewasToGhs(usage),
      messageCount: t.messageCount,
      walletBalances: { total: pesewasToGhs(t.walletBalance), wallets: t.walletCount },
    };
  }
}
