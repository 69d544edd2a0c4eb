import type { InferEntity } from '@mikro-orm/core';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/sql';
import { AppError } from '../../core/errors.ts';
import { applyChange, WALLET_CURRENCY, type LedgerEntry, type Wallet, type WalletChange } from '../../core/domain/wallet.ts';
import type { IdGenerator } from '../../core/ports/id-generator.ts';
import { assertOnePerOrganization, type WalletRepository, type WalletUpdate } from '../../core/ports/wallet-repository.ts';
import { sqlRows, toDate } from './sql-rows.ts';
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

  async lockMany(organizationIds: readonly string[]): Promise<Wallet[]> {
    if (organizationIds.length === 0) return [];
    const rows = await sqlRows<{ organization_id: string; balance: string | number; updated_at: Date | string }>(this.#em,
      `select organization_id, balance, updated_at from wallets where organization_id = any($1::text[]) order by organization_id for update`,
      [[...new Set(organizationIds)].sort()], { prepare: true });
    return rows.map((r) => ({ organizationId: r.organization_id, balance: Number(r.balance), currency: WALLET_CURRENCY, updatedAt: toDate(r.updated_at)! }));
  }

  async applyMany(changes: ReadonlyArray<{ organizationId: string; change: WalletChange }>, now: Date): Promise<Array<LedgerEntry | null>> {
    if (changes.length === 0) return [];
    assertOnePerOrganization(changes);
    const input = changes.map(({ organizationId, change }) => {
      if (!Number.isSafeInteger(change.amount)) throw new RangeError('wallet change must be an integer number of pesewas');
      return { id: this.#ids.next(), organization_id: organizationId, amount: change.amount, kind: change.kind, reference: change.reference, description: change.description };
    });
    const rows = await translateUniqueViolation('ledger reference', () => sqlRows<{ organization_id: string; balance_after: string | number }>(this.#em,
      `with input as (
         select * from json_to_recordset($1::json) as x(id text, organization_id text, amount bigint, kind text, reference text, description text)
       ), moved as (
         update wallets w set balance = w.balance + input.amount, updated_at = $2
           from input where w.organization_id = input.organization_id and w.balance + input.amount >= 0
         returning w.organization_id, w.balance
       )
       insert into ledger_entries (id, organization_id, amount, balance_after, kind, reference, description, created_at)
       select input.id, input.organization_id, input.amount, moved.balance, input.kind, input.reference, input.description, $2
         from input join moved on moved.organization_id = input.organization_id
       returning organization_id, balance_after`,
      [JSON.stringify(input), now]));
    const written = new Map(rows.map((r) => [r.organization_id, Number(r.balance_after)]));
    return changes.map(({ organizationId, change }, i) => {
      const balanceAfter = written.get(organizationId);
      return balanceAfter === undefined ? null : { id: input[i]!.id, organizationId, ...change, balanceAfter, createdAt: now };
    });
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
