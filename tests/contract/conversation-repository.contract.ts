import { expect } from 'chai';
import type { Conversation, InboundMessage } from '../../core/domain/conversation.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { aMessage, anOrganization, at, rejection, uniqueId } from './contract-fixtures.ts';

function aConversation(organizationId: string, address: string, overrides: Partial<Conversation> = {}): Conversation {
  return { id: uniqueId('conv'), organizationId, contactId: uniqueId('contact'), channel: 'WHATSAPP', address, lastInboundTo: '1065403522', lastInboundAt: at(0),
    lastMessageAt: at(0), lastMessagePreview: 'hi', unreadCount: 0, createdAt: at(0), updatedAt: at(0), ...overrides };
}

function anInbound(c: Conversation, overrides: Partial<InboundMessage> = {}): InboundMessage {
  return { id: uniqueId('in'), organizationId: c.organizationId, conversationId: c.id, contactId: c.contactId, channel: c.channel, vendor: 'meta-whatsapp', provider: 'meta',
    providerMessageId: uniqueId('wamid'), from: c.address, to: c.lastInboundTo, body: 'hello', keyword: null, receivedAt: at(10), createdAt: at(10), ...overrides };
}

const phone = () => `+23324${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

/** The ConversationRepository and InboundNumberRepository contracts (core/ports), run against every Storage. */
export function describeConversationRepositoryContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`ConversationRepository contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });
    const seedOrg = async () => { const org = anOrganization(); await storage.organizations.insert(org); return org.id; };

    it('keeps one conversation per organization, channel and address, never crossing organizations', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const address = phone();
      const c = aConversation(org, address);
      await storage.conversations.insert(c);
      expect((await rejection(storage.conversations.insert(aConversation(org, address)))).code).to.equal('CONFLICT');
      await storage.conversations.insert(aConversation(org, address, { channel: 'SMS' }));
      await storage.conversations.insert(aConversation(other, address));
      expect(await storage.conversations.findByAddress(org, 'WHATSAPP', address)).to.deep.equal(c);
      expect(await storage.conversations.findById(other, c.id)).to.equal(null);
      expect(await storage.conversations.markRead(other, c.id, at(5))).to.equal(false);
    });

    it('stores an inbound message once per vendor message id, and moves the conversation forward only', async () => {
      const org = await seedOrg();
      const c = aConversation(org, phone());
      await storage.conversations.insert(c);
      const first = anInbound(c, { receivedAt: at(20) });
      expect(await storage.conversations.insertInbound(first)).to.equal(true);
      expect(await storage.conversations.insertInbound({ ...anInbound(c), providerMessageId: first.providerMessageId })).to.equal(false);
      await storage.conversations.touchInbound(org, c.id, { receivedAt: at(20), to: 'new-number', preview: 'latest', now: at(21) });
      await storage.conversations.touchInbound(org, c.id, { receivedAt: at(15), to: 'old-number', preview: 'late retry', now: at(22) });
      const stored = (await storage.conversations.findById(org, c.id))!;
      expect(stored).to.include({ unreadCount: 2, lastInboundTo: 'new-number', lastMessagePreview: 'latest' });
      expect(stored.lastInboundAt.toISOString()).to.equal(at(20).toISOString());
      expect(await storage.conversations.markRead(org, c.id, at(30))).to.equal(true);
      expect((await storage.conversations.findById(org, c.id))!.unreadCount).to.equal(0);
    });

    it('answers the last inbound time of several (organization, address) pairs in one lookup, in order', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const [a, b] = [phone(), phone()];
      await storage.conversations.insert(aConversation(org, a, { lastInboundAt: at(100) }));
      await storage.conversations.insert(aConversation(org, b, { channel: 'SMS', lastInboundAt: at(200) }));
      const found = await storage.conversations.lastInboundAt('WHATSAPP', [{ organizationId: org, address: a }, { organizationId: other, address: a },
        { organizationId: org, address: b }, { organizationId: org, address: a }]);
      expect(found.map((d) => d?.toISOString() ?? null)).to.deep.equal([at(100).toISOString(), null, null, at(100).toISOString()]);
      expect(await storage.conversations.lastInboundAt('WHATSAPP', [])).to.deep.equal([]);
    });

    it('lists newest first with a keyset cursor and filters; the thread merges inbound and outbound messages newest first', async () => {
      const org = await seedOrg();
      const convs = [1, 2, 3].map((n) => aConversation(org, phone(), { lastMessageAt: at(n), unreadCount: n === 2 ? 1 : 0, channel: n === 3 ? 'SMS' : 'WHATSAPP' }));
      for (const c of convs) await storage.conversations.insert(c);
      const page1 = await storage.conversations.list(org, { limit: 2 });
      expect(page1.map((c) => c.id)).to.deep.equal([convs[2]!.id, convs[1]!.id]);
      const page2 = await storage.conversations.list(org, { limit: 2, before: { at: page1[1]!.lastMessageAt, id: page1[1]!.id } });
      expect(page2.map((c) => c.id)).to.deep.equal([convs[0]!.id]);
      expect((await storage.conversations.list(org, { limit: 10, unreadOnly: true })).map((c) => c.id)).to.deep.equal([convs[1]!.id]);
      expect((await storage.conversations.list(org, { limit: 10, channel: 'SMS' })).map((c) => c.id)).to.deep.equal([convs[2]!.id]);

      const c = convs[0]!;
      await storage.conversations.insertInbound(anInbound(c, { body: 'question', receivedAt: at(10) }));
      await storage.messages.insertMany([aMessage(org, { channel: 'WHATSAPP', recipient: c.address, body: 'answer', createdAt: at(20) }),
        aMessage(org, { channel: 'SMS', recipient: c.address, body: 'other channel', createdAt: at(30) })]);
      const thread = await storage.conversations.thread(org, c, null, 10);
      expect(thread.map((t) => [t.direction, t.body])).to.deep.equal([['OUTBOUND', 'answer'], ['INBOUND', 'question']]);
      expect((await storage.conversations.thread(org, c, at(20), 10)).map((t) => t.body)).to.deep.equal(['question']);
    });

    it('keeps keywords unique per organization', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const k = { id: uniqueId('kw'), organizationId: org, keyword: 'HOURS', action: 'AUTO_REPLY' as const, replyText: '8-5', createdAt: at(0) };
      await storage.conversations.insertKeyword(k);
      expect((await rejection(storage.conversations.insertKeyword({ ...k, id: uniqueId('kw') }))).code).to.equal('CONFLICT');
      await storage.conversations.insertKeyword({ ...k, id: uniqueId('kw'), organizationId: other });
      expect(await storage.conversations.listKeywords(org)).to.deep.equal([k]);
      expect(await storage.conversations.deleteKeyword(other, k.id)).to.equal(false);
      expect(await storage.conversations.deleteKeyword(org, k.id)).to.equal(true);
    });

    it('never passes the keyword limit under concurrent inserts: of 30 at once exactly the limit land', async () => {
      const [org, other] = [await seedOrg(), await seedOrg()];
      const k = (organizationId: string, keyword: string) => ({ id: uniqueId('kw'), organizationId, keyword, action: 'AUTO_REPLY' as const, replyText: 'hi', createdAt: at(0) });
      const landed = await Promise.all(Array.from({ length: 30 }, (_, i) => storage.conversations.insertKeywordWithinLimit(k(org, `RACE${i}`), 10)));
      expect(landed.filter(Boolean)).to.have.length(10);
      expect(await storage.conversations.listKeywords(org)).to.have.length(10);
      expect(await storage.conversations.insertKeywordWithinLimit(k(other, 'RACE1'), 1)).to.equal(true);
      expect(await storage.conversations.insertKeywordWithinLimit(k(other, 'RACE2'), 1)).to.equal(false);
      expect((await rejection(storage.conversations.insertKeywordWithinLimit(k(other, 'RACE1'), 5))).code).to.equal('CONFLICT');
    });

    it('assigns a receiving address to one organization per channel', async () => {
      const org = await seedOrg();
      const address = uniqueId('pnid').replace(/[^A-Za-z0-9]/g, '');
      const n = { id: uniqueId('num'), organizationId: org, channel: 'WHATSAPP' as const, address, createdAt: at(0) };
      await storage.inboundNumbers.insert(n);
      expect((await rejection(storage.inboundNumbers.insert({ ...n, id: uniqueId('num') }))).code).to.equal('CONFLICT');
      expect(await storage.inboundNumbers.findByAddress('WHATSAPP', address)).to.deep.equal(n);
      expect(await storage.inboundNumbers.findByAddress('SMS', address)).to.equal(null);
      expect(await storage.inboundNumbers.delete(n.id)).to.equal(true);
      expect(await storage.inboundNumbers.findByAddress('WHATSAPP', address)).to.equal(null);
    });
  });
}
