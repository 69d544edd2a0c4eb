import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { AesGcmCredentialCipher } from '../../adapters/security/aes-gcm-credential-cipher.ts';
import { RunCampaign } from '../../core/use-cases/campaigns/run-campaign.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { startFakeMetaWhatsapp, type FakeMetaWhatsapp, type ReceivedRequest } from '../support/fake-vendors/meta-whatsapp.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';
import { testConfig } from '../support/test-config.ts';

/**
 * Templates of the account as Meta's Graph API lists them (`GET /{waba-id}/message_templates?fields=name,
 * language,status,components`, developers.facebook.com/documentation/business-messaging/whatsapp/templates/
 * template-management, "Get templates"): components in Meta's upper-case types, placeholders {{1}}, and
 * an authentication template whose copy-code button comes back as a URL button carrying the code
 * (`.../otp/code/?otp_type=COPY_CODE&code=otp{{1}}`, "Authentication templates" in Meta's docs).
 */
const ORDER_SHIPPED = {
  name: 'order_shipped', language: 'en_US', status: 'APPROVED', category: 'UTILITY', id: '1473688840035974',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['A12345'] } },
    { type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped.', example: { body_text: [['Ama', 'A12345']] } },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://shop.example/track/{{1}}', example: ['https://shop.example/track/XYZ'] }] },
  ],
};
const PAYMENT_DUE = {
  name: 'payment_due', language: 'en_US', status: 'REJECTED', category: 'UTILITY', id: '954638012257287',
  components: [{ type: 'BODY', text: 'Hi {{1}}, {{2}} is due.', example: { body_text: [['Ama', 'GHS 20']] } }],
};
const VERIFICATION_CODE = {
  name: 'verification_code', language: 'en_US', status: 'APPROVED', category: 'AUTHENTICATION', id: '1148251409786766',
  components: [
    { type: 'BODY', text: '*{{1}}* is your verification code. For your security, do not share this code.', add_security_recommendation: true },
    { type: 'FOOTER', text: 'This code expires in 10 minutes.', code_expiration_minutes: 10 },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Copy code', url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp{{1}}' }] },
  ],
};
/** Enough other templates that the account's list takes two pages of 100. */
const FILLERS = Array.from({ length: 110 }, (_, n) => ({
  name: `campaign_${n}`, language: 'en', status: 'APPROVED', category: 'MARKETING', id: String(9_000_000 + n),
  components: [{ type: 'BODY', text: 'New offers this week' }],
}));

const ORDER_MAPPING = {
  name: 'order_shipped', language: 'en_US',
  components: [
    { type: 'header', parameters: ['orderId'] },
    { type: 'body', parameters: ['name', 'orderId'] },
    { type: 'button', subType: 'url', index: 0, parameters: ['trackingCode'] },
  ],
};

/**
 * WhatsApp business-initiated messages (issue 29, docs/whatsapp-templates.md): a WHATSAPP template maps
 * to a Meta template, checked against the account's templates (paged); outside the 24-hour window it
 * goes as that template with its parameters, inside as text; an unapproved mapping is refused (422).
 */
describe('HTTP: WhatsApp templates (Meta mapping, check, business-initiated sends)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let meta: FakeMetaWhatsapp;
  let tenant: TestTenant;
  let key: string;
  const suffix = randomUUID().slice(0, 8);
  const phoneNumberId = `8${Date.now()}`.slice(0, 15);
  const name = `meta-templates-${suffix}`;
  const storage = () => app.container.get(INFRA.storage);
  const ghana = () => `+23324${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const sends = (): ReceivedRequest[] => meta.received.filter((r) => r.method === 'POST' && r.path.endsWith('/messages'));

  async function configure(active: boolean, withAccountId = true) {
    const repo = app.container.get(MESSAGING.providerRepository);
    await repo.upsert({ name, vendor: 'meta-whatsapp', channel: 'WHATSAPP', priority: 1, active, countries: ['GH'],
      settings: { phoneNumberId: meta.phoneNumberId, baseUrl: meta.url, apiVersion: meta.apiVersion, ...(withAccountId ? { businessAccountId: meta.businessAccountId } : {}) } },
    { accessToken: meta.accessToken, appSecret: meta.appSecret }, new Date());
    await app.container.get(MESSAGING.runtime).reload();
  }

  async function template(body: Record<string, unknown>) {
    const res = await app.api.post('/templates', { name: `t-${randomUUID().slice(0, 6)}`, channel: 'WHATSAPP', ...body }, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; metaTemplate: unknown; metaCheck: unknown };
  }

  const check = (id: string) => app.api.post(`/templates/${id}/whatsapp-check`, undefined, tenant.auth);

  /** A conversation whose last inbound WhatsApp message was `agoMs` ago (the window is open under 24 h). */
  async function wroteAgo(address: string, agoMs: number) {
    const at = new Date(Date.now() - agoMs);
    await storage().conversations.insert({ id: randomUUID(), organizationId: tenant.organizationId, contactId: randomUUID(), channel: 'WHATSAPP', address,
      lastInboundTo: phoneNumberId, lastInboundAt: at, lastMessageAt: at, lastMessagePreview: 'hi', unreadCount: 0, createdAt: at, updatedAt: at });
  }

  before(async () => {
    meta = await startFakeMetaWhatsapp({ phoneNumberId, templates: [...FILLERS, ORDER_SHIPPED, PAYMENT_DUE, VERIFICATION_CODE] });
    app = await startTestApp();
    await configure(true);
    tenant = await registerTenant(app.api, 'wa-templates');
    await storage().wallets.update(tenant.organizationId, () => ({ amount: 1_000_000, kind: 'TOP_UP', reference: `seed-${suffix}`, description: 'test credit' }), new Date());
    key = (await app.api.post('/api-keys', { name: `live-${suffix}`, isSandbox: false }, tenant.auth)).body.data.key as string;
  });

  after(async () => {
    await configure(false);
    await app.close();
    await meta.close();
  });

  it('validates the mapping: WHATSAPP only, parameters must be variables of the template, a Meta name and language code', async () => {
    const onSms = await app.api.post('/templates', { name: 'sms', channel: 'SMS', body: 'Hi {{name}}', metaTemplate: { name: 'x', language: 'en', components: [] } }, tenant.auth);
    expect(onSms.status).to.equal(400);
    expect(onSms.body).to.deep.include({ success: false });
    expect(onSms.body.error.details.fieldErrors).to.have.property('metaTemplate');
    const unknown = await app.api.post('/templates', { name: 'wa', channel: 'WHATSAPP', body: 'Hi {{name}}',
      metaTemplate: { name: 'order_shipped', language: 'en_US', components: [{ type: 'body', parameters: ['name', 'orderId'] }] } }, tenant.auth);
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.message).to.include('orderId');
    const badName = await app.api.post('/templates', { name: 'wa', channel: 'WHATSAPP', body: 'Hi {{name}}',
      metaTemplate: { name: 'Order Shipped', language: 'en_US', components: [] } }, tenant.auth);
    expect(badName.status).to.equal(400);
    const twice = await app.api.post('/templates', { name: 'wa', channel: 'WHATSAPP', body: 'Hi {{name}}',
      metaTemplate: { name: 'a', language: 'en', components: [{ type: 'body', parameters: ['name'] }, { type: 'body', parameters: ['name'] }] } }, tenant.auth);
    expect(twice.status).to.equal(400);
  });

  it('checks mappings against the account\'s templates, every page: APPROVED, REJECTED, MISSING, MISMATCH', async () => {
    const body = 'Hi {{name}}, your order {{orderId}} has shipped. Track it: https://shop.example/track/{{trackingCode}}';
    const approved = await template({ body, metaTemplate: ORDER_MAPPING });
    expect(approved.metaCheck).to.equal(null);
    const before = meta.received.length;
    const res = await check(approved.id);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.metaCheck).to.deep.include({ status: 'APPROVED', metaStatus: 'APPROVED', detail: null });
    const pages = meta.received.slice(before).filter((r) => r.path.endsWith('/message_templates'));
    expect(pages).to.have.length(2);
    expect(pages[0]!.query).to.deep.include({ fields: 'name,language,status,components,parameter_format', limit: '100' });
    expect(pages[1]!.query['after']).to.be.a('string');
    expect((await app.api.get(`/templates/${approved.id}`, tenant.auth)).body.data.metaCheck.status).to.equal('APPROVED');

    const rejected = await template({ body: 'Hi {{name}}, {{amount}} is due.', metaTemplate: { name: 'payment_due', language: 'en_US', components: [{ type: 'body', parameters: ['name', 'amount'] }] } });
    expect((await check(rejected.id)).body.data.metaCheck).to.deep.include({ status: 'REJECTED', metaStatus: 'REJECTED' });
    const missing = await template({ body: 'Hi {{name}}', metaTemplate: { name: 'order_delayed', language: 'en_US', components: [{ type: 'body', parameters: ['name'] }] } });
    expect((await check(missing.id)).body.data.metaCheck).to.deep.include({ status: 'MISSING', metaStatus: null });
    const otherLanguage = await template({ body: 'Hi {{name}}', metaTemplate: { name: 'payment_due', language: 'fr', components: [{ type: 'body', parameters: ['name'] }] } });
    expect((await check(otherLanguage.id)).body.data.metaCheck.detail).to.include('en_US');
    const mismatch = await template({ body: 'Hi {{name}}, order {{orderId}}', metaTemplate: { name: 'order_shipped', language: 'en_US', components: [{ type: 'body', parameters: ['name', 'orderId'] }] } });
    const mismatched = (await check(mismatch.id)).body.data.metaCheck;
    expect(mismatched.status).to.equal('MISMATCH');
    expect(mismatched.detail).to.include('header takes 1 parameter(s), the mapping gives 0');
  });

  it('sends outside the 24-hour window as the Meta template with its parameters (the exact request Meta gets); inside it as text', async () => {
    const created = await template({ body: 'Hi {{name}}, your order {{orderId}} has shipped. Track it: https://shop.example/track/{{trackingCode}}', metaTemplate: ORDER_MAPPING });
    expect((await check(created.id)).body.data.metaCheck.status).to.equal('APPROVED');
    const variables = { name: 'Ama', orderId: 'A12345', trackingCode: 'XYZ-789' };
    const stranger = ghana();
    const before = sends().length;
    const res = await app.api.post('/messages/send', { channel: 'WHATSAPP', to: stranger, templateId: created.id, variables }, { apiKey: key });
    expect(res.status, res.text).to.equal(201);
    const sent = sends().slice(before);
    expect(sent).to.have.length(1);
    const message = (await storage().messages.findById(tenant.organizationId, res.body.data.id))!;
    expect(sent[0]!.json).to.deep.equal({
      messaging_product: 'whatsapp', recipient_type: 'individual', to: stranger.slice(1), type: 'template',
      template: {
        name: 'order_shipped', language: { code: 'en_US' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'A12345' }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Ama' }, { type: 'text', text: 'A12345' }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'XYZ-789' }] },
        ],
      },
      biz_opaque_callback_data: message.id,
    });
    expect(message.status).to.equal('SENT');
    expect(message.whatsappTemplate?.name).to.equal('order_shipped');
    expect((await app.api.get(`/messages/${message.id}`, tenant.auth)).body.data.whatsappTemplate).to.deep.equal({ name: 'order_shipped', language: 'en_US' });

    const blank = await app.api.post('/messages/send', { channel: 'WHATSAPP', to: stranger, templateId: created.id, variables: { ...variables, trackingCode: ' ' } }, { apiKey: key });
    expect(blank.status).to.equal(400);
    expect(blank.body.error.message).to.include('trackingCode');

    const friend = ghana();
    await wroteAgo(friend, 3_600_000);
    const inside = await app.api.post('/messages/send', { channel: 'WHATSAPP', to: friend, templateId: created.id, variables }, { apiKey: key });
    expect(inside.status, inside.text).to.equal(201);
    const text = sends().at(-1)!.json as Record<string, unknown>;
    expect(text).to.deep.include({ to: friend.slice(1), type: 'text', text: { preview_url: false, body: 'Hi Ama, your order A12345 has shipped. Track it: https://shop.example/track/XYZ-789' } });
    expect((await storage().messages.findById(tenant.organizationId, inside.body.data.id))!.whatsappTemplate ?? null).to.equal(null);
  });

  it('refuses a mapping Meta has not approved (or never checked) outside the window with 422 WHATSAPP_TEMPLATE_NOT_APPROVED, charging nothing; inside it, text goes', async () => {
    const rejected = await template({ body: 'Hi {{name}}, {{amount}} is due.', metaTemplate: { name: 'payment_due', language: 'en_US', components: [{ type: 'body', parameters: ['name', 'amount'] }] } });
    expect((await check(rejected.id)).body.data.metaCheck.status).to.equal('REJECTED');
    const unchecked = await template({ body: 'Hi {{name}}, your order {{orderId}} has shipped. Track it: https://shop.example/track/{{trackingCode}}', metaTemplate: ORDER_MAPPING });
    const wallet = (await storage().wallets.get(tenant.organizationId))!.balance;
    const before = sends().length;
    const stranger = ghana();
    const refused = await app.api.post('/messages/send', { channel: 'WHATSAPP', to: stranger, templateId: rejected.id, variables: { name: 'Ama', amount: 'GHS 20' } }, { apiKey: key });
    expect(refused.status).to.equal(422);
    expect(refused.body.success).to.equal(false);
    expect(refused.body.error).to.include({ code: 'WHATSAPP_TEMPLATE_NOT_APPROVED' });
    expect(refused.body.error.message).to.include('payment_due').and.include('REJECTED');
    expect(refused.body.error.details).to.deep.include({ index: 0, to: stranger, metaTemplate: 'payment_due', metaStatus: 'REJECTED' });
    const never = await app.api.post('/messages/send', { channel: 'WHATSAPP', to: stranger, templateId: unchecked.id,
      variables: { name: 'Ama', orderId: 'A1', trackingCode: 'T1' } }, { apiKey: key });
    expect(never.status).to.equal(422);
    expect(never.body.error).to.deep.include({ code: 'WHATSAPP_TEMPLATE_NOT_APPROVED' });
    expect(never.body.error.details.metaStatus).to.equal('UNCHECKED');
    const bulk = await app.api.post('/messages/bulk', { async: true, messages: [
      { channel: 'WHATSAPP', to: stranger, body: 'x', templateId: unchecked.id, variables: { name: 'Ama', orderId: 'A1', trackingCode: 'T1' } },
      { channel: 'WHATSAPP', to: stranger, body: 'x', templateId: rejected.id, variables: { name: 'Ama', amount: 'GHS 20' } },
    ] }, { apiKey: key });
    expect(bulk.status).to.equal(422);
    expect(bulk.body.error).to.deep.include({ code: 'WHATSAPP_TEMPLATE_NOT_APPROVED' });
    expect(bulk.body.error.details.index).to.equal(0);
    expect((await storage().wallets.get(tenant.organizationId))!.balance).to.equal(wallet);
    expect(sends().length).to.equal(before);

    const friend = ghana();
    await wroteAgo(friend, 60_000);
    const inside = await app.api.post('/messages/send', { channel: 'WHATSAPP', to: friend, templateId: rejected.id, variables: { name: 'Ama', amount: 'GHS 20' } }, { apiKey: key });
    expect(inside.status, inside.text).to.equal(201);
    expect(sends().at(-1)!.json).to.deep.include({ type: 'text', text: { preview_url: false, body: 'Hi Ama, GHS 20 is due.' } });
  });

  it('Verify over WhatsApp outside the window goes as the authentication template (code as body and copy-code button parameter); stored masked', async () => {
    const otp = await template({ body: '{{code}} is your verification code.', category: 'OTP',
      metaTemplate: { name: 'verification_code', language: 'en_US', components: [{ type: 'body', parameters: ['code'] }, { type: 'button', subType: 'url', index: 0, parameters: ['code'] }] } });
    expect((await check(otp.id)).body.data.metaCheck.status).to.equal('APPROVED');
    const verifyKey = (await app.api.post('/api-keys', { name: `verify-${suffix}`, isSandbox: false, scopes: ['verify:send'] }, tenant.auth)).body.data.key as string;
    const to = ghana();
    const started = await app.api.post('/verify/start', { to, channel: 'WHATSAPP' }, { apiKey: verifyKey });
    expect(started.status, started.text).to.equal(201);
    const messageId = started.body.data.sends.at(-1).messageId as string;
    const stored = (await storage().messages.findById(tenant.organizationId, messageId))!;
    expect(stored.whatsappTemplate).to.deep.equal({ name: 'verification_code', language: { code: 'en_US' }, components: [
      { type: 'body', parameters: [{ type: 'text', text: '******' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '******' }] },
    ] });
    const sealer = new AesGcmCredentialCipher(testConfig().encryptionKey);
    const code = /(\d{6})/.exec((JSON.parse(sealer.decrypt(stored.sealedContent!)) as { body: string }).body)![1]!;

    const before = sends().length;
    await app.container.get(MESSAGING.deliverMessage).execute(messageId);
    const sent = sends().slice(before);
    expect(sent).to.have.length(1);
    expect((sent[0]!.json as Record<string, unknown>)['template']).to.deep.equal({ name: 'verification_code', language: { code: 'en_US' }, components: [
      { type: 'body', parameters: [{ type: 'text', text: code }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
    ] });
    const after = (await storage().messages.findById(tenant.organizationId, messageId))!;
    expect(after.status).to.equal('SENT');
    expect(JSON.stringify(after)).to.not.include(code);
  });
  it('a WhatsApp campaign: refused at send (422) until its Meta template checks APPROVED, then its contacts get the template', async () => {
    const tag = `wa-${suffix}`;
    const phones = [ghana(), ghana()];
    for (const [i, phone] of phones.entries()) {
      expect((await app.api.post('/contacts', { firstName: `Esi${i}`, phone, tags: [tag] }, tenant.auth)).status).to.equal(201);
    }
    const segment = await app.api.post('/segments', { name: `WA ${suffix}`, rules: { field: 'tags', op: 'contains', value: tag } }, tenant.auth);
    const created = await template({ body: 'Hi {{firstName}}, our new menu is out.', metaTemplate: { name: 'menu_update', language: 'en_US', components: [{ type: 'body', parameters: ['firstName'] }] } });
    const campaign = await app.api.post('/campaigns', { name: `Menu ${suffix}`, channel: 'WHATSAPP', templateId: created.id, segmentId: segment.body.data.id }, tenant.auth);
    expect(campaign.status, campaign.text).to.equal(201);
    const id = campaign.body.data.id as string;
    const refused = await app.api.post(`/campaigns/${id}/send`, undefined, tenant.auth);
    expect(refused.status).to.equal(422);
    expect(refused.body.error).to.deep.include({ code: 'WHATSAPP_TEMPLATE_NOT_APPROVED' });
    expect(refused.body.error.details).to.deep.include({ metaTemplate: 'menu_update', metaStatus: 'UNCHECKED' });

    meta.templates = [...meta.templates, { name: 'menu_update', language: 'en_US', status: 'APPROVED', category: 'MARKETING', id: '771',
      components: [{ type: 'BODY', text: 'Hi {{1}}, our new menu is out.', example: { body_text: [['Ama']] } }] }];
    expect((await check(created.id)).body.data.metaCheck.status).to.equal('APPROVED');
    expect((await app.api.post(`/campaigns/${id}/send`, undefined, tenant.auth)).status).to.equal(200);
    const c = app.container;
    await new RunCampaign({ storage: storage(), pricing: c.get(MESSAGING.pricing), clock: c.get(INFRA.clock), ids: c.get(INFRA.ids), fraud: c.get(MESSAGING.fraudLimits),
      timing: c.get(MESSAGING.sendTiming), batchSize: 10, completionPollSeconds: 1 }).execute({ campaignId: id, organizationId: tenant.organizationId });
    const messages = (await storage().messages.list(tenant.organizationId, {}, 0, 100)).items.filter((m) => phones.includes(m.recipient));
    expect(messages).to.have.length(2);
    const before = sends().length;
    for (const m of messages) await c.get(MESSAGING.deliverMessage).execute(m.id);
    const sent = sends().slice(before).map((r) => r.json as { to: string; type: string; template: unknown });
    expect(sent.map((r) => r.type)).to.deep.equal(['template', 'template']);
    const esi0 = sent.find((r) => r.to === phones[0]!.slice(1))!;
    expect(esi0.template).to.deep.equal({ name: 'menu_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Esi0' }] }] });
  });
  it('PUT /templates/{id}/meta-template changes the mapping and clears the check; another organization gets 404; no account to ask is 503', async () => {
    const created = await template({ body: 'Hi {{name}}, your order {{orderId}} has shipped. Track it: https://shop.example/track/{{trackingCode}}', metaTemplate: ORDER_MAPPING });
    expect((await check(created.id)).body.data.metaCheck.status).to.equal('APPROVED');
    const changed = await app.api.put(`/templates/${created.id}/meta-template`, { metaTemplate: { ...ORDER_MAPPING, language: 'en' } }, tenant.auth);
    expect(changed.status, changed.text).to.equal(200);
    expect(changed.body.data).to.deep.include({ metaCheck: null });
    expect(changed.body.data.metaTemplate.language).to.equal('en');
    expect((await check(created.id)).body.data.metaCheck.status).to.equal('MISSING');
    const other = await registerTenant(app.api, 'wa-other');
    expect((await app.api.put(`/templates/${created.id}/meta-template`, { metaTemplate: null }, other.auth)).status).to.equal(404);
    expect((await app.api.post(`/templates/${created.id}/whatsapp-check`, undefined, other.auth)).status).to.equal(404);
    const removed = await app.api.put(`/templates/${created.id}/meta-template`, { metaTemplate: null }, tenant.auth);
    expect(removed.body.data).to.deep.include({ metaTemplate: null, metaCheck: null });
    expect((await check(created.id)).status).to.equal(400);

    await app.api.put(`/templates/${created.id}/meta-template`, { metaTemplate: ORDER_MAPPING }, tenant.auth);
    await configure(true, false);
    try {
      const none = await check(created.id);
      expect(none.status).to.equal(503);
      expect(none.body).to.deep.include({ success: false });
      expect(none.body.error.code).to.equal('PROVIDER_UNAVAILABLE');
      expect(none.body.error.message).to.include('businessAccountId');
    } finally {
      await configure(true);
    }
  });
});
