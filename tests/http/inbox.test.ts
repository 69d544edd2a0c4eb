import { createHmac, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import { AdvanceUnreadTrigger } from '../../core/use-cases/events/advance-unread-trigger.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { SseClient } from '../support/sse-client.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { openDatabase } from '../../adapters/postgres/database.ts';
import { MikroOrmStorage } from '../../adapters/postgres/mikro-orm-storage.ts';
import { UuidV7IdGenerator } from '../../adapters/security/uuid-v7-id-generator.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

interface Inbox { appId: string; secret: string }
const hmac = (secret: string, subscriberId: string) => createHmac('sha256', secret).update(subscriberId).digest('hex');

describe('HTTP: in-app inbox (IN_APP)', function () {
  this.timeout(40_000);
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let inbox: Inbox;
  let otherInbox: Inbox;
  const sms = new RecordingProvider('SMS', 'inbox-sms');
  const providers = new StaticProviderDirectory([sms], []);
  const streams: SseClient[] = [];

  const as = (box: Inbox, subscriberId: string, hash = hmac(box.secret, subscriberId)) => ({
    'x-inbox-app-id': box.appId, 'x-inbox-subscriber-id': subscriberId, 'x-inbox-subscriber-hash': hash,
  });
  const feed = (box: Inbox, subscriberId: string, query = '') => app.api.get(`/inbox/v1/feed${query}`, {}, as(box, subscriberId));
  const sendInApp = async (who: TestTenant, to: string, body: string, extra: Record<string, unknown> = {}) => {
    const res = await app.api.post('/messages/send', { channel: 'IN_APP', to, body, ...extra }, who.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data;
  };
  const openStream = async (box: Inbox, subscriberId: string, headers: Record<string, string> = {}) => {
    const q = new URLSearchParams({ appId: box.appId, subscriberId, subscriberHash: hmac(box.secret, subscriberId) });
    const stream = await SseClient.open(`${app.url}/inbox/v1/stream?${q}`, headers);
    streams.push(stream);
    return stream;
  };

  before(async () => {
    app = await startTestApp({ providers, config: { inboxStreamsPerSubscriber: 3 } });
    tenant = await registerTenant(app.api, 'inbox');
    other = await registerTenant(app.api, 'inbox-other');
    const created = await app.api.post('/inbox/settings/secret', undefined, tenant.auth);
    expect(created.status, created.text).to.equal(201);
    inbox = created.body.data;
    otherInbox = (await app.api.post('/inbox/settings/secret', undefined, other.auth)).body.data;
  });
  afterEach(() => { for (const s of streams.splice(0)) s.close(); });
  after(async () => { await app.close(); });

  describe('settings', () => {
    it('creates the secret once visible, then shows only the application id and a hint', async () => {
      expect(inbox.appId).to.match(/^app_/);
      expect(inbox.secret).to.match(/^nk_inbox_/);
      const res = await app.api.get('/inbox/settings', tenant.auth);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.include({ configured: true, appId: inbox.appId, secretHint: `…${inbox.secret.slice(-4)}` });
      expect(res.text).not.to.include(inbox.secret);
    });

    it('answers configured false before any secret, and refuses an API key', async () => {
      const fresh = await registerTenant(app.api, 'inbox-fresh');
      const res = await app.api.get('/inbox/settings', fresh.auth);
      expect(res.body.data).to.deep.include({ configured: false, appId: null });
      const key = (await app.api.post('/api-keys', { name: 'k', isSandbox: false }, fresh.auth)).body.data.key as string;
      expect((await app.api.post('/inbox/settings/secret', undefined, { apiKey: key })).status).to.equal(401);
    });

    it('computes a subscriber hash for the dashboard that the feed accepts', async () => {
      const res = await app.api.post('/inbox/settings/subscriber-hash', { subscriberId: 'user-hash' }, tenant.auth);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal({ appId: inbox.appId, subscriberId: 'user-hash', subscriberHash: hmac(inbox.secret, 'user-hash') });
    });

    it('rotating the secret invalidates hashes made with the old one at once, keeping the application id', async () => {
      const fresh = await registerTenant(app.api, 'inbox-rotate');
      const first = (await app.api.post('/inbox/settings/secret', undefined, fresh.auth)).body.data as Inbox;
      expect((await feed(first, 'u1')).status).to.equal(200);
      const second = (await app.api.post('/inbox/settings/secret', undefined, fresh.auth)).body.data as Inbox;
      expect(second.appId).to.equal(first.appId);
      expect(second.secret).not.to.equal(first.secret);
      const stale = await feed(first, 'u1');
      expect(stale.status).to.equal(401);
      expect(stale.body.error.code).to.equal('UNAUTHORIZED');
      expect((await feed(second, 'u1')).status).to.equal(200);
    });
  });

  describe('sending IN_APP', () => {
    it('delivers a send to the subscriber\'s feed: DELIVERED at once, free, on the delivery log', async () => {
      const subscriber = `user-${randomUUID()}`;
      const log = await sendInApp(tenant, subscriber, 'Your order A-17 has shipped', { subject: 'Shipped' });
      expect(log).to.deep.include({ status: 'DELIVERED', channel: 'IN_APP', recipient: subscriber, cost: 0 });
      const res = await feed(inbox, subscriber);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data.counts).to.deep.equal({ unread: 1, unseen: 1, total: 1 });
      expect(res.body.data.items[0]).to.deep.include({ body: 'Your order A-17 has shipped', messageId: log.id, read: false, seen: false });
      const logs = await app.api.get('/delivery-logs?channel=IN_APP', tenant.auth);
      expect(logs.body.data.items.map((l: { id: string }) => l.id)).to.include(log.id);
    });

    it('refuses a malformed subscriber id naming `to`', async () => {
      const res = await app.api.post('/messages/send', { channel: 'IN_APP', to: 'has spaces in it', body: 'x' }, tenant.auth);
      expect(res.status).to.equal(400);
      expect(res.body.error.details.fieldErrors.to[0]).to.include('subscriber id');
    });

    it('counts IN_APP in analytics by channel', async () => {
      await sendInApp(tenant, `user-${randomUUID()}`, 'counted');
      const res = await app.api.get('/analytics/overview', tenant.auth);
      expect(res.status, res.text).to.equal(200);
      const inApp = res.body.data.byChannel.find((c: { channel: string }) => c.channel === 'IN_APP');
      expect(inApp, JSON.stringify(res.body.data.byChannel)).to.exist;
      expect(inApp.total ?? inApp.sent ?? inApp.messages).to.be.greaterThan(0);
    });
  });

  describe('subscriber authentication', () => {
    it('answers 401 with the envelope without credentials, with a wrong hash, another subscriber\'s hash or an unknown application', async () => {
      const cases = [
        await app.api.get('/inbox/v1/feed'),
        await app.api.get('/inbox/v1/feed', {}, as(inbox, 'alice', 'f'.repeat(64))),
        await app.api.get('/inbox/v1/feed', {}, as(inbox, 'alice', 'not-hex')),
        await app.api.get('/inbox/v1/feed', {}, as(inbox, 'alice', hmac(inbox.secret, 'bob'))),
        await app.api.get('/inbox/v1/feed', {}, { ...as(inbox, 'alice'), 'x-inbox-app-id': 'app_unknown' }),
        await app.api.get('/inbox/v1/counts', {}, as(inbox, 'alice', hmac('not-the-secret', 'alice'))),
      ];
      for (const res of cases) {
        expect(res.status, res.text).to.equal(401);
        expect(res.body).to.deep.include({ success: false });
        expect(res.body.error.code).to.equal('UNAUTHORIZED');
      }
    });

    it('refuses a subscriber of one organization signed for another organization\'s application', async () => {
      const res = await app.api.get('/inbox/v1/feed', {}, as(otherInbox, 'alice', hmac(inbox.secret, 'alice')));
      expect(res.status).to.equal(401);
    });

    it('answers CORS preflights and keeps the CORS header on errors', async () => {
      const pre = await fetch(`${app.url}/inbox/v1/feed`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET' } });
      expect(pre.status).to.equal(204);
      expect(pre.headers.get('access-control-allow-origin')).to.equal('*');
      expect(pre.headers.get('access-control-allow-headers')).to.include('X-Inbox-Subscriber-Hash');
      const denied = await app.api.get('/inbox/v1/feed', {}, { origin: 'https://shop.example' });
      expect(denied.status).to.equal(401);
      expect(denied.headers.get('access-control-allow-origin')).to.equal('*');
    });
  });

  describe('isolation', () => {
    it('a subscriber sees and marks only their own items', async () => {
      const alice = `alice-${randomUUID()}`;
      const bob = `bob-${randomUUID()}`;
      await sendInApp(tenant, alice, 'for alice');
      await sendInApp(tenant, bob, 'for bob');
      const aliceFeed = (await feed(inbox, alice)).body.data;
      const bobFeed = (await feed(inbox, bob)).body.data;
      expect(aliceFeed.items.map((i: { body: string }) => i.body)).to.deep.equal(['for alice']);
      expect(bobFeed.items.map((i: { body: string }) => i.body)).to.deep.equal(['for bob']);
      const bobItem = bobFeed.items[0].id as string;
      const viaBatch = await app.api.post('/inbox/v1/items/mark', { ids: [bobItem], mark: 'read' }, {}, as(inbox, alice));
      expect(viaBatch.status).to.equal(200);
      expect(viaBatch.body.data.changed).to.equal(0);
      const viaOne = await app.api.post(`/inbox/v1/items/${bobItem}/mark`, { mark: 'read' }, {}, as(inbox, alice));
      expect(viaOne.status).to.equal(404);
      await app.api.post('/inbox/v1/mark-all', { mark: 'read' }, {}, as(inbox, alice));
      expect((await feed(inbox, bob)).body.data.counts.unread).to.equal(1);
    });

    it('the same subscriber id in two organizations has two separate feeds', async () => {
      const shared = `shared-${randomUUID()}`;
      await sendInApp(tenant, shared, 'from the first organization');
      await sendInApp(other, shared, 'from the second organization');
      expect((await feed(inbox, shared)).body.data.items.map((i: { body: string }) => i.body)).to.deep.equal(['from the first organization']);
      expect((await feed(otherInbox, shared)).body.data.items.map((i: { body: string }) => i.body)).to.deep.equal(['from the second organization']);
    });
  });

  describe('feed and marks', () => {
    it('pages newest first with a cursor, marks one read, all read, archives, and filters', async () => {
      const subscriber = `pager-${randomUUID()}`;
      for (let i = 1; i <= 5; i++) await sendInApp(tenant, subscriber, `item ${i}`);
      const first = (await feed(inbox, subscriber, '?limit=2')).body.data;
      expect(first.items.map((i: { body: string }) => i.body)).to.deep.equal(['item 5', 'item 4']);
      const second = (await feed(inbox, subscriber, `?limit=2&cursor=${first.nextCursor}`)).body.data;
      expect(second.items.map((i: { body: string }) => i.body)).to.deep.equal(['item 3', 'item 2']);
      const last = (await feed(inbox, subscriber, `?limit=2&cursor=${second.nextCursor}`)).body.data;
      expect(last.items.map((i: { body: string }) => i.body)).to.deep.equal(['item 1']);
      expect(last.nextCursor).to.equal(null);

      const one = await app.api.post(`/inbox/v1/items/${first.items[0].id}/mark`, { mark: 'read' }, {}, as(inbox, subscriber));
      expect(one.status, one.text).to.equal(200);
      expect(one.body.data.item).to.deep.include({ read: true, seen: true });
      expect(one.body.data.counts).to.deep.equal({ unread: 4, unseen: 4, total: 5 });
      expect((await feed(inbox, subscriber, '?filter=unread')).body.data.items).to.have.length(4);
      const archived = await app.api.post('/inbox/v1/items/mark', { ids: [first.items[1].id], mark: 'archived' }, {}, as(inbox, subscriber));
      expect(archived.body.data).to.deep.equal({ changed: 1, counts: { unread: 3, unseen: 3, total: 4 } });
      expect((await feed(inbox, subscriber, '?filter=archived')).body.data.items.map((i: { body: string }) => i.body)).to.deep.equal(['item 4']);
      const all = await app.api.post('/inbox/v1/mark-all', { mark: 'read' }, {}, as(inbox, subscriber));
      expect(all.body.data).to.deep.equal({ changed: 3, counts: { unread: 0, unseen: 0, total: 4 } });
    });

    it('validates the query and the marks', async () => {
      expect((await feed(inbox, 'v', '?limit=500')).status).to.equal(400);
      expect((await feed(inbox, 'v', '?filter=everything')).status).to.equal(400);
      expect((await app.api.post('/inbox/v1/items/mark', { ids: [], mark: 'read' }, {}, as(inbox, 'v'))).status).to.equal(400);
      expect((await app.api.post('/inbox/v1/mark-all', { mark: 'unread' }, {}, as(inbox, 'v'))).status).to.equal(400);
    });
  });

  describe('real-time stream (SSE)', () => {
    it('pushes counts at once, then a new item of this subscriber only, without polling', async () => {
      const subscriber = `live-${randomUUID()}`;
      const stream = await openStream(inbox, subscriber);
      const bystander = await openStream(inbox, `bystander-${randomUUID()}`);
      expect(stream.status).to.equal(200);
      expect(stream.headers['content-type']).to.include('text/event-stream');
      expect(JSON.parse((await stream.waitFor((e) => e.event === 'counts')).data)).to.deep.equal({ unread: 0, unseen: 0, total: 0 });
      const log = await sendInApp(tenant, subscriber, 'live item');
      const pushed = await stream.waitFor((e) => e.event === 'item');
      expect(JSON.parse(pushed.data)).to.deep.include({ body: 'live item', messageId: log.id, read: false });
      expect(pushed.id).to.equal(JSON.parse(pushed.data).id);
      await app.api.post('/inbox/v1/mark-all', { mark: 'read' }, {}, as(inbox, subscriber));
      const marked = await stream.waitFor((e) => e.event === 'marked');
      expect(JSON.parse(marked.data)).to.deep.equal({ ids: 'all', mark: 'read' });
      await stream.waitFor((e) => e.event === 'counts' && JSON.parse(e.data).unread === 0 && JSON.parse(e.data).total === 1);
      await new Promise((r) => setTimeout(r, 200));
      expect(bystander.events.filter((e) => e.event !== 'counts')).to.deep.equal([]);
    });

    it('resumes after Last-Event-ID with the items missed', async () => {
      const subscriber = `resume-${randomUUID()}`;
      await sendInApp(tenant, subscriber, 'seen before the drop');
      const first = (await feed(inbox, subscriber)).body.data.items[0].id as string;
      await sendInApp(tenant, subscriber, 'missed 1');
      await sendInApp(tenant, subscriber, 'missed 2');
      const stream = await openStream(inbox, subscriber, { 'last-event-id': first });
      await stream.waitFor((e) => e.event === 'item' && JSON.parse(e.data).body === 'missed 2');
      expect(stream.events.filter((e) => e.event === 'item').map((e) => JSON.parse(e.data).body)).to.deep.equal(['missed 1', 'missed 2']);
    });

    it('refuses a stream with a wrong hash (401 envelope) and more streams than allowed per subscriber (429)', async () => {
      const denied = await SseClient.open(`${app.url}/inbox/v1/stream?appId=${inbox.appId}&subscriberId=eve&subscriberHash=${'0'.repeat(64)}`);
      expect(denied.status).to.equal(401);
      expect(JSON.parse(denied.body).error.code).to.equal('UNAUTHORIZED');
      const subscriber = `tabs-${randomUUID()}`;
      for (let i = 0; i < 3; i++) expect((await openStream(inbox, subscriber)).status).to.equal(200);
      const fourth = await openStream(inbox, subscriber);
      expect(fourth.status).to.equal(429);
      expect(JSON.parse(fourth.body).error.code).to.equal('RATE_LIMITED');
    });

    it('holds the per-subscriber limit for 100 streams opened at once, and across API processes (leases counted in the database)', async () => {
      const subscriber = `burst-${randomUUID()}`;
      const opened = await Promise.all(Array.from({ length: 100 }, () => openStream(inbox, subscriber)));
      expect(opened.filter((s) => s.status === 200)).to.have.length(3);
      expect(opened.filter((s) => s.status === 429 && JSON.parse(s.body).error.code === 'RATE_LIMITED')).to.have.length(97);
      const second = await startTestApp({ providers, config: { inboxStreamsPerSubscriber: 3 } }); // another API process on the same database
      try {
        const there = async () => {
          const q = new URLSearchParams({ appId: inbox.appId, subscriberId: subscriber, subscriberHash: hmac(inbox.secret, subscriber) });
          const stream = await SseClient.open(`${second.url}/inbox/v1/stream?${q}`);
          streams.push(stream);
          return stream;
        };
        expect((await there()).status).to.equal(429);
        opened.find((s) => s.status === 200)!.close(); // a tab closes in the first process: its slot is free in every process
        let reopened = await there();
        for (let i = 0; i < 50 && reopened.status !== 200; i++) {
          await new Promise((r) => setTimeout(r, 100));
          reopened = await there();
        }
        expect(reopened.status).to.equal(200);
        expect((await there()).status).to.equal(429);
      } finally {
        await second.close();
      }
    });
  });

  describe('events: IN_APP first, SMS if unread', () => {
    let templateId: string;
    before(async () => {
      const template = await app.api.post('/templates', { name: 'Bell', channel: 'IN_APP', body: 'Order {{order}} shipped' }, tenant.auth);
      expect(template.status, template.text).to.equal(201);
      templateId = template.body.data.id;
      await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'test credit' }), new Date());
    });

    // Built as the worker builds it (hosts/worker/container.ts): from the send deps every send path shares.
    const advance = () => new AdvanceUnreadTrigger(app.container.get(MESSAGING.sendDeps));

    it('delivers to the bell, schedules the unread check, and sends SMS when still unread', async () => {
      const slug = `bell-${randomUUID().slice(0, 8)}`;
      const event = await app.api.post('/events', { name: 'Bell', slug, templateId, channelPriority: ['IN_APP'], fallbackRules: { channels: ['SMS'], unreadAfterMinutes: 10 } }, tenant.auth);
      expect(event.status, event.text).to.equal(201);
      expect(event.body.data.fallbackRules).to.deep.equal({ channels: ['SMS'], unreadAfterMinutes: 10 });
      const subscriber = `shopper-${randomUUID()}`;
      const fired = await app.api.post('/events/trigger', { event: slug, subscriberId: subscriber, to: '+233241110001', variables: { order: 'A-1' } }, tenant.auth);
      expect(fired.status, fired.text).to.equal(201);
      expect(fired.body.data).to.deep.include({ status: 'DELIVERED', channel: 'IN_APP' });
      expect(fired.body.data.plan).to.deep.equal(['IN_APP', 'SMS']);
      const item = (await feed(inbox, subscriber)).body.data.items[0];
      expect(item.body).to.equal('Order A-1 shipped');
      const jobs = await app.container.get(INFRA.database).em().execute<{ data: { triggerId: string; messageId: string }; start_after: Date; created_on: Date }[]>(
        `select data, start_after, created_on from pgboss.job where name = '${QUEUES.inboxUnreadFallback}' and data->>'triggerId' = ?`, [fired.body.data.id]);
      expect(jobs).to.have.length(1);
      const delayMs = new Date(jobs[0]!.start_after).getTime() - new Date(jobs[0]!.created_on).getTime();
      expect(delayMs).to.be.within(599_000, 601_000);

      const before = sms.received.length;
      const advanced = await advance().execute(fired.body.data.id, jobs[0]!.data.messageId);
      expect(advanced?.currentStep).to.equal(1);
      expect(sms.received.length).to.equal(before + 1);
      expect(sms.received[sms.received.length - 1]).to.deep.include({ to: '+233241110001', body: 'Order A-1 shipped' });
      const view = (await app.api.get(`/events/triggers/${fired.body.data.id}`, tenant.auth)).body.data;
      expect(view.steps.map((s: { channel: string }) => s.channel)).to.deep.equal(['IN_APP', 'SMS']);
      // The job again (a retry, a duplicate): nothing more is sent.
      await advance().execute(fired.body.data.id, jobs[0]!.data.messageId);
      expect(sms.received.length).to.equal(before + 1);
    });

    it('gives a marketing event\'s SMS fallback the opt-out link any marketing SMS carries', async () => {
      const template = await app.api.post('/templates', { name: 'Bell promo', channel: 'IN_APP', body: 'New arrivals: {{item}}', category: 'MARKETING' }, tenant.auth);
      expect(template.status, template.text).to.equal(201);
      // Marketing templates wait for a platform administrator (docs/compliance.md): approved here as one would.
      await app.container.get(INFRA.storage).templates.setStatus(tenant.organizationId, template.body.data.id, 'APPROVED', null, new Date());
      const slug = `bell-promo-${randomUUID().slice(0, 8)}`;
      await app.api.post('/events', { name: 'Bell promo', slug, templateId: template.body.data.id, channelPriority: ['IN_APP'], fallbackRules: { channels: ['SMS'], unreadAfterMinutes: 5 } }, tenant.auth);
      const res = await app.api.post('/events/trigger', { event: slug, subscriberId: `promo-${randomUUID()}`, to: '+233241110003', variables: { item: 'kente' } }, tenant.auth);
      expect(res.status, res.text).to.equal(201);
      const fired = res.body.data;
      expect(fired).to.include({ status: 'DELIVERED', channel: 'IN_APP' });
      const before = sms.received.length;
      await advance().execute(fired.id, fired.deliveryLogs[0].id as string);
      expect(sms.received.length).to.equal(before + 1);
      expect(sms.received.at(-1)!.body).to.match(/^New arrivals: kente.*https?:\/\/\S+/s);
    });

    it('sends nothing more when the item was read in time', async () => {
      const slug = `bell-read-${randomUUID().slice(0, 8)}`;
      await app.api.post('/events', { name: 'Bell', slug, templateId, channelPriority: ['IN_APP'], fallbackRules: { channels: ['SMS'], unreadAfterMinutes: 5 } }, tenant.auth);
      const subscriber = `reader-${randomUUID()}`;
      const fired = (await app.api.post('/events/trigger', { event: slug, subscriberId: subscriber, to: '+233241110002', variables: { order: 'B-2' } }, tenant.auth)).body.data;
      await app.api.post('/inbox/v1/mark-all', { mark: 'read' }, {}, as(inbox, subscriber));
      const before = sms.received.length;
      const messageId = fired.deliveryLogs[0].id as string;
      await advance().execute(fired.id, messageId);
      expect(sms.received.length).to.equal(before);
      const view = (await app.api.get(`/events/triggers/${fired.id}`, tenant.auth)).body.data;
      expect(view.steps).to.have.length(1);
    });

    it('reaches IN_APP through a contact attribute subscriberId, and reports it unreachable otherwise', async () => {
      const slug = `bell-contact-${randomUUID().slice(0, 8)}`;
      await app.api.post('/events', { name: 'Bell', slug, templateId, channelPriority: ['IN_APP', 'SMS'] }, tenant.auth);
      const withId = await app.api.post('/contacts', { phone: '+233241110003', attributes: { subscriberId: 'contact-sub-1' } }, tenant.auth);
      expect(withId.status, withId.text).to.equal(201);
      const fired = await app.api.post('/events/trigger', { event: slug, contactId: withId.body.data.id, variables: { order: 'C-3' } }, tenant.auth);
      expect(fired.body.data).to.deep.include({ channel: 'IN_APP', to: null });
      expect((await feed(inbox, 'contact-sub-1')).body.data.items[0].body).to.equal('Order C-3 shipped');
      const noId = await app.api.post('/contacts', { phone: '+233241110004' }, tenant.auth);
      const sms2 = await app.api.post('/events/trigger', { event: slug, contactId: noId.body.data.id, variables: { order: 'C-4' } }, tenant.auth);
      expect(sms2.status, sms2.text).to.equal(201);
      expect(sms2.body.data.channel).to.equal('SMS');
      expect(sms2.body.data.unreachable[0]).to.deep.include({ channel: 'IN_APP' });
    });
  });

  describe('the bell component', () => {
    it('serves the component script and the example page with the credentials escaped', async () => {
      const js = await fetch(`${app.url}/inbox/v1/inbox.js`);
      expect(js.status).to.equal(200);
      expect(js.headers.get('content-type')).to.include('javascript');
      const source = await js.text();
      expect(source).to.include("customElements.define('nkra-inbox'");
      expect(() => new Function(source)).not.to.throw();
      const page = await fetch(`${app.url}/inbox/example?appId=${inbox.appId}&subscriberId=${encodeURIComponent('"><script>x</script>')}&subscriberHash=abc`);
      const html = await page.text();
      expect(page.status).to.equal(200);
      expect(html).to.include(`app-id="${inbox.appId}"`);
      expect(html).not.to.include('<script>x</script>');
    });
  });
});

describe('HTTP: in-app inbox streams on the embedded PGlite and across connections', function () {
  this.timeout(120_000);

  it('pushes a stored item to an open stream on PGlite (LISTEN/NOTIFY in process)', async () => {
    const app = await startTestApp({ database: 'pglite' });
    try {
      const tenant = await registerTenant(app.api, 'inbox-pglite');
      const box = (await app.api.post('/inbox/settings/secret', undefined, tenant.auth)).body.data as Inbox;
      const q = new URLSearchParams({ appId: box.appId, subscriberId: 'pg-user', subscriberHash: hmac(box.secret, 'pg-user') });
      const stream = await SseClient.open(`${app.url}/inbox/v1/stream?${q}`);
      try {
        await stream.waitFor((e) => e.event === 'counts');
        const sent = await app.api.post('/messages/send', { channel: 'IN_APP', to: 'pg-user', body: 'on pglite' }, tenant.auth);
        expect(sent.status, sent.text).to.equal(201);
        expect(JSON.parse((await stream.waitFor((e) => e.event === 'item')).data)).to.deep.include({ body: 'on pglite' });
      } finally { stream.close(); }
    } finally { await app.close(); }
  });

  it('pushes an item written through another database connection (another process\'s write, PostgreSQL NOTIFY)', async function () {
    const infra = await sharedInfrastructure();
    if (infra.database.kind !== 'postgres') this.skip();
    const app = await startTestApp();
    const writer = await openDatabase({ databaseUrl: infra.database.databaseUrl! });
    try {
      const tenant = await registerTenant(app.api, 'inbox-cross');
      const box = (await app.api.post('/inbox/settings/secret', undefined, tenant.auth)).body.data as Inbox;
      const q = new URLSearchParams({ appId: box.appId, subscriberId: 'x-user', subscriberHash: hmac(box.secret, 'x-user') });
      const stream = await SseClient.open(`${app.url}/inbox/v1/stream?${q}`);
      try {
        await stream.waitFor((e) => e.event === 'counts');
        const storage = new MikroOrmStorage(writer, new UuidV7IdGenerator(), infra.boss);
        const id = new UuidV7IdGenerator().next();
        await storage.inbox.insert({ id, organizationId: tenant.organizationId, subscriberId: 'x-user', messageId: null, subject: null, body: 'from elsewhere',
          createdAt: new Date(), seenAt: null, readAt: null, archivedAt: null });
        expect((await stream.waitFor((e) => e.event === 'item')).id).to.equal(id);
      } finally { stream.close(); }
    } finally {
      await writer.close();
      await app.close();
    }
  });

  it('listens on DATABASE_LISTEN_URL when it is set (a direct connection beside a transaction-mode pooler)', async function () {
    const infra = await sharedInfrastructure();
    if (infra.database.kind !== 'postgres') this.skip();
    const url = new URL(infra.database.databaseUrl!);
    const name = `nkra-listen-${process.pid}`;
    url.searchParams.set('application_name', name);
    const app = await startTestApp({ config: { databaseListenUrl: url.toString() } });
    try {
      const tenant = await registerTenant(app.api, 'inbox-listen-url');
      const box = (await app.api.post('/inbox/settings/secret', undefined, tenant.auth)).body.data as Inbox;
      const q = new URLSearchParams({ appId: box.appId, subscriberId: 'l-user', subscriberHash: hmac(box.secret, 'l-user') });
      const stream = await SseClient.open(`${app.url}/inbox/v1/stream?${q}`);
      try {
        await stream.waitFor((e) => e.event === 'counts');
        const listening = await infra.database.em().execute<{ query: string }[]>('select query from pg_stat_activity where application_name = ?', [name]);
        expect(listening.map((r) => r.query.toLowerCase())).to.deep.equal(['listen nkra_inbox']);
        const sent = await app.api.post('/messages/send', { channel: 'IN_APP', to: 'l-user', body: 'through the listen url' }, tenant.auth);
        expect(sent.status, sent.text).to.equal(201);
        expect(JSON.parse((await stream.waitFor((e) => e.event === 'item')).data)).to.deep.include({ body: 'through the listen url' });
      } finally { stream.close(); }
    } finally { await app.close(); }
  });
});
