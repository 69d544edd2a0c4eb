import { expect } from 'chai';
import type { Contact } from '../../core/domain/contact.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { aMessage, at, seedOrganization, uniqueId } from './contract-fixtures.ts';

function aContact(organizationId: string, fcmToken: string | null): Contact {
  return { id: uniqueId('contact'), organizationId, firstName: 'Ama', lastName: null, phone: null, email: null, countryCode: 'GH', tags: [], fcmToken, attributes: {}, optedOutAt: null, createdAt: at(0), updatedAt: at(0) };
}

/** Push content kept with a message, and dead push tokens removed from contacts (issue 29), on every Storage. */
export function describePushTokensContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`Push content and dead push tokens contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('keeps a PUSH message\'s image, link and data, and null for a message without them', async () => {
      const org = (await seedOrganization(storage)).id;
      const push = { imageUrl: 'https://cdn.example.com/a.png', link: 'shop://orders/42', data: { orderId: '42', 'emoji': '✓' } };
      const withPush = aMessage(org, { channel: 'PUSH', recipient: 'ExponentPushToken[abc]', subject: 'Shipped', push });
      const without = aMessage(org);
      await storage.messages.insertMany([withPush, without]);
      expect((await storage.messages.findById(org, withPush.id))?.push).to.deep.equal(push);
      expect((await storage.messages.findForDelivery(withPush.id))?.push).to.deep.equal(push);
      expect((await storage.messages.findById(org, without.id))?.push ?? null).to.equal(null);
    });

    it('clears exactly that token from the organization\'s contacts, records when and why, and leaves other organizations alone', async () => {
      const org = (await seedOrganization(storage)).id;
      const other = (await seedOrganization(storage)).id;
      const token = `ExponentPushToken[${uniqueId('tok')}]`;
      const holder = aContact(org, token);
      const keeper = aContact(org, `${token}x`);
      const stranger = aContact(other, token);
      for (const c of [holder, keeper, stranger]) await storage.contacts.insert(c);
      const changed = await storage.contacts.clearPushToken(org, token, at(60), 'UNREGISTERED: DeviceNotRegistered');
      expect(changed.map((c) => [c.id, c.fcmToken, c.pushTokenRemovedAt?.toISOString(), c.pushTokenRemovedReason])).to.deep.equal([
        [holder.id, null, at(60).toISOString(), 'UNREGISTERED: DeviceNotRegistered'],
      ]);
      expect((await storage.contacts.findById(org, holder.id))).to.include({ fcmToken: null, pushTokenRemovedReason: 'UNREGISTERED: DeviceNotRegistered' });
      expect((await storage.contacts.findById(org, keeper.id))?.fcmToken).to.equal(`${token}x`);
      expect((await storage.contacts.findById(other, stranger.id))?.fcmToken).to.equal(token);
      expect(await storage.contacts.clearPushToken(org, token, at(61), 'again')).to.deep.equal([]);
    });

    it('marks an outbound conversation message the outbox took localOnly, and one a vendor took not', async () => {
      const org = (await seedOrganization(storage)).id;
      const address = `+23324${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
      const conversation = { id: uniqueId('conv'), organizationId: org, contactId: uniqueId('contact'), channel: 'SMS' as const, address, lastInboundTo: 'NKRA',
        lastInboundAt: at(0), lastMessageAt: at(0), lastMessagePreview: 'hi', unreadCount: 0, createdAt: at(0), updatedAt: at(0) };
      await storage.conversations.insert(conversation);
      await storage.messages.insertMany([
        aMessage(org, { channel: 'SMS', recipient: address, body: 'outbox', providerMessageId: 'outbox_msg_1', createdAt: at(20) }),
        aMessage(org, { channel: 'SMS', recipient: address, body: 'vendor', providerMessageId: 'vendor-1', createdAt: at(10) }),
      ]);
      const thread = await storage.conversations.thread(org, conversation, null, 10);
      expect(thread.map((t) => [t.body, t.localOnly])).to.deep.equal([['outbox', true], ['vendor', false]]);
    });

    it('matches an APNs token whatever its case', async () => {
      const org = (await seedOrganization(storage)).id;
      const hex = uniqueId('x').replace(/[^0-9a-f]/g, '').padEnd(64, 'a').slice(0, 64);
      const holder = aContact(org, hex.toUpperCase());
      await storage.contacts.insert(holder);
      expect((await storage.contacts.clearPushToken(org, hex.toLowerCase(), at(5), 'UNREGISTERED: Unregistered')).map((c) => c.id)).to.deep.equal([holder.id]);
    });
  });
}
