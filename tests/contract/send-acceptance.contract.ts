import { expect } from 'chai';
import { recipientCountKey } from '../../core/ports/message-repository.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { aMessage, at, debit, rejection, seedOrganization, seedWallet, T0, topUp, uniqueId } from './contract-fixtures.ts';

const DAY = 24 * 3_600_000;

/**
 * What the group commit of sends (acceptRequestsIn) asks of storage, run against every Storage: the
 * IdempotencyRepository (claims, several at once, release, expiry), several organizations read and
 * their wallets locked and debited at once, and the screening lookups across organizations.
 */
export function describeSendAcceptanceContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`IdempotencyRepository and send-acceptance lookups contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });
    const expires = new Date(T0.getTime() + DAY);

    describe('idempotency keys', () => {
      it('claims a new key once; a second claim answers the first request hash and the message ids recorded with it', async () => {
        const org = await seedOrganization(storage);
        const [first] = await storage.idempotency.claimMany([{ organizationId: org.id, key: 'k1', requestHash: 'h1', messageIds: ['m1', 'm2'] }], T0, expires);
        expect(first).to.deep.equal({ claimed: true });
        const [again] = await storage.idempotency.claimMany([{ organizationId: org.id, key: 'k1', requestHash: 'h2', messageIds: ['m3'] }], at(5), expires);
        expect(again).to.deep.equal({ claimed: false, requestHash: 'h1', messageIds: ['m1', 'm2'] });
      });

      it('answers each claim of a batch in the order given, keeps organizations apart, and refuses a key twice in one call', async () => {
        const [a, b] = [await seedOrganization(storage), await seedOrganization(storage)];
        await storage.idempotency.claimMany([{ organizationId: a.id, key: 'taken', requestHash: 'old', messageIds: ['m0'] }], T0, expires);
        const answers = await storage.idempotency.claimMany([
          { organizationId: a.id, key: 'z-new', requestHash: 'h', messageIds: ['m1'] },
          { organizationId: a.id, key: 'taken', requestHash: 'h', messageIds: ['m2'] },
          { organizationId: b.id, key: 'taken', requestHash: 'h', messageIds: ['m3'] },
        ], at(1), expires);
        expect(answers).to.deep.equal([{ claimed: true }, { claimed: false, requestHash: 'old', messageIds: ['m0'] }, { claimed: true }]);
        const twice = storage.idempotency.claimMany([
          { organizationId: a.id, key: 'dup', requestHash: 'h', messageIds: [] }, { organizationId: a.id, key: 'dup', requestHash: 'h', messageIds: [] }], at(2), expires);
        await twice.then(() => expect.fail('a repeated key must be refused'), (error: unknown) => expect(error).to.be.instanceOf(RangeError));
      });

      it('claims an expired key afresh, and a released key again', async () => {
        const org = await seedOrganization(storage);
        await storage.idempotency.claimMany([{ organizationId: org.id, key: 'old', requestHash: 'h1', messageIds: ['m1'] }], T0, at(60));
        expect(await storage.idempotency.claimMany([{ organizationId: org.id, key: 'old', requestHash: 'h2', messageIds: ['m2'] }], at(61), expires))
          .to.deep.equal([{ claimed: true }]);
        await storage.idempotency.release([{ organizationId: org.id, key: 'old' }]);
        expect(await storage.idempotency.claim(org.id, 'old', 'h3', at(62), expires)).to.deep.equal({ claimed: true });
        await storage.idempotency.complete(org.id, 'old', ['m3']);
        expect(await storage.idempotency.claim(org.id, 'old', 'h4', at(63), expires)).to.deep.equal({ claimed: false, requestHash: 'h3', messageIds: ['m3'] });
      });

      it('rolls a claim back with its transaction, so the key can be claimed again', async () => {
        const org = await seedOrganization(storage);
        await storage.transaction(async (tx) => {
          await tx.idempotency.claimMany([{ organizationId: org.id, key: 'rolled', requestHash: 'h', messageIds: ['m'] }], T0, expires);
          throw new Error('boom');
        }).catch(() => undefined);
        expect(await storage.idempotency.claim(org.id, 'rolled', 'h', at(1), expires)).to.deep.equal({ claimed: true });
      });
    });

    describe('organizations and wallets of a batch', () => {
      it('reads several organizations at once, ignoring unknown ids', async () => {
        const [a, b] = [await seedOrganization(storage), await seedOrganization(storage)];
        const found = await storage.organizations.findManyByIds([b.id, uniqueId('org'), a.id, a.id]);
        expect(found.map((o) => o.id).sort()).to.deep.equal([a.id, b.id].sort());
        expect(found.find((o) => o.id === a.id)).to.deep.equal(a);
      });

      it('locks several wallets in a transaction and answers their balances; unknown organizations are absent', async () => {
        const [a, b] = [await seedWallet(storage, 500), await seedWallet(storage, 0)];
        const wallets = await storage.transaction((tx) => tx.wallets.lockMany([b, uniqueId('org'), a]));
        expect(wallets.map((w) => [w.organizationId, w.balance]).sort()).to.deep.equal([[a, 500], [b, 0]].sort());
      });

      it('debits several organizations in one call, each only where its balance covers it, one ledger entry each', async () => {
        const [rich, poor] = [await seedWallet(storage, 1_000), await seedWallet(storage, 10)];
        const entries = await storage.wallets.applyMany([{ organizationId: rich, change: debit(300, 'batch-1') }, { organizationId: poor, change: debit(11, 'batch-1') }], at(3));
        expect(entries[0]).to.deep.include({ organizationId: rich, amount: -300, balanceAfter: 700, kind: 'DEBIT', reference: 'batch-1', createdAt: at(3) });
        expect(entries[1]).to.equal(null);
        expect((await storage.wallets.get(rich))?.balance).to.equal(700);
        expect((await storage.wallets.get(poor))?.balance).to.equal(10);
        expect((await storage.wallets.listEntries(poor, 10)).map((e) => e.kind)).to.deep.equal(['TOP_UP']);
        expect(await storage.wallets.findEntry(rich, 'DEBIT', 'batch-1')).to.deep.equal(entries[0]);
      });

      it('refuses a reference used before with CONFLICT and writes nothing; one change per organization', async () => {
        const [a, b] = [await seedWallet(storage, 1_000), await seedWallet(storage, 1_000)];
        await storage.wallets.update(a, () => debit(5, 'used'), at(1));
        const error = await rejection(storage.wallets.applyMany([{ organizationId: b, change: debit(5, 'used') }, { organizationId: a, change: debit(5, 'used') }], at(2)));
        expect(error.code).to.equal('CONFLICT');
        expect((await storage.wallets.get(b))?.balance).to.equal(1_000);
        const twice = storage.wallets.applyMany([{ organizationId: a, change: debit(1) }, { organizationId: a, change: topUp(1) }], at(3));
        await twice.then(() => expect.fail('two changes of one organization must be refused'), (e: unknown) => expect(e).to.be.instanceOf(RangeError));
      });
    });

    describe('screening lookups across organizations', () => {
      it('counts messages per organization and recipient since a time, REJECTED and older ones excluded', async () => {
        const [a, b] = [await seedOrganization(storage), await seedOrganization(storage)];
        const r1 = '+233241000001';
        const r2 = '+233241000002';
        await storage.messages.insertMany([
          aMessage(a.id, { recipient: r1, createdAt: at(100) }), aMessage(a.id, { recipient: r1, createdAt: at(200) }),
          aMessage(a.id, { recipient: r1, createdAt: at(10) }), aMessage(a.id, { recipient: r1, createdAt: at(150), status: 'REJECTED' }),
          aMessage(a.id, { recipient: r2, createdAt: at(100) }), aMessage(b.id, { recipient: r1, createdAt: at(100) }),
        ]);
        const counts = await storage.messages.countSinceByRecipient(at(50), [
          { organizationId: a.id, recipient: r1 }, { organizationId: b.id, recipient: r1 }, { organizationId: b.id, recipient: r2 }]);
        expect(Object.fromEntries(counts)).to.deep.equal({ [recipientCountKey(a.id, r1)]: 2, [recipientCountKey(b.id, r1)]: 1 });
      });

      it('matches suppressions per organization: an entry of one never suppresses another', async () => {
        const [a, b] = [await seedOrganization(storage), await seedOrganization(storage)];
        const phone = '+233241999999';
        await storage.suppressions.insert({ id: uniqueId('sup'), organizationId: a.id, phone, email: null, channel: 'SMS', category: null, reason: null, createdAt: at(0) });
        const matches = await storage.suppressions.findMatches([
          { organizationId: a.id, channel: 'SMS', recipient: phone }, { organizationId: b.id, channel: 'SMS', recipient: phone },
          { organizationId: a.id, channel: 'WHATSAPP', recipient: phone }]);
        expect(matches.map((m) => m?.organizationId ?? null)).to.deep.equal([a.id, null, null]);
      });
    });
  });
}
