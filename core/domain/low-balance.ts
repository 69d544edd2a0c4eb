import type { Pesewas } from './money.ts';
import type { LedgerEntry } from './wallet.ts';

/**
 * True when this ledger entry is a debit that took the balance from at or above `threshold` to below
 * it: one crossing, one alert. Entries are written under the wallet row lock, so each crossing is seen
 * by exactly one debit; a top-up back above the threshold re-arms the alert. A threshold of 0 is off.
 */
export function crossedBelowThreshold(entry: Pick<LedgerEntry, 'amount' | 'balanceAfter'>, threshold: Pesewas): boolean {
  if (threshold <= 0 || entry.amount >= 0) return false;
  const before = entry.balanceAfter - entry.amount;
  return before >= threshold && entry.balanceAfter < threshold;
}
