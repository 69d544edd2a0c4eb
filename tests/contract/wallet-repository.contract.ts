import { expect } from 'chai';
import type { Storage } from '../../core/ports/storage.ts';
import { AppError } from '../../core/errors.ts';
import { at, debit, rejection, seedOrganization, seedWallet, T0, topUp, uniqueId } from './contract-fixtures.ts';

/** The WalletRepository contract (core/ports/wallet-repository.ts), run against every Storage. */
export function describeWalletRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`WalletRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('creates an empty GHS wallet for an organization', async () => {
      const org = await seedOrganization(storage);
      const wallet = await storage.wallets.create(org.id, at(1));
      const expected = { organizationId: org.id, balance: 0, currency: 'GHS', updatedAt: at(1) };
      expect(wallet).to.deep.equal(expected);
      expect(await storage.wallets.get(org.id)).to.deep.equal(expected);
      expect(await storage.wallets.listEntries(org.id, 10)).to.deep.equal([]);
    });

    it('rejects a second wallet for the same organization with CONFLICT and keeps the first', async () => {
      const orgId = await seedWallet(storage, 700);
      const error = await rejection(storage.wallets.create(orgId, at(9)));
      expect(error.code).to.equal('CONFLICT');
      expect((await storage.wallets.get(orgId))?.balance).to.equal(700);
    });

    it('answers null for the wallet of an unknown organization, and NOT_FOUND when updating it', async () => {
      const orgId = uniqueId('org');
      expect(await storage.wallets.get(orgId)).to.equal(null);
      expect((await rejection(storage.wallets.update(orgId, () => topUp(100), T0))).code).to.equal('NOT_FOUND');
    });

    it('credits then debits, writing one ledger entry each with the balance after it', async () => {
      const orgId = await seedWallet(storage);
      const credit = await storage.wallets.update(orgId, () => topUp(5_000, 'pay-1'), at(1));
      const spent = await storage.wallets.update(orgId, () => debit(1_250, 'msg-1'), at(2));
      expect(credit.wallet).to.deep.equal({ organizationId: orgId, balance: 5_000, currency: 'GHS', updatedAt: at(1) });
      expect(credit.entry).to.deep.include({ organizationId: orgId, amount: 5_000, balanceAfter: 5_000, kind: 'TOP_UP', reference: 'pay-1', createdAt: at(1) });
      expect(spent.wallet).to.deep.equal({ organizationId: orgId, balance: 3_750, currency: 'GHS', updatedAt: at(2) });
      expect(spent.entry).to.deep.include({ amount: -1_250, balanceAfter: 3_750, kind: 'DEBIT', reference: 'msg-1', description: 'SMS' });
      expect(await storage.wallets.get(orgId)).to.deep.equal(spent.wallet);
      expect(await storage.wallets.findEntry(orgId, 'DEBIT', 'msg-1')).to.deep.equal(spent.entry);
      expect(await storage.wallets.listEntries(orgId, 10)).to.deep.equal([spent.entry, credit.entry]);
    });

    it('hands decide the current wallet', async () => {
      const orgId = await seedWallet(storage, 300);
      let seen: unknown = null;
      await storage.wallets.update(orgId, (wallet) => { seen = wallet; return null; }, at(1));
      expect(seen).to.deep.equal({ organizationId: orgId, balance: 300, currency: 'GHS', updatedAt: T0 });
    });

    it('refuses a debit beyond the balance with INSUFFICIENT_BALANCE and changes nothing', async () => {
      const orgId = await seedWallet(storage, 1_000);
      const before = await storage.wallets.listEntries(orgId, 10);
      const error = await rejection(storage.wallets.update(orgId, () => debit(1_001, 'too-much'), at(1)));
      expect(error.code).to.equal('INSUFFICIENT_BALANCE');
      expect(await storage.wallets.get(orgId)).to.deep.equal({ organizationId: orgId, balance: 1_000, currency: 'GHS', updatedAt: T0 });
      expect(await storage.wallets.listEntries(orgId, 10)).to.deep.equal(before);
      expect(await storage.wallets.findEntry(orgId, 'DEBIT', 'too-much')).to.equal(null);
    });

    it('allows a debit of the whole balance down to zero', async () => {
      const orgId = await seedWallet(storage, 450);
      const result = await storage.wallets.update(orgId, () => debit(450), at(1));
      expect(result.wallet.balance).to.equal(0);
      expect(result.entry?.balanceAfter).to.equal(0);
    });

    it('changes nothing when decide returns null', async () => {
      const orgId = await seedWallet(storage, 800);
      const before = await storage.wallets.listEntries(orgId, 10);
      const result = await storage.wallets.update(orgId, () => null, at(1));
      expect(result).to.deep.equal({ wallet: { organizationId: orgId, balance: 800, currency: 'GHS', updatedAt: T0 }, entry: null });
      expect(await storage.wallets.get(orgId)).to.deep.equal(result.wallet);
      expect(await storage.wallets.listEntries(orgId, 10)).to.deep.equal(before);
    });

    it('rejects a repeated reference for the same organization and kind with CONFLICT, balance unchanged', async () => {
      const orgId = await seedWallet(storage);
      const first = await storage.wallets.update(orgId, () => topUp(2_000, 'paystack-ref-1'), at(1));
      const error = await rejection(storage.wallets.update(orgId, () => topUp(2_000, 'paystack-ref-1'), at(2)));
      expect(error.code).to.equal('CONFLICT');
      expect((await storage.wallets.get(orgId))?.balance).to.equal(2_000);
      expect(await storage.wallets.listEntries(orgId, 10)).to.deep.equal([first.entry]);
    });

    it('accepts the same reference with another kind, or in another organization', async () => {
      const orgA = await seedWallet(storage);
      const orgB = await seedWallet(storage);
      await storage.wallets.update(orgA, () => topUp(1_000, 'shared-ref'), at(1));
      await storage.wallets.update(orgA, () => ({ amount: -200, kind: 'ADJUSTMENT', reference: 'shared-ref', description: 'Fix' }), at(2));
      await storage.wallets.update(orgB, () => topUp(500, 'shared-ref'), at(3));
      expect((await storage.wallets.get(orgA))?.balance).to.equal(800);
      expect((await storage.wallets.get(orgB))?.balance).to.equal(500);
      expect(await storage.wallets.findEntry(orgB, 'TOP_UP', 'shared-ref')).to.deep.include({ organizationId: orgB, amount: 500 });
    });

    it('keeps each organization to its own wallet and ledger (tenant isolation)', async () => {
      const orgA = await seedWallet(storage);
      const orgB = await seedWallet(storage);
      await storage.wallets.update(orgA, () => topUp(900, 'only-a'), at(1));
      expect((await storage.wallets.get(orgB))?.balance).to.equal(0);
      expect(await storage.wallets.listEntries(orgB, 10)).to.deep.equal([]);
      expect(await storage.wallets.findEntry(orgB, 'TOP_UP', 'only-a')).to.equal(null);
    });

    it('lists ledger entries newest first, at most limit', async () => {
      const orgId = await seedWallet(storage);
      const entries = [];
      for (let i = 1; i <= 4; i += 1) entries.push((await storage.wallets.update(orgId, () => topUp(100 * i, `ref-${i}`), at(i))).entry);
      expect(await storage.wallets.listEntries(orgId, 10)).to.deep.equal([...entries].reverse());
      expect(await storage.wallets.listEntries(orgId, 2)).to.deep.equal([entries[3], entries[2]]);
    });

    it('lets exactly as many of 50 concurrent debits succeed as the balance covers', async function () {
      this.timeout(60_000);
      const orgId = await seedWallet(storage, 2_000);
      const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) =>
        storage.wallets.update(orgId, () => debit(100, `concurrent-${i}`), at(10))));
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(20);
      expect(failures).to.have.length(30);
      for (const failure of failures) expect(failure).to.be.instanceOf(AppError).with.property('code', 'INSUFFICIENT_BALANCE');
      expect((await storage.wallets.get(orgId))?.balance).to.equal(0);
      const debits = (await storage.wallets.listEntries(orgId, 100)).filter((e) => e.kind === 'DEBIT');
      expect(debits).to.have.length(20);
      expect(debits.map((e) => e.balanceAfter).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i * 100));
    });

    it('rolls the balance and the ledger back when a transaction fails after a wallet update', async () => {
      const orgId = await seedWallet(storage, 1_000);
      const before = await storage.wallets.listEntries(orgId, 10);
      const boom = new Error('boom');
      const outcome = storage.transaction(async (tx) => {
        await tx.wallets.update(orgId, () => debit(400, 'rolled-back'), at(1));
        await tx.wallets.update(orgId, () => topUp(50, 'rolled-back-too'), at(2));
        throw boom;
      });
      await outcome.then(() => expect.fail('the transaction should fail'), (error: unknown) => expect(error).to.equal(boom));
      expect(await storage.wallets.get(orgId)).to.deep.equal({ organizationId: orgId, balance: 1_000, currency: 'GHS', updatedAt: T0 });
      expect(await storage.wallets.listEntries(orgId, 10)).to.deep.equal(before);
      expect(await storage.wallets.findEntry(orgId, 'DEBIT', 'rolled-back')).to.equal(null);
    });

    it('commits wallet updates made in a transaction that succeeds', async () => {
      const orgId = await seedWallet(storage, 1_000);
      await storage.transaction(async (tx) => {
        await tx.wallets.update(orgId, () => debit(400, 'kept'), at(1));
        await tx.wallets.update(orgId, () => debit(100, 'kept-too'), at(2));
      });
      expect((await storage.wallets.get(orgId))?.balance).to.equal(500);
      expect((await storage.wallets.listEntries(orgId, 2)).map((e) => e.reference)).to.deep.equal(['kept-too', 'kept']);
    });
  });
}
