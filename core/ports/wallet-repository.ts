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
  findEntry(organizationId: string, kind: LedgerEntry['kind'], reference: string): Promise<LedgerEntry | null>;
  /** Newest first, at most `limit`. */
  listEntries(organizationId: string, limit: number): Promise<LedgerEntry[]>;
}
