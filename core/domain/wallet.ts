import { AppError } from '../errors.ts';
import { pesewasToGhs, type Pesewas } from './money.ts';

export const WALLET_CURRENCY = 'GHS';

export interface Wallet {
  organizationId: string;
  balance: Pesewas;
  currency: typeof WALLET_CURRENCY;
  updatedAt: Date;
}

/** Every balance change is one ledger entry: the signed amount, why, and the balance after it. */
export interface LedgerEntry {
  id: string;
  organizationId: string;
  amount: Pesewas;
  balanceAfter: Pesewas;
  /** TRIAL_CREDIT: the credit a new organization starts with (never revenue; docs/billing.md). */
  kind: 'TOP_UP' | 'DEBIT' | 'REFUND' | 'ADJUSTMENT' | 'TRIAL_CREDIT';
  /** Unique per organization and kind: a payment reference or a message id. Makes credits idempotent. */
  reference: string;
  description: string;
  createdAt: Date;
}

/** A balance change requested by a use case; the wallet adapter applies it under a row lock. */
export interface WalletChange {
  amount: Pesewas;
  kind: LedgerEntry['kind'];
  reference: string;
  description: string;
}

/** Checks a change against the balance: a balance never goes negative. */
export function applyChange(wallet: Wallet, change: WalletChange): Pesewas {
  if (!Number.isSafeInteger(change.amount)) throw new RangeError('wallet change must be an integer number of pesewas');
  const balance = wallet.balance + change.amount;
  if (balance < 0) {
    throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient wallet balance', { balance: pesewasToGhs(wallet.balance), required: pesewasToGhs(-change.amount) });
  }
  return balance;
}

export function walletView(wallet: Wallet) {
  return { balance: pesewasToGhs(wallet.balance), currency: wallet.currency, updatedAt: wallet.updatedAt.toISOString() };
}

/** The ledger reference of an organization's trial credit: one per organization (references are unique per kind). */
export const TRIAL_CREDIT_REFERENCE = 'trial';

/** What a new organization is given to try sending with, and how many organizations may get it per day. */
export interface TrialCreditPolicy {
  amount: Pesewas;
  perDay: number;
}
