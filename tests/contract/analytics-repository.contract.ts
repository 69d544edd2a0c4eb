import { expect } from 'chai';
import type { Storage } from '../../core/ports/storage.ts';
import { aMessage, at, seedOrganization, uniqueId } from './contract-fixtures.ts';

const sortBy = <T>(rows: T[], key: (r: T) => string) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
const DAY = 24 * 3600;

/** AnalyticsRepository contract (aggregates over messages and the ledger), run against every Storage. */
export function describeAnalyticsRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`AnalyticsRepository contract: ${name}`, () => {
    let storage: Storage;
    let org: string;
    const from = new Date('2026-03-02T00:00:00Z'); const to = new Date('2026-03-05T00:00:00Z');
    before(async () => {
      storage = await makeStorage();
      org = (await seedOrganization(storage)).id;
      const other = (await seedOrganization(storage)).id;
      await storage.messages.insertMany([
        aMessage(org, { status: 'DELIVERED', cost: 6, segments: 2 }),
        aMessage(org, { status: 'SENT', createdAt: at(60) }),
        aMessage(org, { status: 'FAILED', cost: 0, provider: 'p2', createdAt: at(DAY + 5) }),
        aMessage(org, { channel: 'WHATSAPP', status: 'DELIVERED', cost: 8, encoding: null, provider: 'p2', templateId: 'tpl-1', createdAt: at(DAY + 6) }),
        aMessage(org, { status: 'DELIVERED', cost: 6, segments: 2, encoding: 'UCS-2', body: 'Hi \u2019 there', templateId: 'tpl-1', createdAt: at(DAY + 7) }),
        aMessage(org, { status: 'REJECTED', cost: 0, provider: null, createdAt: at(DAY + 8) }),
        aMessage(org, { status: 'SENT', createdAt: at(3 * DAY) }), // 2026-03-05: outside [from, to)
        aMessage(other, { status: 'SENT', cost: 99 }),
      ]);
      await storage.wallets.create(org, at(0));
      await storage.wallets.update(org, () => ({ amount: 1_000, kind: 'TOP_UP', reference: uniqueId('top'), description: 'top-up' }), at(0));
      await storage.wallets.update(org, () => ({ amount: -9, kind: 'DEBIT', reference: uniqueId('b'), description: 'send' }), at(0));
      await storage.wallets.update(org, () => ({ amount: -17, kind: 'DEBIT', reference: uniqueId('b'), description: 'send' }), at(DAY + 5));
      await storage.wallets.update(org, () => ({ amount: 3, kind: 'REFUND', reference: uniqueId('m'), description: 'refund' }), at(DAY + 9));
    });

    it('totals messages per UTC day, channel and status, within the organization and window, counting those of outbox providers', async () => {
      const rows = sortBy(await storage.analytics.dailyMessages(org, from, to, ['p2']), (r) => `${r.day}${r.channel}${r.status}`);
      expect(rows).to.deep.equal([
        { day: '2026-03-02', channel: 'SMS', status: 'DELIVERED', messages: 1, segments: 2, cost: 6, outbox: 0 },
        { day: '2026-03-02', channel: 'SMS', status: 'SENT', messages: 1, segments: 1, cost: 3, outbox: 0 },
        { day: '2026-03-03', channel: 'SMS', status: 'DELIVERED', messages: 1, segments: 2, cost: 6, outbox: 0 },
        { day: '2026-03-03', channel: 'SMS', status: 'FAILED', messages: 1, segments: 1, cost: 0, outbox: 1 },
        { day: '2026-03-03', channel: 'SMS', status: 'REJECTED', messages: 1, segments: 1, cost: 0, outbox: 0 },
        { day: '2026-03-03', channel: 'WHATSAPP', status: 'DELIVERED', messages: 1, segments: 1, cost: 8, outbox: 1 },
      ]);
      expect((await storage.analytics.dailyMessages(org, from, to)).every((r) => r.outbox === 0)).to.equal(true);
    });

    it('totals ledger amounts per UTC day and kind', async () => {
      const rows = sortBy(await storage.analytics.dailyLedger(org, from, to), (r) => `${r.day}${r.kind}`);
      expect(rows).to.deep.equal([
        { day: '2026-03-02', kind: 'DEBIT', amount: -9, entries: 1 },
        { day: '2026-03-02', kind: 'TOP_UP', amount: 1_000, entries: 1 },
        { day: '2026-03-03', kind: 'DEBIT', amount: -17, entries: 1 },
        { day: '2026-03-03', kind: 'REFUND', amount: 3, entries: 1 },
      ]);
    });

    it('counts provider outcomes, lists charged UCS-2 SMS and template usage', async () => {
      expect(sortBy(await storage.analytics.providerOutcomes(org, from, to), (r) => r.provider)).to.deep.equal([
        { provider: 'p1', accepted: 3, failed: 0 }, { provider: 'p2', accepted: 1, failed: 1 },
      ]);
      expect(await storage.analytics.ucs2Sms(org, from, to, 10)).to.deep.equal([{ body: 'Hi \u2019 there', segments: 2, cost: 6 }]);
      expect(sortBy(await storage.analytics.templateUsage(org, from, to, 10), (r) => r.channel)).to.deep.equal([
        { templateId: 'tpl-1', channel: 'SMS', country: 'GH', messages: 1, cost: 6 },
        { templateId: 'tpl-1', channel: 'WHATSAPP', country: 'GH', messages: 1, cost: 8 },
      ]);
    });

    it('stays exact through status and cost changes (PENDING counted as QUEUED), bulk inserts and rolled-back transactions', async () => {
      const own = (await seedOrganization(storage)).id;
      const first = aMessage(own, { status: 'QUEUED', provider: null });
      const bulk = Array.from({ length: 30 }, (_, i) => aMessage(own, { status: 'QUEUED', provider: null, createdAt: at(i * 60) }));
      await storage.messages.insertMany([first]);
      await storage.messages.insertMany(bulk);
      await storage.messages.transition(first.id, ['QUEUED'], { status: 'PENDING', updatedAt: at(1) });
      await storage.messages.transition(first.id, ['PENDING'], { status: 'SENT', provider: 'p9', updatedAt: at(2) });
      await storage.messages.transition(first.id, ['SENT'], { status: 'FAILED', cost: 0, updatedAt: at(3) });
      for (const m of bulk.slice(0, 10)) await storage.messages.transition(m.id, ['QUEUED'], { status: 'DELIVERED', provider: 'p9', updatedAt: at(4) });
      await storage.messages.transition(bulk[11]!.id, ['QUEUED'], { status: 'PENDING', attempts: 1, updatedAt: at(4) }); // still "not sent yet": QUEUED
      await storage.transaction(async (tx) => {
        await tx.messages.transition(bulk[10]!.id, ['QUEUED'], { status: 'FAILED', cost: 0, updatedAt: at(5) });
        throw new Error('rolled back');
      }).catch(() => undefined);
      expect(sortBy(await storage.analytics.dailyMessages(own, from, to), (r) => r.status)).to.deep.equal([
        { day: '2026-03-02', channel: 'SMS', status: 'DELIVERED', messages: 10, segments: 10, cost: 30, outbox: 0 },
        { day: '2026-03-02', channel: 'SMS', status: 'FAILED', messages: 1, segments: 1, cost: 0, outbox: 0 },
        { day: '2026-03-02', channel: 'SMS', status: 'QUEUED', messages: 20, segments: 20, cost: 60, outbox: 0 },
      ]);
      expect(await storage.analytics.providerOutcomes(own, from, to)).to.deep.equal([{ provider: 'p9', accepted: 10, failed: 1 }]);
    });
  });
}
