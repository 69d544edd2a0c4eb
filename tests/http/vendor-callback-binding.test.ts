import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import twilio from 'twilio';
import { INFRA } from '../../hosts/tokens.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { startFakeAfricasTalking, type FakeAfricasTalking } from '../support/fake-vendors/africas-talking.ts';
import { startFakeMetaWhatsapp, type FakeMetaWhatsapp } from '../support/fake-vendors/meta-whatsapp.ts';
import { startFakeTwilio, type FakeTwilio } from '../support/fake-vendors/twilio.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const PUBLIC_URL = 'http://localhost:3000'; // the test configuration's PUBLIC_URL: what vendors sign

/**
 * Vendor callbacks bound to the account that sent the message (issue 28 items 2 and 3, and the Meta
 * handshake; docs/providers.md "Callback URLs"). Twilio signatures are computed with Twilio's own SDK.
 * Platform providers get run-unique names, route to countries no other test uses, and are deactivated
 * afterwards.
 */
describe('HTTP: vendor callbacks are bound to the account that sent the message', function () {
  this.timeout(30_000);
  let app: TestApp;
  let platformTwilio: FakeTwilio;
  let tenantTwilio: FakeTwilio;
  let platformAt: FakeAfricasTalking;
  let tenantMeta: FakeMetaWhatsapp;
  let victim: TestTenant;
  let attacker: TestTenant;
  let sharer: TestTenant;
  const suffix = randomUUID().slice(0, 8);
  const names = { twilio: `tw-plat-${suffix}`, at: `at-plat-${suffix}` };
  const atToken = `at-platform-token-${suffix}`;
  const digits = () => String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  const storage = () => app.container.get(INFRA.storage);

  async function configure(active: boolean) {
    const repo = app.container.get(MESSAGING.providerRepository);
    const now = new Date();
    await repo.upsert({ name: names.twilio, vendor: 'twilio-sms', channel: 'SMS', priority: 1, active, countries: ['KE'], settings: { from: '+15550006666', baseUrl: platformTwilio.url } },
      { accountSid: platformTwilio.accountSid, authToken: platformTwilio.authToken }, now);
    await repo.upsert({ name: names.at, vendor: 'africas-talking-sms', channel: 'SMS', priority: 900, active, countries: ['UG'], settings: { baseUrl: platformAt.url } },
      { username: platformAt.username, apiKey: platformAt.apiKey, callbackToken: atToken }, now);
    await app.container.get(MESSAGING.runtime).reload();
  }

  before(async () => {
    platformTwilio = await startFakeTwilio({ accountSid: `AC${'a1'.repeat(16)}`, authToken: `platform-token-${suffix}` });
    tenantTwilio = await startFakeTwilio({ accountSid: `AC${'b2'.repeat(16)}`, authToken: `shared-token-${suffix}` });
    platformAt = await startFakeAfricasTalking({ username: `plat-${suffix}`, apiKey: `plat-key-${suffix}` });
    tenantMeta = await startFakeMetaWhatsapp({ appSecret: `shared-app-secret-${suffix}`, phoneNumberId: `2${Date.now()}`.slice(0, 15) });
    app = await startTestApp({ config: { vendorBaseUrls: { 'twilio-sms': tenantTwilio.url, 'meta-whatsapp': tenantMeta.url, 'africas-talking-sms': platformAt.url }, ownAccountFee: 1 } });
    await configure(true);
    victim = await registerTenant(app.api, 'dlr-victim');
    attacker = await registerTenant(app.api, 'dlr-attacker');
    sharer = await registerTenant(app.api, 'dlr-sharer');
    for (const t of [victim, attacker, sharer]) {
      await storage().wallets.update(t.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    }
  });

  after(async () => {
    if (app) await configure(false);
    await app?.close();
    await Promise.all([platformTwilio?.close(), tenantTwilio?.close(), platformAt?.close(), tenantMeta?.close()]);
  });

  const balance = async (tenant: TestTenant) => (await storage().wallets.get(tenant.organizationId))!.balance;
  const stored = (tenant: TestTenant, id: string) => storage().messages.findById(tenant.organizationId, id);
  const local = (url: string) => url.replace(PUBLIC_URL, app.url);

  async function sendSms(tenant: TestTenant, to: string) {
    const sent = await app.api.post('/messages/send', { channel: 'SMS', to, body: 'Your order is ready' }, tenant.auth);
    expect(sent.status, sent.text).to.equal(201);
    const message = await stored(tenant, sent.body.data.id);
    expect(message?.status, sent.text).to.equal('SENT');
    return message!;
  }

  /** A Twilio status callback signed with Twilio's own SDK (getExpectedTwilioSignature) over `signedUrl`, posted to our app. */
  async function twilioStatus(path: string, fields: Record<string, string>, authToken: string) {
    const params = { ApiVersion: '2010-04-01', SmsStatus: fields['MessageStatus'] ?? '', ...fields };
    const signature = twilio.getExpectedTwilioSignature(authToken, `${PUBLIC_URL}${path}`, params);
    expect(twilio.validateRequest(authToken, signature, `${PUBLIC_URL}${path}`, params)).to.equal(true);
    return fetch(`${app.url}${path}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature }, body: new URLSearchParams(params).toString(),
    });
  }

  async function addAccount(tenant: TestTenant, body: Record<string, unknown>) {
    const created = await app.api.post('/vendor-accounts', body, tenant.auth);
    expect(created.status, created.text).to.equal(201);
    return created.body.data as { id: string; callbackUrl: string | null; callbackPath: string | null; deliveryName: string };
  }

  describe('a tenant naming its account like a platform provider (item 2)', () => {
    let attackerAccount: { id: string; callbackUrl: string | null; callbackPath: string | null; deliveryName: string };
    const attackerToken = `attacker-token-${suffix}`;

    before(async () => {
      attackerAccount = await addAccount(attacker, {
        name: names.twilio, vendor: 'twilio-sms', countries: ['ZZ'], settings: { from: '+15550001111' }, credentials: { accountSid: `AC${'c3'.repeat(16)}`, authToken: attackerToken },
      });
    });

    it('shows each account its own unguessable callback URL and records its messages under a namespaced name', () => {
      expect(attackerAccount.callbackPath).to.match(new RegExp(`^/providers/callbacks/twilio-sms/[0-9a-f]{32}$`));
      expect(attackerAccount.callbackUrl).to.equal(`${PUBLIC_URL}${attackerAccount.callbackPath}`);
      expect(attackerAccount.deliveryName).to.equal(`${attacker.organizationId}/${names.twilio}`);
    });

    it('refuses its forged failure of another tenant\'s message on the vendor-wide URL (401) and on its own URL applies nothing', async () => {
      const message = await sendSms(victim, `+25471${digits()}`);
      expect(message.provider).to.equal(names.twilio);
      const before = await balance(victim);
      const forged = { MessageSid: message.providerMessageId!, AccountSid: `AC${'c3'.repeat(16)}`, MessageStatus: 'undelivered', ErrorCode: '30003' };

      const wide = await twilioStatus('/providers/callbacks/twilio-sms', forged, attackerToken);
      expect(wide.status).to.equal(401);
      expect(((await wide.json()) as { success: boolean; error: { code: string } })).to.deep.include({ success: false }).and.have.nested.property('error.code', 'INVALID_SIGNATURE');

      const own = await twilioStatus(attackerAccount.callbackPath!, forged, attackerToken);
      expect(own.status).to.equal(200);
      // Twilio's webhooks are answered with empty TwiML (issue 29); what was applied shows in the message below.
      expect(own.status).to.equal(200);
      expect(await own.text()).to.include('<Response/>');

      expect((await stored(victim, message.id))?.status).to.equal('SENT');
      expect(await balance(victim)).to.equal(before);
    });

    it('applies the platform\'s genuine report from the per-account URL it gave Twilio, and refunds the failure', async () => {
      const message = await sendSms(victim, `+25471${digits()}`);
      const resource = platformTwilio.created.find((r) => r.sid === message.providerMessageId)!;
      expect(resource.statusCallback).to.match(new RegExp(`^${PUBLIC_URL}/providers/callbacks/twilio-sms/[0-9a-f]{32}$`));
      expect(message.cost).to.be.greaterThan(0);
      const before = await balance(victim);
      const path = resource.statusCallback!.slice(PUBLIC_URL.length);
      // The attacker's token does not verify on the platform provider's URL either.
      expect((await twilioStatus(path, { MessageSid: resource.sid, MessageStatus: 'undelivered' }, attackerToken)).status).to.equal(401);
      const genuine = await twilioStatus(path, { MessageSid: resource.sid, AccountSid: platformTwilio.accountSid, MessageStatus: 'undelivered', ErrorCode: '30003' },
        platformTwilio.authToken);
      // Twilio's webhooks are answered with empty TwiML (issue 29); what was applied shows in the message below.
      expect(genuine.status).to.equal(200);
      expect(await genuine.text()).to.include('<Response/>');
      expect((await stored(victim, message.id))?.status).to.equal('FAILED');
      expect(await balance(victim)).to.equal(before + message.cost);
    });

    it('keeps the platform\'s vendor-wide URL working for the platform\'s own provider', async () => {
      const message = await sendSms(victim, `+25471${digits()}`);
      const res = await twilioStatus('/providers/callbacks/twilio-sms', { MessageSid: message.providerMessageId!, MessageStatus: 'delivered' }, platformTwilio.authToken);
      // Twilio's webhooks are answered with empty TwiML (issue 29); what was applied shows in the message below.
      expect(res.status).to.equal(200);
      expect(await res.text()).to.include('<Response/>');
      expect((await stored(victim, message.id))?.status).to.equal('DELIVERED');
    });

    it('never shows a callback id to other users: GET /providers and other organizations\' vendor accounts leave them out', async () => {
      const platformId = platformTwilio.created.at(-1)!.statusCallback!.split('/').at(-1)!;
      const attackerId = attackerAccount.callbackPath!.split('/').at(-1)!;
      for (const tenant of [victim, attacker]) {
        const listed = await app.api.get('/providers', tenant.auth);
        expect(listed.status).to.equal(200);
        expect(listed.text).to.not.include(platformId).and.not.include(attackerId);
      }
      expect((await app.api.get('/vendor-accounts', victim.auth)).text).to.not.include(attackerId);
    });

    it('answers 404 for an unknown callback id, or an id used under another vendor', async () => {
      const id = attackerAccount.callbackPath!.split('/').at(-1)!;
      expect((await fetch(`${app.url}/providers/callbacks/twilio-sms/${'0'.repeat(32)}`, { method: 'POST', body: '' })).status).to.equal(404);
      expect((await fetch(`${app.url}/providers/callbacks/arkesel-sms/${id}`, { method: 'POST', body: '' })).status).to.equal(404);
    });
  });

  describe("Africa's Talking reports are not swallowed (item 3)", () => {
    before(async () => {
      // A tenant account without a callback token, ordered before the platform's provider.
      await addAccount(attacker, { name: 'aaa-at', vendor: 'africas-talking-sms', priority: 1, countries: ['ZZ'], credentials: { username: 'attacker', apiKey: 'attacker-key' } });
    });

    it('applies the platform\'s genuine report (with its token) and refunds; a tokenless tenant account never takes it', async () => {
      const message = await sendSms(victim, `+25677${digits()}`);
      expect(message.provider).to.equal(names.at);
      expect(message.cost).to.be.greaterThan(0);
      const before = await balance(victim);
      const res = await platformAt.sendDeliveryReport(`${app.url}/providers/callbacks/africas-talking-sms?token=${atToken}`, message.providerMessageId!, 'Rejected', 'UnknownFailure');
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { data: { applied: number } }).data.applied).to.equal(1);
      expect((await stored(victim, message.id))?.status).to.equal('FAILED');
      expect(await balance(victim)).to.equal(before + message.cost);
    });

    it('refuses an unsigned (tokenless) report on the vendor-wide URL with 401 and the envelope, changing nothing', async () => {
      const message = await sendSms(victim, `+25677${digits()}`);
      const res = await platformAt.sendDeliveryReport(`${app.url}/providers/callbacks/africas-talking-sms`, message.providerMessageId!, 'Failed', 'UnknownFailure');
      expect(res.status).to.equal(401);
      expect(((await res.json()) as { success: boolean; error: { code: string } })).to.deep.include({ success: false }).and.have.nested.property('error.code', 'INVALID_SIGNATURE');
      expect((await stored(victim, message.id))?.status).to.equal('SENT');
    });

    it('a tokenless tenant account takes its own reports on its own URL only, never the platform\'s even with the same AT login', async () => {
      const own = await addAccount(sharer, { name: 'at-own', vendor: 'africas-talking-sms', countries: ['TZ'], credentials: { username: platformAt.username, apiKey: platformAt.apiKey } });
      const mine = await sendSms(sharer, `+25575${digits()}`);
      expect(mine.provider).to.equal(`${sharer.organizationId}/at-own`);
      const platformMessage = await sendSms(victim, `+25677${digits()}`);
      const notMine = await platformAt.sendDeliveryReport(local(own.callbackUrl!), platformMessage.providerMessageId!, 'Failed', 'UnknownFailure');
      expect(((await notMine.json()) as { data: { applied: number } }).data.applied).to.equal(0);
      expect((await stored(victim, platformMessage.id))?.status).to.equal('SENT');
      const res = await platformAt.sendDeliveryReport(local(own.callbackUrl!), mine.providerMessageId!, 'Success');
      expect(((await res.json()) as { data: { applied: number } }).data.applied).to.equal(1);
      expect((await stored(sharer, mine.id))?.status).to.equal('DELIVERED');
    });
  });

  describe('two providers sharing one vendor account (item 3)', () => {
    it('Twilio: a report for the second sender\'s message arriving at the first\'s URL is applied and refunded', async () => {
      const credentials = { accountSid: tenantTwilio.accountSid, authToken: tenantTwilio.authToken };
      const first = await addAccount(sharer, { name: 'tw-one', vendor: 'twilio-sms', priority: 1, countries: ['GH'], settings: { from: '+15550002221' }, credentials });
      await addAccount(sharer, { name: 'tw-two', vendor: 'twilio-sms', priority: 1, countries: ['NG'], settings: { from: '+15550002222' }, credentials });
      const message = await sendSms(sharer, `+234803${digits()}`);
      expect(message.provider).to.equal(`${sharer.organizationId}/tw-two`);
      expect(message.cost).to.equal(1);
      const before = await balance(sharer);
      const res = await twilioStatus(first.callbackPath!, { MessageSid: message.providerMessageId!, AccountSid: tenantTwilio.accountSid, MessageStatus: 'failed', ErrorCode: '30008' },
        tenantTwilio.authToken);
      // Twilio's webhooks are answered with empty TwiML (issue 29); what was applied shows in the message below.
      expect(res.status).to.equal(200);
      expect(await res.text()).to.include('<Response/>');
      expect((await stored(sharer, message.id))?.status).to.equal('FAILED');
      expect(await balance(sharer)).to.equal(before + message.cost);
    });

    it('Meta: two numbers of one app; the app webhook (one URL) applies the second number\'s failure and refunds it', async () => {
      const credentials = { accessToken: tenantMeta.accessToken, appSecret: tenantMeta.appSecret, verifyToken: `sharer-verify-${suffix}` };
      const first = await addAccount(sharer, { name: 'wa-one', vendor: 'meta-whatsapp', priority: 1, countries: ['NG'], settings: { phoneNumberId: '1000000001' }, credentials });
      await addAccount(sharer, { name: 'wa-two', vendor: 'meta-whatsapp', priority: 1, countries: ['GH'], settings: { phoneNumberId: tenantMeta.phoneNumberId }, credentials });
      const contact = `23324${digits()}`;
      // The contact writes first (opens the 24-hour window), through the app's webhook URL: the first account's.
      const inbound = { object: 'whatsapp_business_account', entry: [{ id: 'WABA', changes: [{ field: 'messages', value: {
        messaging_product: 'whatsapp', metadata: { display_phone_number: '233500000000', phone_number_id: tenantMeta.phoneNumberId },
        contacts: [{ wa_id: contact, profile: { name: 'Ama' } }],
        messages: [{ from: contact, id: `wamid.in-${suffix}`, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'Hello' } }],
      } }] }] };
      const raw = JSON.stringify(inbound);
      const { createHmac } = await import('node:crypto');
      const signed = await fetch(local(first.callbackUrl!), { method: 'POST', body: raw,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${createHmac('sha256', tenantMeta.appSecret).update(raw).digest('hex')}` } });
      expect(((await signed.json()) as { data: { inbound: number } }).data.inbound).to.equal(1);

      const sent = await app.api.post('/messages/send', { channel: 'WHATSAPP', to: `+${contact}`, body: 'Thanks for writing' }, sharer.auth);
      expect(sent.status, sent.text).to.equal(201);
      const message = (await stored(sharer, sent.body.data.id))!;
      expect(message.provider).to.equal(`${sharer.organizationId}/wa-two`);
      const before = await balance(sharer);
      const res = await tenantMeta.postStatuses(local(first.callbackUrl!), [{
        id: message.providerMessageId, status: 'failed', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: contact,
        errors: [{ code: 131026, title: 'Message undeliverable' }],
      }]);
      expect(((await res.json()) as { data: { applied: number } }).data.applied).to.equal(1);
      expect((await stored(sharer, message.id))?.status).to.equal('FAILED');
      expect(await balance(sharer)).to.equal(before + message.cost);
    });

    it('Meta: a tenant\'s verify token completes only its own account\'s handshake, never the platform\'s', async () => {
      const account = (await app.api.get('/vendor-accounts', sharer.auth)).body.data.items.find((a: { name: string }) => a.name === 'wa-one') as { callbackUrl: string };
      const query = (token: string) => `?hub.mode=subscribe&hub.challenge=8675309&hub.verify_token=${encodeURIComponent(token)}`;
      const platform = await fetch(`${app.url}/providers/callbacks/meta-whatsapp${query(`sharer-verify-${suffix}`)}`);
      expect(platform.status).to.equal(403);
      expect(((await platform.json()) as { error: { code: string } }).error.code).to.equal('FORBIDDEN');
      const own = await fetch(`${local(account.callbackUrl)}${query(`sharer-verify-${suffix}`)}`);
      expect(own.status).to.equal(200);
      expect(await own.text()).to.equal('8675309');
      expect((await fetch(`${local(account.callbackUrl)}${query('some-other-token')}`)).status).to.equal(403);
    });
  });
});
