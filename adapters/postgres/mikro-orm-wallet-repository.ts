import type { InferEntity } from '@mikro-orm/core';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { AppError } from '../../core/errors.ts';
import { applyChange, WALLET_CURRENCY, type LedgerEntry, type Wallet, type WalletChange } from '../../core/domain/wallet.ts';
import type { IdGenerator } from '../../core/ports/id-generator.ts';
import type { WalletRepository, WalletUpdate } from '../../core/ports/wallet-repository.ts';
import { translateUniqueViolation } from './db-errors.ts';
import { LedgerEntryEntity, WalletEntity } from './entities/wallet-entity.ts';

type WalletRow = InferEntity<typeof WalletEntity>;
type EntryRow = InferEntity<typeof LedgerEntryEntity>;

export class MikroOrmWalletRepository implements WalletRepository {
  readonly #em: EntityManager;
  readonly #ids: IdGenerator;
  constructor(em: EntityManager, ids: IdGenerator) { this.#em = em; this.#ids = ids; }

  async create(organizationId: string, now: Date): Promise<Wallet> {
    const wallet: Wallet = { organizationId, balance: 0, currency: WALLET_CURRENCY, updatedAt: now };
    await translateUniqueViolation('wallet', () => this.#em.insert(WalletEntity, { ...wallet }));
    return wallet;
  }

  async get(organizationId: string): Promise<Wallet | null> {
    const row = await this.#em.findOne(WalletEntity, { organizationId }, { disableIdentityMap: true });
    return row ? toWallet(row) : null;
  }

  /** Locks the wallet row (SELECT ... FOR UPDATE) for the rest of the transaction, opening one if needed. */
  async update(organizationId: string, decide: (wallet: Wallet) => WalletChange | null, now: Date): Promise<WalletUpdate> {
    const run = async (em: EntityManager): Promise<WalletUpdate> => {
      const row = await em.findOne(WalletEntity, { organizationId }, { lockMode: LockMode.PESSIMISTIC_WRITE, disableIdentityMap: true });
      if (!row) throw new AppError('NOT_FOUND', 'wallet not found');
      const wallet = toWallet(row);
      const change = decide(wallet);
      if (!change) return { wallet, entry: null };
      const balance = applyChange(wallet, change);
      const entry: LedgerEntry = { id: this.#ids.next(), organizationId, ...change, balanceAfter: balance, createdAt: now };
      await translateUniqueViolation('ledger reference', () => em.insert(LedgerEntryEntity, { ...entry }));
      await em.nativeUpdate(WalletEntity, { organizationId }, { balance, updatedAt: now });
      return { wallet: { ...wallet, balance, updatedAt: now }, entry };
    };
    return this.#em.isInTransaction() ? run(this.#em) : this.#em.transactional(run);
  }

  async findEntry(organizationId: string, kind: LedgerEntry['kind'], reference: string): Promise<LedgerEntry | null> {
    const row = await this.#em.findOne(LedgerEntryEntity, { organizationId, kind, reference }, { disableIdentityMap: true });
    return row ? toEntry(row) : null;
  }

  async listEntries(organizationId: string, limit: number): Promise<LedgerEntry[]> {
    const rows = await this.#em.find(LedgerEntryEntity, { organizationId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, disableIdentityMap: true });
    return rows.map(toEntry);
  }
}

function toWallet(row: WalletRow): Wallet {
  return { organizationId: row.organizationId, balance: Number(row.balance), currency: WALLET_CURRENCY, updatedAt: row.updatedAt };
}

function toEntry(row: EntryRow): LedgerEntry {
  return {
    id: row.id, organizationId: row.organizationId, amount: Number(row.amount), balanceAfter: Number(row.balanceAfter),
    kind: row.kind as LedgerEntry['kind'], reference: row.reference, description: row.description, createdAt: row.createdAt,
  };
}
