import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { InAppInboxProvider, InAppProviderDirectory } from '../../../adapters/providers/in-app-provider.ts';
import { StaticProviderDirectory } from '../../../adapters/providers/static-provider-directory.ts';
import { SandboxProvider } from '../../../adapters/providers/sandbox-provider.ts';
import { AesGcmCredentialCipher } from '../../../adapters/security/aes-gcm-credential-cipher.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { AdvanceUnreadTrigger } from '../../../core/use-cases/events/advance-unread-trigger.ts';
import { AuthenticateSubscriber } from '../../../core/use-cases/inbox/authenticate-subscriber.ts';
import { GetInboxFeed } from '../../../core/use-cases/inbox/get-inbox-feed.ts';
import { ManageInboxSettings } from '../../../core/use-cases/inbox/manage-inbox-settings.ts';
import { MarkInboxItems } from '../../../core/use-cases/inbox/mark-inbox-items.ts';
import { DeliverMessage } from '../../../core/use-cases/messaging/deliver-message.ts';
import { SendMessage } from '../../../core/use-cases/messaging/send-message.ts';
import { DEFAULT_FRAUD_LIMITS } from '../../../core/use-cases/messaging/send-context.ts';
import { buildEvents } from '../events/events-fixtures.ts';

const hmac = (secret: string, id: string) => createHmac('sha256', secret).update(id).digest('hex');

async function buildInbox() {
  const events = await buildEvents();
  const { core, organizationId } = events;
  const cipher = new AesGcmCredentialCipher('0'.repeat(64));
  const inApp = new InAppInboxProvider({ storage: core.storage, ids: core.ids, clock: core.clock });
  const directory = new InAppProviderDirectory(new StaticProviderDirectory(Object.values(events.providers), [new SandboxProvider('IN_APP')]), inApp);
  const deliver = new DeliverMessage({ storage: core.storage, providers: directory, clock: core.clock, ids: core.ids, maxAttempts: 3, leaseSeconds: 60 });
  const deps = { storage: core.storage, pricing: core.storage.pricing, clock: core.clock, ids: core.ids, secrets: core.secrets, fraud: DEFAULT_FRAUD_LIMITS, deliverNow: (id: string) => deliver.execute(id) };
  return {
    ...events, cipher, deps,
    send: new SendMessage(deps),
    settings: new ManageInboxSettings({ storage: core.storage, secrets: core.secrets, cipher, clock: core.clock }),
    authenticate: new AuthenticateSubscriber({ storage: core.storage, secrets: core.secrets, cipher, clock: core.clock, cacheMs: 0 }),
    feed: new GetInboxFeed({ storage: core.storage }),
    mark: new MarkInboxItems({ storage: core.storage, clock: core.clock }),
    unread: new AdvanceUnreadTrigger(deps),
    me: { organizationId, subscriberId: 'user-1' },
  };
}

describe('Inbox (IN_APP)', () => {
  it('delivers an IN_APP send by storing it in the subscriber\'s feed: DELIVERED, free, one item even if delivered twice', async () => {
    const t = await buildInbox();
    const { log } = await t.send.execute(t.ctx, { channel: 'IN_APP', to: 'user-1', body: 'Hello', subject: 'Hi' });
    expect(log).to.deep.include({ status: 'DELIVERED', channel: 'IN_APP', recipient: 'user-1', cost: 0, provider: 'inbox' });
    const feed = await t.feed.execute(t.me, {});
    expect(feed.items).to.have.length(1);
    expect(feed.items[0]).to.deep.include({ subject: 'Hi', body: 'Hello', messageId: log.id });
    expect(feed.counts).to.deep.equal({ unread: 1, unseen: 1, total: 1 });
    await new InAppInboxProvider({ storage: t.core.storage, ids: t.core.ids, clock: t.core.clock }).send({
      messageId: String(log.id), internalMessageId: String(log.id), organizationId: t.organizationId, channel: 'IN_APP', to: 'user-1', subject: 'Hi', body: 'Hello', senderId: null,
    });
    expect((await t.feed.execute(t.me, {})).items).to.have.length(1);
  });

  it('keeps sandbox IN_APP sends out of the real feed', async () => {
    const t = await buildInbox();
    const { log } = await t.send.execute({ ...t.ctx, isSandbox: true, apiKeyId: 'key-test' }, { channel: 'IN_APP', to: 'user-1', body: 'Sandbox' });
    expect(log.status).to.equal('DELIVERED');
    expect((await t.feed.execute(t.me, {})).items).to.deep.equal([]);
  });

  it('authenticates a subscriber by the HMAC of its id under the organization\'s secret, and nothing else', async () => {
    const t = await buildInbox();
    const rotatedFirst = await t.settings.rotate(t.organizationId);
    const [appId, secret] = [rotatedFirst.appId!, rotatedFirst.secret];
    expect(await t.authenticate.execute({ appId, subscriberId: 'user-1', subscriberHash: hmac(secret, 'user-1') })).to.deep.equal(t.me);
    expect(await t.authenticate.execute({ appId, subscriberId: 'user-1', subscriberHash: hmac(secret, 'user-1').toUpperCase() })).to.deep.equal(t.me);
    const refused = [
      {}, { appId, subscriberId: 'user-1' }, { appId, subscriberId: 'user-1', subscriberHash: hmac(secret, 'user-2') },
      { appId: 'app_nope', subscriberId: 'user-1', subscriberHash: hmac(secret, 'user-1') }, { appId, subscriberId: 'bad id', subscriberHash: hmac(secret, 'bad id') },
    ];
    for (const credentials of refused) {
      const error = await t.authenticate.execute(credentials).then(() => null, (e: { code?: string }) => e);
      expect(error?.code, JSON.stringify(credentials)).to.equal('UNAUTHORIZED');
    }
    const rotated = await t.settings.rotate(t.organizationId);
    expect(rotated.appId).to.equal(appId);
    expect(((await t.authenticate.execute({ appId, subscriberId: 'user-1', subscriberHash: hmac(secret, 'user-1') }).catch((e: { code: string }) => e)) as { code?: string }).code).to.equal('UNAUTHORIZED');
    const view = await t.settings.get(t.organizationId);
    expect(JSON.stringify(view)).not.to.include(rotated.secret);
    expect((await t.core.storage.inbox.getSettings(t.organizationId))?.secretCiphertext).not.to.include(rotated.secret);
  });

  it('marks one, several and all items, ignoring other subscribers\' ids, and answers the counts', async () => {
    const t = await buildInbox();
    for (const to of ['user-1', 'user-1', 'user-2']) await t.send.execute(t.ctx, { channel: 'IN_APP', to, body: `for ${to}` });
    const [mine, theirs] = [(await t.feed.execute(t.me, {})).items, (await t.feed.execute({ ...t.me, subscriberId: 'user-2' }, {})).items];
    expect(await t.mark.execute(t.me, { ids: [mine[0]!.id, theirs[0]!.id], mark: 'seen' })).to.deep.equal({ changed: 1, counts: { unread: 2, unseen: 1, total: 2 } });
    const error = await t.mark.one(t.me, theirs[0]!.id, 'read').catch((e: { code: string }) => e);
    expect((error as { code: string }).code).to.equal('NOT_FOUND');
    expect(await t.mark.all(t.me, { mark: 'read' })).to.deep.equal({ changed: 2, counts: { unread: 0, unseen: 0, total: 2 } });
    expect((await t.feed.counts({ ...t.me, subscriberId: 'user-2' }))).to.deep.equal({ unread: 1, unseen: 1, total: 1 });
  });

  describe('events: IN_APP first, then the next channel if unread', () => {
    async function fire(t: Awaited<ReturnType<typeof buildInbox>>, unreadAfterMinutes: number | null) {
      const template = await t.template({ channel: 'IN_APP', body: 'Order {{order}} shipped', variables: ['order'] });
      const event = await t.createEvent.execute(t.scope, { name: 'Bell', slug: `bell-${unreadAfterMinutes}`, templateId: template.id, channelPriority: ['IN_APP'],
        fallbackRules: { channels: ['SMS'], unreadAfterMinutes } });
      const { trigger } = await new (await import('../../../core/use-cases/events/trigger-event.ts')).TriggerEvent(t.deps)
        .execute(t.ctx, { event: event.slug, subscriberId: 'user-1', to: '+233241230000', variables: { order: 'A-1' } });
      return trigger;
    }

    it('schedules the check unreadAfterMinutes later, and sends SMS when the item is still unread', async () => {
      const t = await buildInbox();
      const trigger = await fire(t, 15);
      expect(trigger).to.deep.include({ status: 'DELIVERED', channel: 'IN_APP' });
      const jobs = t.jobs(QUEUES.inboxUnreadFallback);
      expect(jobs).to.have.length(1);
      expect(jobs[0]).to.deep.include({ startAfterSeconds: 900, data: { triggerId: trigger.id, messageId: String(trigger.deliveryLogs[0]!.id) } });
      await t.unread.execute(trigger.id, String(trigger.deliveryLogs[0]!.id));
      expect(t.providers.SMS.received.map((m) => m.body)).to.deep.equal(['Order A-1 shipped']);
      await t.unread.execute(trigger.id, String(trigger.deliveryLogs[0]!.id));
      expect(t.providers.SMS.received).to.have.length(1);
    });

    it('sends nothing when the item was read (or archived) in time, and schedules nothing without unreadAfterMinutes', async () => {
      const t = await buildInbox();
      const trigger = await fire(t, 15);
      await t.mark.all(t.me, { mark: 'archived' });
      await t.unread.execute(trigger.id, String(trigger.deliveryLogs[0]!.id));
      expect(t.providers.SMS.received).to.deep.equal([]);
      const plain = await fire(t, null);
      expect(t.jobs(QUEUES.inboxUnreadFallback).filter((j) => j.data['triggerId'] === plain.id)).to.deep.equal([]);
    });
  });
});
