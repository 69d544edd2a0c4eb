import { AppError } from '../../core/errors.ts';
import { applyChange, WALLET_CURRENCY, type LedgerEntry, type Wallet, type WalletChange } from '../../core/domain/wallet.ts';
import type { IdGenerator } from '../../core/ports/id-generator.ts';
import { assertOnePerOrganization, type WalletRepository, type WalletUpdate } from '../../core/ports/wallet-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryWalletRepository implements WalletRepository {
  readonly #state: MemoryState;
  readonly #ids: IdGenerator;
  constructor(state: MemoryState, ids: IdGenerator) { this.#state = state; this.#ids = ids; }

  async create(organizationId: string, now: Date): Promise<Wallet> {
    if (this.#state.wallets.has(organizationId)) throw new AppError('CONFLICT', 'wallet already exists');
    const wallet: Wallet = { organizationId, balance: 0, currency: WALLET_CURRENCY, updatedAt: now };
    this.#state.wallets.set(organizationId, copy(wallet));
    return wallet;
  }

  async get(organizationId: string): Promise<Wallet | null> {
    const w = this.#state.wallets.get(organizationId);
    return w ? copy(w) : null;
  }

  // No await between read and write: the check and the change are atomic on the event loop.
  async update(organizationId: string, decide: (wallet: Wallet) => WalletChange | null, now: Date): Promise<WalletUpdate> {
    const wallet = this.#state.wallets.get(organizationId);
    if (!wallet) throw new AppError('NOT_FOUND', 'wallet not found');
    const change = decide(copy(wallet));
    if (!change) return { wallet: copy(wallet), entry: null };
    if (this.#state.ledger.some((e) => e.organizationId === organizationId && e.kind === change.kind && e.reference === change.reference)) {
      throw new AppError('CONFLICT', 'ledger reference already used');
    }
    const balance = applyChange(wallet, change);
    wallet.balance = balance;
    wallet.updatedAt = now;
    const entry: LedgerEntry = { id: this.#ids.next(), organizationId, ...change, balanceAfter: balance, createdAt: now };
    this.#state.ledger.push(copy(entry));
    return { wallet: copy(wallet), entry };
  }

  async lockMany(organizationIds: readonly string[]): Promise<Wallet[]> {
    return [...new Set(organizationIds)].sort().flatMap((id) => { const w = this.#state.wallets.get(id); return w ? [copy(w)] : []; });
  }

  // All or nothing, no await: a reference conflict is found before anything is written.
  async applyMany(changes: ReadonlyArray<{ organizationId: string; change: WalletChange }>, now: Date): Promise<Array<LedgerEntry | null>> {
    assertOnePerOrganization(changes);
    for (const { organizationId, change } of changes) {
      if (this.#state.ledger.some((e) => e.organizationId === organizationId && e.kind === change.kind && e.reference === change.reference)) {
        throw new AppError('CONFLICT', 'ledger reference already used');
      }
    }
    return changes.map(({ organizationId, change }) => {
      const wallet = this.#state.wallets.get(organizationId);
      if (!wallet || !Number.isSafeInteger(change.amount) || wallet.balance + change.amount < 0) return null;
      wallet.balance += change.amount;
      wallet.updatedAt = now;
      const entry: LedgerEntry = { id: this.#ids.next(), organizationId, ...change, balanceAfter: wallet.balance, createdAt: now };
      this.#state.ledger.push(copy(entry));
      return copy(entry);
    });
  }

  async findEntry(organizationId: string, kind: LedgerEntry['kind'], reference: string): Promise<LedgerEntry | null> {
    const e = this.#state.ledger.find((x) => x.organizationId === organizationId && x.kind === kind && x.reference === reference);
    return e ? copy(e) : null;
  }

  async listEntries(organizationId: string, limit: number): Promise<LedgerEntry[]> {
    return this.#state.ledger.filter((e) => e.organizationId === organizationId).reverse().slice(0, limit).map(copy);
  }
}
