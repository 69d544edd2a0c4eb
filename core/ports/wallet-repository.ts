import type { LedgerEntry, Wallet, WalletChange } from '../domain/wallet.ts';

export interface WalletUpdate {
  wallet: Wallet;
  /** The ledger entry written, or null when `decide` returned null (nothing changed). */
  entry: LedgerEntry | null;
}

/**
 * One GHS wallet per organization plus its ledger. Balances change only through `update`, which
 * locks the wallet row, asks `decide` for the change, checks it (a balance never goes negative:
 * AppError INSUFFICIENT_BALANCE) and writes the new balance and one ledger entry in the same
 * transaction. A ledger reference is unique per organization and kind: repeating one throws
 * AppError CONFLICT, which makes credits idempotent.
 */
export interface WalletRepository {
  create(organizationId: string, now: Date): Promise<Wallet>;
  get(organizationId: string): Promise<Wallet | null>;
  update(organizationId: string, decide: (wallet: Wallet) => WalletChange | null, now: Date): Promise<WalletUpdate>;
  /**
   * Locks the wallet rows of these organizations for the rest of the transaction (SELECT ... FOR UPDATE,
   * in organization id order, so batches locking overlapping sets cannot deadlock) and returns them;
   * unknown organizations are absent. The group commit of sends locks a batch's wallets with it.
   */
  lockMany(organizationIds: readonly string[]): Promise<Wallet[]>;
  /**
   * Applies one change per organization in one statement, each only where the balance stays >= 0 (the
   * same rule as `update`): answers, per change, the ledger entry written, or null when the balance
   * did not cover it (nothing written for that organization). A reference used before throws CONFLICT
   * (nothing written at all). At most one change per organization (RangeError otherwise).
   */
  applyMany(changes: ReadonlyArray<{ organizationId: string; change: WalletChange }>, now: Date): Promise<Array<LedgerEntry | null>>;
  findEntry(organizationId: string, kind: LedgerEntry['kind'], reference: string): Promise<LedgerEntry | null>;
  /** Newest first, at most `limit`. */
  listEntries(organizationId: string, limit: number): Promise<LedgerEntry[]>;
}

/** `applyMany`'s precondition: one change per organization. */
export function assertOnePerOrganization(changes: ReadonlyArray<{ organizationId: string }>): void {
  if (new Set(changes.map((c) => c.organizationId)).size !== changes.length) throw new RangeError('applyMany: one change per organization');
}
