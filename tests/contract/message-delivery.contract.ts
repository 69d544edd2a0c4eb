import { expect } from 'chai';
import type { Message } from '../../core/domain/message.ts';
import type { AcceptedDelivery } from '../../core/ports/message-status-repository.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { InMemoryRateBuckets } from '../../adapters/memory/in-memory-rate-buckets.ts';
import { FixedClock } from '../../adapters/memory/fixed-clock.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import type { OutboundMessage } from '../../core/ports/channel-provider.ts';
import { DeliverMessage } from '../../core/use-cases/messaging/deliver-message.ts';
import { aMessage, at, seedOrganization, uniqueId } from './contract-fixtures.ts';

const queued = (organizationId: string, overrides: Partial<Message> = {}) =>
  aMessage(organizationId, { status: 'QUEUED', provider: null, attempts: 0, ...overrides });

function anAcceptance(message: Message, status: AcceptedDelivery['status'], seconds: number): AcceptedDelivery {
  return {
    attempt: {
      id: uniqueId('att'), messageId: message.id, attempt: message.attempts, provider: 'arkesel-main', outcome: 'ACCEPTED', retryable: false, errorCode: null,
      errorMessage: null, providerMessageId: `vendor-${message.id}`, durationMs: 12, createdAt: at(seconds),
    },
    status, at: at(seconds), event: { id: uniqueId('evt'), source: 'provider:arkesel-main' },
  };
}

const byId = (messages: Message[]) => [...messages].sort((a, b) => a.id.localeCompare(b.id));

/** The delivery writes of MessageRepository and MessageStatusRepository (set-based claim and record), run against every Storage. */
export function describeMessageDeliveryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`Message delivery writes contract: ${name}`, () => {
    let storage: Storage;
    let org: string;
    before(async () => {
      storage = await makeStorage();
      org = (await seedOrganization(storage)).id;
    });

    it('claims, in one step, only the QUEUED or PENDING messages whose lease is free, each once', async () => {
      const free = queued(org);
      const expired = queued(org, { status: 'PENDING', attempts: 1, leaseUntil: at(5) });
      const leased = queued(org, { status: 'PENDING', attempts: 1, leaseUntil: at(100) });
      const sent = aMessage(org);
      await storage.messages.insertMany([free, expired, leased, sent]);
      const claimed = await storage.messages.claimManyForDelivery([free.id, expired.id, leased.id, sent.id, 'unknown', free.id], at(10), at(70));
      expect(byId(claimed).map((m) => [m.id, m.status, m.attempts, m.leaseUntil?.toISOString()])).to.deep.equal(byId([free, expired]).map((m) => [m.id, 'PENDING', m.attempts + 1, at(70).toISOString()]));
      expect(await storage.messages.claimManyForDelivery([free.id, expired.id], at(20), at(80))).to.deep.equal([]); // leased now
      expect((await storage.messages.findForDelivery(leased.id))?.attempts).to.equal(1);
      expect(await storage.messages.claimManyForDelivery([], at(10), at(70))).to.deep.equal([]);
    });

    it('frees the claims of attempts that died (PENDING, lease past) once each, and leaves live, cleared and final ones alone', async () => {
      const dead = queued(org, { status: 'PENDING', attempts: 1, leaseUntil: at(1_000) });
      const alive = queued(org, { status: 'PENDING', attempts: 1, leaseUntil: at(5_000) });
      const waiting = queued(org, { status: 'PENDING', attempts: 1, leaseUntil: null }); // a transient failure, waiting for its retry
      const done = aMessage(org, { leaseUntil: at(1_000) });
      await storage.messages.insertMany([dead, alive, waiting, done]);
      const freed = await storage.messages.releaseAbandonedClaims(at(2_000), 10_000);
      expect(freed).to.include(dead.id).and.not.include.members([alive.id, waiting.id, done.id]);
      expect((await storage.messages.findForDelivery(dead.id))?.leaseUntil).to.equal(null);
      expect(await storage.messages.releaseAbandonedClaims(at(2_000), 10_000)).to.not.include(dead.id);
      const [reclaimed] = await storage.messages.claimManyForDelivery([dead.id], at(2_001), at(2_060));
      expect(reclaimed).to.include({ id: dead.id, status: 'PENDING', attempts: 2 });
    });

    it('records a batch of accepted attempts: PENDING messages move and get one status event each; others keep only the attempt', async () => {
      const [a, b, moved] = [queued(org), queued(org), queued(org)];
      await storage.messages.insertMany([a, b, moved]);
      const claimed = await storage.messages.claimManyForDelivery([a.id, b.id, moved.id], at(10), at(70));
      await storage.messages.transition(moved.id, ['PENDING'], { status: 'FAILED', leaseUntil: null, updatedAt: at(11) });
      const find = (id: string) => claimed.find((m) => m.id === id)!;
      const result = await storage.messageStatus.recordAcceptedAttempts([anAcceptance(find(a.id), 'SENT', 12), anAcceptance(find(b.id), 'DELIVERED', 13), anAcceptance(find(moved.id), 'SENT', 14)]);

      expect(byId(result).map((m) => m.id)).to.deep.equal(byId([a, b]).map((m) => m.id));
      const sentA = (await storage.messages.findForDelivery(a.id))!;
      expect(sentA).to.include({ status: 'SENT', provider: 'arkesel-main', providerMessageId: `vendor-${a.id}`, errorCode: null, leaseUntil: null, deliveredAt: null });
      expect(sentA.sentAt?.toISOString()).to.equal(at(12).toISOString());
      const deliveredB = (await storage.messages.findForDelivery(b.id))!;
      expect(deliveredB.status).to.equal('DELIVERED');
      expect(deliveredB.deliveredAt?.toISOString()).to.equal(at(13).toISOString());
      expect((await storage.messages.findForDelivery(moved.id))?.status).to.equal('FAILED');

      expect((await storage.messageStatus.listEvents(a.id)).map((e) => [e.status, e.source, e.organizationId])).to.deep.equal([['SENT', 'provider:arkesel-main', org]]);
      expect((await storage.messageStatus.listEvents(b.id)).map((e) => e.status)).to.deep.equal(['DELIVERED']);
      expect(await storage.messageStatus.listEvents(moved.id)).to.deep.equal([]);
      for (const id of [a.id, b.id, moved.id]) {
        expect((await storage.messageStatus.listAttempts(id)).map((x) => [x.outcome, x.provider, x.attempt, x.durationMs])).to.deep.equal([['ACCEPTED', 'arkesel-main', 1, 12]]);
      }
      expect(await storage.messageStatus.recordAcceptedAttempts([])).to.deep.equal([]);
    });

    it('keeps the batch write atomic inside a transaction that rolls back', async () => {
      const m = queued(org);
      await storage.messages.insertMany([m]);
      const [claimed] = await storage.messages.claimManyForDelivery([m.id], at(10), at(70));
      await storage.transaction(async (tx) => {
        await tx.messageStatus.recordAcceptedAttempts([anAcceptance(claimed!, 'SENT', 12)]);
        throw new Error('roll back');
      }).catch(() => undefined);
      expect((await storage.messages.findForDelivery(m.id))?.status).to.equal('PENDING');
      expect(await storage.messageStatus.listAttempts(m.id)).to.deep.equal([]);
    });

    it('postpones a delivery without a rate slot: the claim and its attempt given back, the provider not called, no failure for its job', async () => {
      const m = queued(org);
      await storage.messages.insertMany([m]);
      const buckets = new InMemoryRateBuckets();
      await buckets.take('provider:paced', 0.1, 0); // the only slot for the next 10 s
      const calls: string[] = [];
      const provider = { name: 'paced', channel: 'SMS' as const, ratePerSecond: 0.1, send: async (o: OutboundMessage) => { calls.push(o.messageId); return { accepted: true as const, providerMessageId: 'x', delivered: false }; } };
      const deliver = new DeliverMessage({ storage, providers: { providersFor: () => [provider] }, clock: new FixedClock(at(10)), ids: new UuidV7IdGenerator(), maxAttempts: 3, leaseSeconds: 60, pacing: { buckets } });
      const [outcome] = await deliver.executeMany([m.id]);
      expect(outcome?.error).to.equal(undefined);
      expect(calls).to.deep.equal([]);
      expect(await storage.messages.findForDelivery(m.id)).to.include({ status: 'QUEUED', attempts: 0, leaseUntil: null });
      const [again] = await storage.messages.claimManyForDelivery([m.id], at(11), at(70));
      expect(again, 'claimable again at once, its first attempt still to come').to.include({ attempts: 1 });
    });
  });
}
