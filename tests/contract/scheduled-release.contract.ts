import { expect } from 'chai';
import type { Campaign } from '../../core/domain/campaign.ts';
import { NO_PROGRESS } from '../../core/domain/campaign-progress.ts';
import type { Message } from '../../core/domain/message.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { aMessage, seedOrganization, uniqueId } from './contract-fixtures.ts';
import type { Contact } from '../../core/domain/contact.ts';

/**
 * The suites share one database, and the scheduler's reads span every organization: this suite's
 * times are in 1990, before anything another suite schedules, and it releases what it locked.
 */
const E0 = new Date('1990-01-01T00:00:00.000Z');
const t = (seconds: number) => new Date(E0.getTime() + seconds * 1000);

const scheduled = (organizationId: string, seconds: number, overrides: Partial<Message> = {}) =>
  aMessage(organizationId, { status: 'SCHEDULED', scheduledAt: t(seconds), provider: null, attempts: 0, ...overrides });

function aCampaign(organizationId: string, overrides: Partial<Campaign> = {}): Campaign {
  return {
    id: uniqueId('camp'), organizationId, name: 'Promo', channel: 'SMS', templateId: null, segmentId: null, scheduledAt: t(10), status: 'SCHEDULED',
    approvalRequestId: null, riskScore: 10, cursor: null, fanOutDone: false, progress: NO_PROGRESS, failureReason: null, createdByUserId: null,
    createdAt: t(1), updatedAt: t(1), startedAt: null, completedAt: null, cancelledAt: null, ...overrides,
  };
}

/** MessageRepository.lockDueScheduled / releaseScheduled and CampaignRepository.lockDueScheduled, run against every Storage. */
export function describeScheduledReleaseContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`Scheduled release contract: ${name}`, () => {
    let storage: Storage;
    let org: string;
    before(async () => {
      storage = await makeStorage();
      org = (await seedOrganization(storage)).id;
    });

    it('locks due SCHEDULED messages earliest first up to the limit (at the exact time, not before), and releases each once', async () => {
      const late = scheduled(org, 30);
      const early = scheduled(org, 10);
      const exact = scheduled(org, 20);
      const notYet = scheduled(org, 20.001);
      const queued = aMessage(org, { status: 'QUEUED', scheduledAt: t(5), provider: null });
      await storage.messages.insertMany([late, early, exact, notYet, queued]);
      const firstTwo = await storage.transaction((tx) => tx.messages.lockDueScheduled(t(20), 2));
      expect(firstTwo.map((m) => m.id)).to.deep.equal([early.id, exact.id]);
      expect(firstTwo[0]).to.include({ status: 'SCHEDULED', organizationId: org });
      expect(firstTwo[0]!.scheduledAt?.toISOString()).to.equal(t(10).toISOString());
      expect((await storage.transaction((tx) => tx.messages.lockDueScheduled(t(20), 10))).map((m) => m.id)).to.deep.equal([early.id, exact.id]);

      const moved = await storage.transaction((tx) => tx.messages.releaseScheduled([early.id, exact.id, queued.id, early.id, 'unknown'], t(21)));
      expect([...moved].sort()).to.deep.equal([early.id, exact.id].sort());
      expect(await storage.transaction((tx) => tx.messages.releaseScheduled([early.id], t(22)))).to.deep.equal([]);
      const released = (await storage.messages.findForDelivery(early.id))!;
      expect(released).to.include({ status: 'QUEUED' });
      expect(released.updatedAt.toISOString()).to.equal(t(21).toISOString());
      expect(released.scheduledAt?.toISOString()).to.equal(t(10).toISOString());
      expect(await storage.messages.releaseScheduled([], t(22))).to.deep.equal([]);

      expect((await storage.transaction((tx) => tx.messages.lockDueScheduled(t(40), 10))).map((m) => m.id)).to.deep.equal([notYet.id, late.id]);
      await storage.messages.releaseScheduled([notYet.id, late.id], t(41));
    });

    if (name === 'postgres') {
      it('skips rows another transaction holds: two releasers take different messages', async () => {
        const batch = [scheduled(org, 50), scheduled(org, 51), scheduled(org, 52), scheduled(org, 53)];
        await storage.messages.insertMany(batch);
        let held!: () => void;
        const hold = new Promise<void>((resolve) => { held = resolve; });
        let firstLocked!: (ids: string[]) => void;
        const locked = new Promise<string[]>((resolve) => { firstLocked = resolve; });
        const first = storage.transaction(async (tx) => {
          const mine = await tx.messages.lockDueScheduled(t(60), 2);
          firstLocked(mine.map((m) => m.id));
          await hold;
          return tx.messages.releaseScheduled(mine.map((m) => m.id), t(61));
        });
        const firstIds = await locked;
        const secondIds = await storage.transaction(async (tx) => {
          const theirs = await tx.messages.lockDueScheduled(t(60), 10);
          await tx.messages.releaseScheduled(theirs.map((m) => m.id), t(61));
          return theirs.map((m) => m.id);
        });
        held();
        await first;
        expect(firstIds).to.deep.equal([batch[0]!.id, batch[1]!.id]);
        expect(secondIds).to.deep.equal([batch[2]!.id, batch[3]!.id]);
      });
    }

    it('locks due SCHEDULED campaigns only (not DRAFT, SENDING, CANCELLED or later ones), earliest first', async () => {
      const due = aCampaign(org, { scheduledAt: t(100) });
      const earlier = aCampaign(org, { scheduledAt: t(90) });
      const later = aCampaign(org, { scheduledAt: t(200) });
      const cancelled = aCampaign(org, { scheduledAt: t(80), status: 'CANCELLED' });
      const draft = aCampaign(org, { scheduledAt: t(80), status: 'DRAFT' });
      for (const c of [due, earlier, later, cancelled, draft]) await storage.campaigns.insert(c);
      const locked = await storage.transaction(async (tx) => {
        const list = await tx.campaigns.lockDueScheduled(t(100), 10);
        for (const c of list) await tx.campaigns.update({ ...c, status: 'SENDING', startedAt: t(100) });
        return list;
      });
      expect(locked.map((c) => c.id)).to.deep.equal([earlier.id, due.id]);
      expect(locked[0]).to.deep.equal(earlier);
      expect(await storage.transaction((tx) => tx.campaigns.lockDueScheduled(t(150), 10))).to.deep.equal([]);
      await storage.campaigns.update({ ...later, status: 'CANCELLED' });
    });

    it('counts a campaign recipient whose message is SCHEDULED (a send window) as scheduled, and a CANCELLED one as cancelled', async () => {
      const campaign = aCampaign(org, { status: 'SENDING', scheduledAt: null });
      await storage.campaigns.insert(campaign);
      const contacts: Contact[] = [0, 1, 2].map((i) => ({
        id: uniqueId('contact'), organizationId: org, firstName: `C${i}`, lastName: null, phone: `+23324${String(5_550_000 + i)}`, email: null, countryCode: 'GH',
        tags: [], fcmToken: null, attributes: {}, optedOutAt: null, createdAt: t(1), updatedAt: t(1),
      }));
      await storage.contacts.insertMany(contacts);
      const messages = [scheduled(org, 5_000), aMessage(org, { status: 'CANCELLED', cost: 0 }), aMessage(org, { status: 'DELIVERED' })];
      await storage.messages.insertMany(messages);
      await storage.transaction((tx) => tx.campaigns.addRecipients(org, campaign.id, contacts.map((c, i) => ({ contactId: c.id, messageId: messages[i]!.id, skipReason: null }))));
      expect(await storage.campaigns.counts(org, campaign.id)).to.deep.equal({ recipients: 3, queued: 0, pending: 0, sent: 0, delivered: 1, failed: 0, rejected: 0, scheduled: 1, cancelled: 1, skipped: 0 });
      await storage.messages.releaseScheduled([messages[0]!.id], t(5_001));
    });
  });
}
