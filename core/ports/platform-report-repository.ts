import type { Pesewas } from '../domain/money.ts';
import type { Organization } from '../domain/organization.ts';

export interface TenantSummary {
  organization: Organization;
  /** 0 for an organization without a wallet. */
  walletBalance: Pesewas;
  memberCount: number;
}

export interface PlatformTotals {
  /** Sum of TOP_UP ledger entries. */
  topUps: Pesewas;
  /** Sum of DEBIT entries, as a positive amount. */
  debits: Pesewas;
  /** Sum of REFUND entries. */
  refunds: Pesewas;
  /** Sum of TRIAL_CREDIT entries: credit given, not paid. */
  trialCredits: Pesewas;
  /**
   * The part of the trial credits that sends consumed: per organization, the smaller of its trial
   * credit and its net usage (DEBIT minus REFUND), trial money counting as spent first.
   */
  trialCreditsUsed: Pesewas;
  /** Every delivery log ever recorded (rejected ones included). */
  messageCount: number;
  walletBalance: Pesewas;
  walletCount: number;
}

/**
 * Cross-tenant read models for platform administrators only (never reachable from a tenant route).
 * `listTenants` orders newest first and matches `search` case-insensitively against the name, or
 * exactly against the id; `limit` is capped at 100 by callers.
 */
export interface PlatformReportRepository {
  listTenants(options: { search?: string | undefined; offset: number; limit: number }): Promise<{ items: TenantSummary[]; total: number }>;
  totals(): Promise<PlatformTotals>;
}
