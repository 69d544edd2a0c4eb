import { expect } from 'chai';
import type { Message } from '../../core/domain/message.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { randomUUID } from 'node:crypto';
import { aMessage, at, seedOrganization } from './contract-fixtures.ts';

/** A UUIDv7 of `createdAt` (how sends make ids), so on PostgreSQL the row lands in its month's partition when there is one. */
function uuidV7At(createdAt: Date): string {
  const ms = createdAt.getTime().toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${randomUUID().slice(15)}`;
}

function logAt(organizationId: string, createdAt: Date, overrides: Partial<Message> = {}): Message {
  const id = uuidV7At(createdAt);
  return aMessage(organizationId, { id, internalMessageId: `msg_${id.replaceAll('-', '')}`, createdAt, updatedAt: createdAt, ...overrides });
}

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The order of every delivery-log read: created_at desc, then id desc. */
const newestFirst = (messages: readonly Message[]) =>
  [...messages].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((m) => m.id);

/** MessageRepository's delivery-log reads (list with its capped total, stream in chunks), run against every Storage. */
export function describeDeliveryLogReadsContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`Delivery log reads contract: ${name}`, () => {
    let storage: Storage;
    let org: string;
    let other: string;
    let logs: Message[];
    before(async () => {
      storage = await makeStorage();
      org = (await seedOrganization(storage)).id;
      other = (await seedOrganization(storage)).id;
      const statuses = ['SENT', 'DELIVERED', 'FAILED', 'PENDING'] as const;
      const channels = ['SMS', 'EMAIL', 'VOICE'] as const;
      logs = [];
      // 2,400 logs over two months, three at each instant (ties on created_at broken by id).
      for (let i = 0; i < 2_400; i++) {
        logs.push(logAt(org, at(Math.floor(i / 3) * 3_600), { status: statuses[i % 4]!, channel: channels[i % 3]! }));
      }
      // This month's logs (its partition exists on PostgreSQL) and hand-made ids (the DEFAULT partition's rows, like the months without a partition).
      const now = Date.now();
      for (let i = 0; i < 30; i++) logs.push(logAt(org, new Date(now - i * 1_000), { status: statuses[i % 4]!, channel: channels[i % 3]! }));
      logs.push(aMessage(org, { status: 'FAILED', channel: 'VOICE', createdAt: at(30), updatedAt: at(30) }));
      logs.push(aMessage(org, { status: 'SENT', channel: 'SMS', createdAt: at(9_000_000), updatedAt: at(9_000_000) }));
      for (let i = 0; i < logs.length; i += 500) await storage.messages.insertMany(logs.slice(i, i + 500));
      await storage.messages.insertMany([logAt(other, at(60), { status: 'FAILED', channel: 'VOICE' }), logAt(other, at(9_999_999))]);
    });

    it('lists newest first, ties broken by id, page by page, with the total counted up to the cap', async () => {
      const expected = newestFirst(logs);
      const first = await storage.messages.list(org, {}, 0, 20, 10_000);
      expect(first.items.map((m) => m.id)).to.deep.equal(expected.slice(0, 20));
      expect(first.total).to.equal(logs.length);
      const deep = await storage.messages.list(org, {}, 2_390, 20, 10_000);
      expect(deep.items.map((m) => m.id)).to.deep.equal(expected.slice(2_390, 2_410));
      expect((await storage.messages.list(org, {}, 0, 5, 1_000)).total).to.equal(1_000);
      expect((await storage.messages.list(org, {}, 5_000, 20, 10_000)).items).to.deep.equal([]);
    });

    it('filters by status, by channel and by both, each with its own total', async () => {
      for (const filter of [{ status: 'FAILED' as const }, { channel: 'VOICE' as const }, { status: 'FAILED' as const, channel: 'VOICE' as const }, { status: 'PENDING' as const, channel: 'EMAIL' as const }]) {
        const matching = logs.filter((m) => (!filter.status || m.status === filter.status) && (!('channel' in filter) || m.channel === filter.channel));
        const page = await storage.messages.list(org, filter, 10, 30, 10_000);
        expect(page.items.map((m) => m.id), JSON.stringify(filter)).to.deep.equal(newestFirst(matching).slice(10, 40));
        expect(page.total, JSON.stringify(filter)).to.equal(matching.length);
      }
    });

    it('never shows another organization\'s logs', async () => {
      const page = await storage.messages.list(org, { status: 'FAILED', channel: 'VOICE' }, 0, 100, 10_000);
      expect(page.items.every((m) => m.organizationId === org)).to.equal(true);
      const theirs = await storage.messages.list(other, {}, 0, 100, 10_000);
      expect(theirs.total).to.equal(2);
    });

    it('streams every matching log once, newest first, across chunks whose edges fall inside a created_at tie, up to the limit', async () => {
      const streamed = await all(storage.messages.stream(org, {}, 10_000));
      expect(streamed.map((m) => m.id)).to.deep.equal(newestFirst(logs));
      const limited = await all(storage.messages.stream(org, { channel: 'SMS' }, 1_001));
      expect(limited.map((m) => m.id)).to.deep.equal(newestFirst(logs.filter((m) => m.channel === 'SMS')).slice(0, 1_001));
    });
  });
}
