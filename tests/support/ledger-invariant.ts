import { expect } from 'chai';
import type { Storage } from '../../core/ports/storage.ts';

/**
 * The money invariant: an organization's wallet balance equals the sum of its ledger entries.
 * Billing tests call it after every scenario.
 */
export async function expectWalletMatchesLedger(storage: Pick<Storage, 'wallets'>, organizationId: string): Promise<void> {
  const wallet = await storage.wallets.get(organizationId);
  expect(wallet, `wallet of ${organizationId}`).to.not.equal(null);
  const entries = await storage.wallets.listEntries(organizationId, 1_000_000);
  const sum = entries.reduce((total, entry) => total + entry.amount, 0);
  expect(wallet!.balance, `balance of ${organizationId} vs its ledger sum`).to.equal(sum);
}

/** Remembers organizations a suite touched and checks the invariant for all of them (call from afterEach). */
export class LedgerWatch {
  readonly #organizations = new Set<string>();
  readonly #storage: () => Pick<Storage, 'wallets'>;
  constructor(storage: () => Pick<Storage, 'wallets'>) { this.#storage = storage; }

  watch<T extends { organizationId: string }>(tenant: T): T {
    this.#organizations.add(tenant.organizationId);
    return tenant;
  }

  async check(): Promise<void> {
    for (const organizationId of this.#organizations) await expectWalletMatchesLedger(this.#storage(), organizationId);
  }
}
