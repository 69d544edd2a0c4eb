import { expect } from 'chai';
import type { InboxChange, InboxItem, InboxSettings } from '../../core/domain/inbox.ts';
import type { InboxFeed } from '../../core/ports/inbox-feed.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { anOrganization, at, uniqueId } from './contract-fixtures.ts';

export interface InboxSubject { storage: Storage; feed: InboxFeed }

let sequence = 0;
/** Ids that sort in creation order (as the service's UUIDv7 ids do). */
const run = Date.now().toString(36);
const nextId = () => `inb-${run}-${String(++sequence).padStart(6, '0')}`;

function anItem(organizationId: string, subscriberId: string, overrides: Partial<InboxItem> = {}): InboxItem {
  return {
    id: nextId(), organizationId, subscriberId, messageId: uniqueId('msg'), subject: null, body: `item ${sequence}`, createdAt: at(sequence),
    seenAt: null, readAt: null, archivedAt: null, ...overrides,
  };
}

/** Collects the feed's changes of one subscriber, and waits for them. */
function recorder(feed: InboxFeed, organizationId: string) {
  const changes: InboxChange[] = [];
  const stop = feed.subscribe((c) => { if (c.organizationId === organizationId) changes.push(c); });
  return {
    changes, stop,
    async waitFor(count: number, timeoutMs = 3_000): Promise<InboxChange[]> {
      const until = Date.now() + timeoutMs;
      while (changes.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      return changes;
    },
  };
}

/** The InboxRepository and InboxFeed contract (core/ports/inbox-repository.ts, inbox-feed.ts), run against every Storage. */
export function describeInboxRepositoryContract(name: string, make: () => Promise<InboxSubject>): void {
  describe(`InboxRepository contract: ${name}`, () => {
    let storage: Storage;
    let feed: InboxFeed;
    before(async function () { this.timeout(120_000); ({ storage, feed } = await make()); await feed.start(); }); // PGlite opens slowly on a loaded machine
    after(async () => { await feed?.close(); });
    const seedOrg = async () => { const org = anOrganization(); await storage.organizations.insert(org); return org.id; };

    it('stores an item once per message and lists it only to its subscriber in its organization', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const item = anItem(org, 'alice', { subject: 'Shipped' });
      expect(await storage.inbox.insert(item)).to.deep.equal({ item, created: true });
      const again = await storage.inbox.insert({ ...item, id: nextId() });
      expect(again).to.deep.equal({ item, created: false });
      await storage.inbox.insert(anItem(org, 'bob'));
      await storage.inbox.insert(anItem(other, 'alice'));
      expect((await storage.inbox.list(org, 'alice', { filter: 'all', limit: 10 })).items).to.deep.equal([item]);
      expect(await storage.inbox.findById(org, 'alice', item.id)).to.deep.equal(item);
      expect(await storage.inbox.findById(org, 'bob', item.id)).to.equal(null);
      expect(await storage.inbox.findById(other, 'alice', item.id)).to.equal(null);
      expect(await storage.inbox.findByMessage(org, item.messageId!)).to.deep.equal(item);
      expect(await storage.inbox.findByMessage(other, item.messageId!)).to.equal(null);
      expect(await storage.inbox.counts(other, 'alice')).to.deep.equal({ unread: 1, unseen: 1, total: 1 });
    });

    it('pages newest first with an exclusive cursor, filters unread and archived, and resumes after an id oldest first', async () => {
      const org = await seedOrg();
      const items = [];
      for (let i = 0; i < 5; i++) items.push(anItem(org, 'pager'));
      expect(await storage.inbox.insertMany(items)).to.equal(5);
      const first = await storage.inbox.list(org, 'pager', { filter: 'all', limit: 2 });
      expect(first.items.map((i) => i.id)).to.deep.equal([items[4]!.id, items[3]!.id]);
      const second = await storage.inbox.list(org, 'pager', { filter: 'all', limit: 2, before: first.nextCursor! });
      expect(second.items.map((i) => i.id)).to.deep.equal([items[2]!.id, items[1]!.id]);
      const third = await storage.inbox.list(org, 'pager', { filter: 'all', limit: 2, before: second.nextCursor! });
      expect(third).to.deep.equal({ items: [items[0]], nextCursor: null });
      expect((await storage.inbox.listAfter(org, 'pager', items[1]!.id, 2)).map((i) => i.id)).to.deep.equal([items[2]!.id, items[3]!.id]);
      await storage.inbox.mark(org, 'pager', [items[0]!.id], 'read', at(100));
      await storage.inbox.mark(org, 'pager', [items[1]!.id], 'archived', at(100));
      expect((await storage.inbox.list(org, 'pager', { filter: 'unread', limit: 10 })).items.map((i) => i.id)).to.deep.equal([items[4]!.id, items[3]!.id, items[2]!.id]);
      expect((await storage.inbox.list(org, 'pager', { filter: 'archived', limit: 10 })).items.map((i) => i.id)).to.deep.equal([items[1]!.id]);
      expect((await storage.inbox.listAfter(org, 'pager', items[0]!.id, 10)).map((i) => i.id)).not.to.include(items[1]!.id);
      expect(await storage.inbox.counts(org, 'pager')).to.deep.equal({ unread: 3, unseen: 3, total: 4 });
    });

    it('marks only the subscriber\'s items, keeps first timestamps, and answers how many changed', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const [a1, a2, b1] = [anItem(org, 'a'), anItem(org, 'a'), anItem(org, 'b')];
      const foreign = anItem(other, 'a');
      await storage.inbox.insertMany([a1, a2, b1, foreign]);
      expect(await storage.inbox.mark(org, 'a', [a1.id, b1.id, foreign.id], 'seen', at(10))).to.equal(1);
      expect(await storage.inbox.mark(org, 'a', [a1.id], 'seen', at(20))).to.equal(0);
      expect((await storage.inbox.findById(org, 'a', a1.id))?.seenAt).to.deep.equal(at(10));
      expect(await storage.inbox.mark(org, 'a', 'all', 'read', at(30))).to.equal(2);
      const read = await storage.inbox.findById(org, 'a', a1.id);
      expect(read).to.deep.include({ seenAt: at(10), readAt: at(30), archivedAt: null });
      expect(await storage.inbox.mark(org, 'a', [a1.id], 'unread', at(40))).to.equal(1);
      expect((await storage.inbox.findById(org, 'a', a1.id))?.readAt).to.equal(null);
      expect(await storage.inbox.mark(org, 'a', 'all', 'archived', at(50))).to.equal(2);
      expect(await storage.inbox.mark(org, 'a', [a2.id], 'unarchived', at(60))).to.equal(1);
      expect(await storage.inbox.counts(org, 'a')).to.deep.equal({ unread: 0, unseen: 0, total: 1 });
      expect(await storage.inbox.counts(org, 'b')).to.deep.equal({ unread: 1, unseen: 1, total: 1 });
      expect((await storage.inbox.findById(other, 'a', foreign.id))?.seenAt).to.equal(null);
    });

    it('publishes new items and marks to the feed once they are stored, and nothing for a repeated message or a mark that changes nothing', async () => {
      const org = await seedOrg();
      const changes = recorder(feed, org);
      try {
        const item = anItem(org, 'listener', { subject: 'Hello' });
        await storage.inbox.insert(item);
        await storage.inbox.insert({ ...item, id: nextId() });
        await storage.inbox.mark(org, 'listener', [item.id], 'read', at(5));
        await storage.inbox.mark(org, 'listener', [item.id], 'read', at(6));
        const seen = await changes.waitFor(2);
        await new Promise((r) => setTimeout(r, 100));
        expect(seen).to.have.length(2);
        expect(seen[0]).to.deep.include({ kind: 'item', organizationId: org, subscriberId: 'listener', itemId: item.id });
        expect((seen[0] as Extract<InboxChange, { kind: 'item' }>).item).to.deep.include({ id: item.id, subject: 'Hello', body: item.body, read: false });
        expect(seen[1]).to.deep.equal({ kind: 'marked', organizationId: org, subscriberId: 'listener', itemIds: [item.id], mark: 'read' });
      } finally { changes.stop(); }
    });

    it('announces every item of a large insertMany (grouped into few notifications where the adapter can)', async () => {
      const org = await seedOrg();
      const changes = recorder(feed, org);
      try {
        const items = Array.from({ length: 120 }, (_, i) => anItem(org, `many-${i}`));
        expect(await storage.inbox.insertMany(items)).to.equal(120);
        const seen = await changes.waitFor(120);
        expect(seen.map((c) => (c.kind === 'item' ? c.itemId : null)).sort()).to.deep.equal(items.map((i) => i.id).sort());
        expect(await storage.inbox.insertMany(items)).to.equal(0);
      } finally { changes.stop(); }
    });

    it('announces an item too big to carry by id only', async () => {
      const org = await seedOrg();
      const changes = recorder(feed, org);
      try {
        const item = anItem(org, 'big', { body: 'ɛ'.repeat(5_000) });
        await storage.inbox.insert(item);
        const [change] = await changes.waitFor(1);
        expect(change).to.deep.include({ kind: 'item', itemId: item.id, item: null });
      } finally { changes.stop(); }
    });

    it('publishes nothing for a transaction that rolls back', async function () {
      const org = await seedOrg();
      const changes = recorder(feed, org);
      try {
        await storage.transaction(async (tx) => {
          await tx.inbox.insert(anItem(org, 'rollback'));
          throw new Error('roll back');
        }).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 150));
        if (name === 'memory') this.skip(); // the in-process bus publishes at once: documented in docs/inbox.md
        expect(changes.changes).to.deep.equal([]);
        expect(await storage.inbox.counts(org, 'rollback')).to.deep.equal({ unread: 0, unseen: 0, total: 0 });
      } finally { changes.stop(); }
    });

    it('keeps one settings row per organization with a stable, unique application id', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const settings: InboxSettings = { organizationId: org, appId: uniqueId('app'), secretCiphertext: 'c1', secretHint: 'abcd', createdAt: at(0), rotatedAt: at(0) };
      expect(await storage.inbox.getSettings(org)).to.equal(null);
      await storage.inbox.saveSettings(settings);
      await storage.inbox.saveSettings({ ...settings, appId: 'ignored', secretCiphertext: 'c2', secretHint: 'wxyz', rotatedAt: at(60) });
      const saved = await storage.inbox.getSettings(org);
      expect(saved).to.deep.equal({ ...settings, secretCiphertext: 'c2', secretHint: 'wxyz', rotatedAt: at(60) });
      expect(await storage.inbox.findSettingsByAppId(settings.appId)).to.deep.equal(saved);
      expect(await storage.inbox.findSettingsByAppId('app-unknown')).to.equal(null);
      expect(await storage.inbox.getSettings(other)).to.equal(null);
    });
  });
}
