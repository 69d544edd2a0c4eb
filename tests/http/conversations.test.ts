import { createHmac, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { startFakeMetaWhatsapp, type FakeMetaWhatsapp } from '../support/fake-vendors/meta-whatsapp.ts';
import { signTwilioRequest } from '../support/fake-vendors/twilio.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';

/**
 * Inbound messages over HTTP (docs/conversations.md): signed vendor callbacks for Meta WhatsApp,
 * Twilio and Africa's Talking, tenant routing by assigned number, dedupe of retries, conversations and
 * their isolation, replies on the channel used, keywords, WhatsApp's 24-hour window and its error code.
 * Platform providers get run-unique names and receiving numbers, and are deactivated afterwards.
 */
describe('HTTP: inbound messages and conversations', function () {
  this.timeout(30_000);
  let app: TestApp;
  let meta: FakeMetaWhatsapp;
  let tenant: TestTenant;
  let other: TestTenant;
  let admin: { token: string };
  let receiver: WebhookReceiver;
  const suffix = randomUUID().slice(0, 8);
  const digits = () => String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  const phoneNumberId = `9${Date.now()}`.slice(0, 15);
  const twilioNumber = `+1555${digits()}`;
  const shortCode = `7${digits().slice(0, 4)}`;
  const unassigned = `8${digits()}`;
  const twilio = { accountSid: `AC${suffix}`, authToken: `twilio-token-${suffix}` };
  const at = { callbackToken: `at-token-${suffix}` };
  const names = { meta: `meta-in-${suffix}`, twilio: `twilio-in-${suffix}`, at: `at-in-${suffix}` };

  async function configure(active: boolean) {
    const repo = app.container.get(MESSAGING.providerRepository);
    const now = new Date();
    await repo.upsert({ name: names.meta, vendor: 'meta-whatsapp', channel: 'WHATSAPP', priority: 1, active, countries: ['GH'],
      settings: { phoneNumberId: meta.phoneNumberId, baseUrl: meta.url, apiVersion: meta.apiVersion } }, { accessToken: meta.accessToken, appSecret: meta.appSecret }, now);
    await repo.upsert({ name: names.twilio, vendor: 'twilio-sms', channel: 'SMS', priority: 900, active, countries: ['ZZ'], settings: { from: twilioNumber, baseUrl: 'http://127.0.0.1:9' } },
      twilio, now);
    await repo.upsert({ name: names.at, vendor: 'africas-talking-sms', channel: 'SMS', priority: 900, active, countries: ['ZZ'], settings: { baseUrl: 'http://127.0.0.1:9' } },
      { username: 'sandbox', apiKey: 'at-key', ...at }, now);
    await app.container.get(MESSAGING.runtime).reload();
  }

  /** A Meta webhook envelope with user messages, signed with `secret` (the app secret unless given). */
  function metaInbound(messages: Array<{ id: string; from: string; body: string; timestamp?: number }>, options: { secret?: string | null; to?: string } = {}) {
    const envelope = { object: 'whatsapp_business_account', entry: [{ id: 'WABA', changes: [{ field: 'messages', value: {
      messaging_product: 'whatsapp', metadata: { display_phone_number: '233500000000', phone_number_id: options.to ?? phoneNumberId },
      contacts: messages.map((m) => ({ wa_id: m.from, profile: { name: 'Ama Mensah' } })),
      messages: messages.map((m) => ({ from: m.from, id: m.id, timestamp: String(m.timestamp ?? Math.floor(Date.now() / 1000)), type: 'text', text: { body: m.body } })),
    } }] }] };
    const raw = JSON.stringify(envelope);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const secret = options.secret === undefined ? meta.appSecret : options.secret;
    if (secret !== null) headers['x-hub-signature-256'] = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
    return fetch(`${app.url}/providers/callbacks/meta-whatsapp`, { method: 'POST', headers, body: raw });
  }

  function twilioInbound(fields: { sid: string; from: string; body: string; to?: string }, signWith: string | null = twilio.authToken) {
    const params = new URLSearchParams({ MessageSid: fields.sid, SmsSid: fields.sid, SmsMessageSid: fields.sid, AccountSid: twilio.accountSid, From: fields.from,
      To: fields.to ?? twilioNumber, Body: fields.body, NumMedia: '0', SmsStatus: 'received', ApiVersion: '2010-04-01' });
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    // The adapter checks the signature against PUBLIC_URL + path (test config: http://localhost:3000).
    if (signWith !== null) headers['x-twilio-signature'] = signTwilioRequest(signWith, 'http://localhost:3000/providers/callbacks/twilio-sms', params);
    return fetch(`${app.url}/providers/callbacks/twilio-sms`, { method: 'POST', headers, body: params.toString() });
  }

  function africasTalkingInbound(fields: { id: string; from: string; text: string; to?: string }, token: string | null = at.callbackToken) {
    const form = new URLSearchParams({ from: fields.from, to: fields.to ?? shortCode, text: fields.text, id: fields.id, date: '2026-11-25 09:00:00', linkId: 'l1', networkCode: '62001' });
    return fetch(`${app.url}/providers/callbacks/africas-talking-sms${token === null ? '' : `?token=${token}`}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(),
    });
  }

  const conversations = (who: TestTenant, query = '') => app.api.get(`/conversations${query}`, who.auth);
  const storage = () => app.container.get(INFRA.storage);
  const ghana = () => `+23324${digits()}`;

  before(async () => {
    meta = await startFakeMetaWhatsapp({ appSecret: `meta-secret-${suffix}`, phoneNumberId: phoneNumberId });
    app = await startTestApp();
    await configure(true);
    tenant = await registerTenant(app.api, 'inbound');
    other = await registerTenant(app.api, 'inbound-other');
    const user = await registerUser(app.api, 'inbound-admin');
    await storage().users.setPlatformRole(user.userId, 'PLATFORM_SUPER_ADMIN');
    admin = { token: user.token };
    for (const [channel, address] of [['WHATSAPP', phoneNumberId], ['SMS', twilioNumber], ['SMS', shortCode]] as const) {
      const res = await app.api.post('/admin/inbound-numbers', { organizationId: tenant.organizationId, channel, address }, admin);
      expect(res.status, res.text).to.equal(201);
    }
    receiver = await startWebhookReceiver();
    const hook = await app.api.post('/webhook-endpoints', { url: receiver.url, events: ['message.received'] }, tenant.auth);
    expect(hook.status, hook.text).to.equal(201);
    await storage().wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${suffix}`, description: 'test credit' }), new Date());
  });

  after(async () => {
    await configure(false);
    await app.close();
    await meta.close();
    await receiver.close();
  });

  describe('signature checks of every inbound callback', () => {
    it('Meta WhatsApp: stores a correctly signed message; refuses a wrong or missing X-Hub-Signature-256 with 401 and stores nothing', async () => {
      const from = ghana().slice(1);
      expect((await metaInbound([{ id: `wamid.bad-${suffix}`, from, body: 'forged' }], { secret: 'not-the-secret' })).status).to.equal(401);
      const missing = await metaInbound([{ id: `wamid.none-${suffix}`, from, body: 'unsigned' }], { secret: null });
      expect(missing.status).to.equal(401);
      expect(((await missing.json()) as { error: { code: string } }).error.code).to.equal('INVALID_SIGNATURE');
      expect((await conversations(tenant)).body.data.items.filter((c: { address: string }) => c.address === `+${from}`)).to.have.length(0);
      const good = await metaInbound([{ id: `wamid.good-${suffix}`, from, body: 'Hello, is my order ready?' }]);
      expect(good.status, await good.clone().text()).to.equal(200);
      const listed = (await conversations(tenant)).body.data.items.find((c: { address: string }) => c.address === `+${from}`);
      expect(listed).to.include({ channel: 'WHATSAPP', unreadCount: 1, lastMessagePreview: 'Hello, is my order ready?', whatsappWindowOpen: true });
    });

    it('Twilio: stores a correctly signed incoming SMS; refuses a wrong or missing X-Twilio-Signature with 401', async () => {
      const from = ghana();
      expect((await twilioInbound({ sid: `SMbad${suffix}`, from, body: 'forged' }, 'wrong-token')).status).to.equal(401);
      expect((await twilioInbound({ sid: `SMnone${suffix}`, from, body: 'unsigned' }, null)).status).to.equal(401);
      expect((await twilioInbound({ sid: `SMgood${suffix}`, from, body: 'Hi from SMS' })).status).to.equal(200);
      const items = (await conversations(tenant, '?channel=SMS')).body.data.items as Array<{ address: string; lastInboundTo: string }>;
      expect(items.find((c) => c.address === from)?.lastInboundTo).to.equal(twilioNumber.slice(1));
    });

    it("Africa's Talking: stores an incoming SMS whose URL carries the callback token; refuses a wrong or missing token with 401", async () => {
      const from = ghana();
      expect((await africasTalkingInbound({ id: `ATXbad${suffix}`, from, text: 'forged' }, 'wrong')).status).to.equal(401);
      expect((await africasTalkingInbound({ id: `ATXnone${suffix}`, from, text: 'no token' }, null)).status).to.equal(401);
      expect((await africasTalkingInbound({ id: `ATXgood${suffix}`, from, text: 'Hi from the short code' })).status).to.equal(200);
      expect((await conversations(tenant, '?channel=SMS')).body.data.items.some((c: { address: string }) => c.address === from)).to.equal(true);
    });
  });

  it('stores a retried callback once and publishes one message.received event', async () => {
    const from = ghana().slice(1);
    const id = `wamid.retry-${suffix}`;
    for (let i = 0; i < 3; i += 1) expect((await metaInbound([{ id, from, body: 'once' }])).status).to.equal(200);
    const conversation = (await conversations(tenant)).body.data.items.find((c: { address: string }) => c.address === `+${from}`);
    expect(conversation.unreadCount).to.equal(1);
    const thread = await app.api.get(`/conversations/${conversation.id}`, tenant.auth);
    expect(thread.body.data.messages.filter((m: { direction: string }) => m.direction === 'INBOUND')).to.have.length(1);
    const events = await app.container.get(INFRA.database).em().execute<Array<{ data: Record<string, unknown> }>>(
      `select data from outbound_events where organization_id = ? and kind = 'message.received' and data->>'from' = ?`, [tenant.organizationId, `+${from}`]);
    expect(events).to.have.length(1);
    expect(events[0]!.data).to.include({ channel: 'WHATSAPP', body: 'once', conversationId: conversation.id });
  });

  it('stores two first messages from one new phone arriving at once: one contact, one conversation, both messages, both 200', async () => {
    const from = ghana().slice(1);
    const answers = await Promise.all([0, 1, 2].map((i) => metaInbound([{ id: `wamid.race-${i}-${suffix}`, from, body: `hello ${i}` }])));
    expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200]);
    const found = (await conversations(tenant)).body.data.items.filter((c: { address: string }) => c.address === `+${from}`);
    expect(found).to.have.length(1);
    const thread = await app.api.get(`/conversations/${found[0].id}`, tenant.auth);
    expect(thread.body.data.messages.filter((m: { direction: string }) => m.direction === 'INBOUND')).to.have.length(3);
    const contacts = await app.container.get(INFRA.database).em().execute<Array<{ n: string }>>(
      'select count(*) as n from contacts where organization_id = ? and phone = ?', [tenant.organizationId, `+${from}`]);
    expect(Number(contacts[0]!.n)).to.equal(1);
  });

  it('stores first messages arriving at once from a known contact with no conversation yet: one conversation, all messages', async () => {
    const from = ghana().slice(1);
    expect((await app.api.post('/contacts', { phone: `+${from}`, firstName: 'Kofi' }, tenant.auth)).status).to.equal(201);
    const answers = await Promise.all([0, 1, 2].map((i) => metaInbound([{ id: `wamid.known-race-${i}-${suffix}`, from, body: `hi ${i}` }])));
    expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200]);
    const found = (await conversations(tenant)).body.data.items.filter((c: { address: string }) => c.address === `+${from}`);
    expect(found).to.have.length(1);
    const thread = await app.api.get(`/conversations/${found[0].id}`, tenant.auth);
    expect(thread.body.data.messages.filter((m: { direction: string }) => m.direction === 'INBOUND')).to.have.length(3);
  });

  it('acknowledges a message to an unassigned number (200) but stores it for nobody', async () => {
    const from = ghana().slice(1);
    const res = await metaInbound([{ id: `wamid.lost-${suffix}`, from, body: 'anyone?' }], { to: unassigned });
    expect(res.status).to.equal(200);
    for (const who of [tenant, other]) expect((await conversations(who)).body.data.items.some((c: { address: string }) => c.address === `+${from}`)).to.equal(false);
  });

  it('keeps conversations to their organization: another organization gets 404 and an empty list', async () => {
    const mine = (await conversations(tenant)).body.data.items[0];
    expect(mine).to.not.equal(undefined);
    expect((await app.api.get(`/conversations/${mine.id}`, other.auth)).status).to.equal(404);
    expect((await app.api.post(`/conversations/${mine.id}/reply`, { body: 'hi' }, other.auth)).status).to.equal(404);
    expect((await app.api.post(`/conversations/${mine.id}/read`, undefined, other.auth)).status).to.equal(404);
    expect((await conversations(other)).body.data.items).to.deep.equal([]);
  });

  it('replies on the channel the contact used, through the send pipeline (charged, delivered by the WhatsApp provider), and marks read', async () => {
    const from = ghana().slice(1);
    await metaInbound([{ id: `wamid.reply-${suffix}`, from, body: 'Can I change my delivery address?' }]);
    const conversation = (await conversations(tenant)).body.data.items.find((c: { address: string }) => c.address === `+${from}`);
    const balance = (await storage().wallets.get(tenant.organizationId))!.balance;
    const reply = await app.api.post(`/conversations/${conversation.id}/reply`, { body: 'Yes, send us the new address', idempotencyKey: `r-${suffix}` }, tenant.auth);
    expect(reply.status, reply.text).to.equal(202);
    expect(reply.body.data).to.include({ channel: 'WHATSAPP', recipient: `+${from}`, status: 'QUEUED' });
    expect((await storage().wallets.get(tenant.organizationId))!.balance).to.be.below(balance);
    await app.container.get(MESSAGING.deliverMessage).execute(reply.body.data.id);
    expect(meta.received.at(-1)?.json).to.deep.include({ to: from, type: 'text', text: { preview_url: false, body: 'Yes, send us the new address' } });
    const replayed = await app.api.post(`/conversations/${conversation.id}/reply`, { body: 'Yes, send us the new address', idempotencyKey: `r-${suffix}` }, tenant.auth);
    expect(replayed.body.data.id).to.equal(reply.body.data.id);
    const thread = await app.api.get(`/conversations/${conversation.id}`, tenant.auth);
    expect(thread.body.data.messages.map((m: { direction: string }) => m.direction)).to.deep.equal(['OUTBOUND', 'INBOUND']);
    expect(thread.body.data.contact).to.include({ phone: `+${from}`, firstName: 'Ama Mensah' });
    const read = await app.api.post(`/conversations/${conversation.id}/read`, undefined, tenant.auth);
    expect(read.body.data.unreadCount).to.equal(0);
  });

  it('refuses a live free-form WhatsApp send outside the window with 422 WHATSAPP_WINDOW_CLOSED, before charging; inside it, sends', async () => {
    const key = (await app.api.post('/api-keys', { name: `live-${suffix}`, isSandbox: false }, tenant.auth)).body.data.key as string;
    const send = (to: string) => app.api.post('/messages/send', { channel: 'WHATSAPP', to, body: 'Your order shipped', async: true }, { apiKey: key });
    const balance = (await storage().wallets.get(tenant.organizationId))!.balance;
    const stranger = ghana();
    const refused = await send(stranger);
    expect(refused.status).to.equal(422);
    expect(refused.body.error).to.deep.include({ code: 'WHATSAPP_WINDOW_CLOSED' });
    expect(refused.body.error.details).to.deep.include({ to: stranger, lastInboundAt: null });
    expect((await storage().wallets.get(tenant.organizationId))!.balance).to.equal(balance);
    // Edges over HTTP with the real clock: 23 h 59 min ago is open, 24 h 1 min ago is closed.
    const now = Date.now();
    const [open, closed] = [ghana(), ghana()];
    for (const [address, ago] of [[open, 24 * 3_600_000 - 60_000], [closed, 24 * 3_600_000 + 60_000]] as const) {
      const at = new Date(now - ago);
      await storage().conversations.insert({ id: randomUUID(), organizationId: tenant.organizationId, contactId: randomUUID(), channel: 'WHATSAPP', address,
        lastInboundTo: phoneNumberId, lastInboundAt: at, lastMessageAt: at, lastMessagePreview: 'hi', unreadCount: 0, createdAt: at, updatedAt: at });
    }
    expect((await send(open)).status).to.equal(202);
    expect((await send(closed)).body.error.code).to.equal('WHATSAPP_WINDOW_CLOSED');
  });

  it('STOP suppresses the contact on that channel (contact.opted_out, audit), START takes it back, a tenant keyword auto-replies', async () => {
    const from = ghana();
    const sid = (n: string) => `SM${n}${suffix}`;
    expect((await twilioInbound({ sid: sid('hello'), from, body: 'hello' })).status).to.equal(200);
    expect((await twilioInbound({ sid: sid('stop'), from, body: 'Stop' })).status).to.equal(200);
    const suppressed = await storage().suppressions.findMatch(tenant.organizationId, 'SMS', from);
    expect(suppressed).to.include({ channel: 'SMS', reason: 'keyword STOP' });
    expect(await storage().suppressions.findMatch(tenant.organizationId, 'WHATSAPP', from)).to.equal(null);
    const audit = await storage().auditLog.list({ limit: 50, organizationId: tenant.organizationId });
    expect(audit.map((e) => e.action)).to.include('contact.keyword_opt_out');
    const send = await app.api.post('/messages/send', { channel: 'SMS', to: from, body: 'promo', async: true }, tenant.auth);
    expect(send.body.data).to.include({ status: 'REJECTED', errorCode: 'RECIPIENT_SUPPRESSED' });
    expect((await twilioInbound({ sid: sid('start'), from, body: 'START' })).status).to.equal(200);
    expect(await storage().suppressions.findMatch(tenant.organizationId, 'SMS', from)).to.equal(null);

    const keyword = await app.api.post('/conversations/keywords', { keyword: 'hours', action: 'AUTO_REPLY', replyText: 'We are open 8am to 5pm' }, tenant.auth);
    expect(keyword.status, keyword.text).to.equal(201);
    expect((await app.api.post('/conversations/keywords', { keyword: 'HOURS', action: 'AUTO_REPLY', replyText: 'again' }, tenant.auth)).status).to.equal(409);
    expect((await app.api.post('/conversations/keywords', { keyword: 'stop', action: 'AUTO_REPLY', replyText: 'no' }, tenant.auth)).status).to.equal(400);
    expect((await twilioInbound({ sid: sid('hours'), from, body: 'Hours?' })).status).to.equal(200);
    expect((await twilioInbound({ sid: sid('hours'), from, body: 'Hours?' })).status).to.equal(200); // a retry: no second reply
    const conversation = (await conversations(tenant, '?channel=SMS')).body.data.items.find((c: { address: string }) => c.address === from);
    const thread = (await app.api.get(`/conversations/${conversation.id}`, tenant.auth)).body.data.messages as Array<{ direction: string; body: string }>;
    expect(thread.filter((m) => m.direction === 'OUTBOUND' && m.body === 'We are open 8am to 5pm')).to.have.length(1);
    const listed = await app.api.get('/conversations/keywords', tenant.auth);
    expect(listed.body.data.builtIn.OPT_OUT).to.include('STOP');
    expect(listed.body.data.items.map((k: { keyword: string }) => k.keyword)).to.deep.equal(['HOURS']);
  });

  it('lets only platform administrators manage inbound numbers, and refuses an address assigned twice', async () => {
    expect((await app.api.get('/admin/inbound-numbers', tenant.auth)).status).to.equal(403);
    const twice = await app.api.post('/admin/inbound-numbers', { organizationId: other.organizationId, channel: 'WHATSAPP', address: phoneNumberId }, admin);
    expect(twice.status).to.equal(409);
    const listed = await app.api.get('/admin/inbound-numbers', admin);
    expect(listed.body.data.items.some((n: { address: string }) => n.address === phoneNumberId)).to.equal(true);
  });
});
