import type { ChannelUsage, LedgerSummary } from '../domain/payment.ts';

/**
 * Read-only billing aggregates over the messages table and the wallet ledger. Tenant-scoped; periods
 * are half-open [from, to). Bounded by construction (one row per channel; sums).
 */
export interface BillingReportRepository {
  /**
   * Per channel with at least one message: messages not REJECTED, their SMS segments and their net
   * cost (refunded messages cost 0). Sandbox messages count with cost 0.
   */
  usageByChannel(organizationId: string, from: Date, to: Date): Promise<ChannelUsage[]>;
  /** Sums of ledger amounts by kind within the period, and the ledger sum before it (the opening balance). */
  ledgerSummary(organizationId: string, from: Date, to: Date): Promise<LedgerSummary>;
  /** Ids of organizations with a wallet, in id order after `afterId`, at most `limit` (paging for the statement run). */
  organizationsWithWallets(afterId: string | null, limit: number): Promise<string[]>;
}
