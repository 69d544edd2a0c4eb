import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import type { Contact } from '../../core/domain/contact.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders, MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker } from '../../hosts/worker/worker.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { testConfig } from '../support/test-config.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const phone = (n: number) => `+23324${String(7_000_000 + n).padStart(7, '0')}`;
const FAILING = phone(999);

describe('HTTP: notification events and triggers', function () {
  this.timeout(40_000);
  let app: TestApp;
  let tenant: TestTenant;
  let liveKey: string;
  let templateId: string;
  const refused = () => ({ accepted: false as const, retryable: false, errorCode: 'VENDOR_REJECTED', errorMessage: 'destination refused' });
  const sms = new RecordingProvider('SMS', 'events-sms');
  const whatsapp = new RecordingProvider('WHATSAPP', 'events-whatsapp');
  const email = new RecordingProvider('EMAIL', 'events-email');
  sms.next = (m) => (m.to === FAILING ? refused() : { accepted: true, providerMessageId: `sms_${m.internalMessageId}`, delivered: false });
  whatsapp.next = (m) => ({ accepted: true, providerMessageId: `wa_${m.internalMessageId}`, delivered: true });
  const providers = new StaticProviderDirectory([sms, whatsapp, email], []);

  async function contact(fields: Partial<Contact> = {}): Promise<Contact> {
    const now = new Date();
    const c: Contact = {
      id: randomUUID(), organizationId: tenant.organizationId, firstName: 'Ama', lastName: 'Mensah', phone: null, email: null, countryCode: 'GH',
      tags: [], fcmToken: null, attributes: {}, optedOutAt: null, createdAt: now, updatedAt: now, ...fields,
    };
    await app.container.get(INFRA.storage).contacts.insert(c);
    return c;
  }

  async function createEvent(body: Record<string, unknown>) {
    const res = await app.api.post('/events', { name: 'Order shipped', templateId, ...body }, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data;
  }

  before(async () => {
    app = await startTestApp({ providers });
    tenant = await registerTenant(app.api, 'events');
    liveKey = (await app.api.post('/api-keys', { name: 'live', isSandbox: false }, tenant.auth)).body.data.key;
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'test credit' }), new Date());
    const template = await app.api.post('/templates', { name: 'Shipped', channel: 'SMS', body: 'Hi {{firstName}}, order {{order}} is on its way' }, tenant.auth);
    templateId = template.body.data.id;
  });
  after(async () => { await app.close(); });

  describe('managing events', () => {
    it('creates an event with the spec defaults and lists it with its template, with a JWT or an API key', async () => {
      const created = await createEvent({ slug: 'order.created' });
      expect(created).to.include({ slug: 'order.created', isActive: true, templateId });
      expect(created.channelPriority).to.deep.equal(['SMS']);
      expect(created.template).to.include({ id: templateId, channel: 'SMS', status: 'APPROVED' });
      for (const auth of [tenant.auth, { apiKey: liveKey }]) {
        const list = await app.api.get('/events', auth);
        expect(list.status).to.equal(200);
        expect(list.body.data.find((e: { slug: string }) => e.slug === 'order.created').template.id).to.equal(templateId);
      }
      const one = await app.api.get(`/events/${created.id}`, tenant.auth);
      expect(one.body.data).to.include({ id: created.id, slug: 'order.created' });
    });

    it('answers 409 SLUG_EXISTS for a slug already used, 400 for a bad slug or unknown template', async () => {
      await createEvent({ slug: 'dup.slug' });
      const dup = await app.api.post('/events', { name: 'Again', slug: 'dup.slug' }, tenant.auth);
      expect(dup.status).to.equal(409);
      expect(dup.body.error.code).to.equal('SLUG_EXISTS');
      const bad = await app.api.post('/events', { name: 'Bad', slug: 'Not A Slug!' }, tenant.auth);
      expect(bad.status).to.equal(400);
      expect(bad.body.error.details.fieldErrors).to.have.keys('slug');
      const noTemplate = await app.api.post('/events', { name: 'Bad', slug: 'bad.template', templateId: 'nope' }, tenant.auth);
      expect(noTemplate.body.error.details.fieldErrors).to.deep.equal({ templateId: ['template not found'] });
    });

    it('updates and deactivates; API keys cannot manage events; other organizations get 404', async () => {
      const created = await createEvent({ slug: 'to.update' });
      const patched = await app.api.patch(`/events/${created.id}`, { channelPriority: ['WHATSAPP', 'SMS'], fallbackRules: { channels: ['EMAIL'] } }, tenant.auth);
      expect(patched.status).to.equal(200);
      expect(patched.body.data.channelPriority).to.deep.equal(['WHATSAPP', 'SMS']);
      const off = await app.api.post(`/events/${created.id}/deactivate`, undefined, tenant.auth);
      expect(off.body.data.isActive).to.equal(false);
      expect((await app.api.post('/events', { name: 'x', slug: 'by.key' }, { apiKey: liveKey })).status).to.equal(401);
      const other = await registerTenant(app.api, 'events-other');
      expect((await app.api.get(`/events/${created.id}`, other.auth)).status).to.equal(404);
      expect((await app.api.patch(`/events/${created.id}`, { name: 'x' }, other.auth)).status).to.equal(404);
    });
  });

  describe('POST /events/trigger', () => {
    before(async () => {
      await createEvent({ slug: 'order.shipped', fallbackRules: { channels: ['WHATSAPP'] } });
      const inactive = await createEvent({ slug: 'order.inactive' });
      await app.api.post(`/events/${inactive.id}/deactivate`, undefined, tenant.auth);
    });

    it('falls back when SMS fails: WhatsApp delivers, both delivery logs returned (201)', async () => {
      const res = await app.api.post('/events/trigger', { event: 'order.shipped', to: FAILING, variables: { firstName: 'Kofi', order: 'A-1' } }, { apiKey: liveKey });
      expect(res.status, res.text).to.equal(201);
      const trigger = res.body.data;
      expect(trigger).to.include({ status: 'DELIVERED', channel: 'WHATSAPP', event: 'order.shipped', to: FAILING });
      expect(trigger.plan).to.deep.equal(['SMS', 'WHATSAPP']);
      expect(trigger.steps.map((s: { channel: string; status: string }) => [s.channel, s.status])).to.deep.equal([['SMS', 'FAILED'], ['WHATSAPP', 'DELIVERED']]);
      expect(trigger.deliveryLogs.map((l: { channel: string; status: string; errorCode?: string }) => [l.channel, l.status, l.errorCode ?? null]))
        .to.deep.equal([['SMS', 'FAILED', 'VENDOR_REJECTED'], ['WHATSAPP', 'DELIVERED', null]]);
      expect(whatsapp.received.at(-1)).to.include({ to: FAILING, body: 'Hi Kofi, order A-1 is on its way' });
      const again = await app.api.get(`/events/triggers/${trigger.id}`, tenant.auth);
      expect(again.body.data.steps).to.have.length(2);
      const eventId = (await app.api.get('/events', tenant.auth)).body.data.find((e: { slug: string }) => e.slug === 'order.shipped').id;
      const recent = await app.api.get(`/events/${eventId}/triggers?limit=5`, tenant.auth);
      expect(recent.status).to.equal(200);
      expect(recent.body.data[0]).to.include({ id: trigger.id, status: 'DELIVERED', channel: 'WHATSAPP' });
      expect((await app.api.get(`/events/${eventId}/triggers?limit=500`, tenant.auth)).status).to.equal(400);
      const wa = await app.api.get(`/messages/${trigger.deliveryLogs[1].id}`, { apiKey: liveKey });
      expect(wa.body.data).to.include({ status: 'DELIVERED', provider: 'events-whatsapp' });
    });

    it('sends to a contact with its fields rendered into the template', async () => {
      const c = await contact({ phone: phone(1), firstName: 'Efua' });
      const res = await app.api.post('/events/trigger', { event: 'order.shipped', contactId: c.id, variables: { order: 'B-2' } }, tenant.auth);
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.include({ status: 'SENT', channel: 'SMS', contactId: c.id });
      expect(sms.received.at(-1)).to.include({ to: phone(1), body: 'Hi Efua, order B-2 is on its way' });
    });

    it('answers 422 RECIPIENT_UNREACHABLE for a contact without an address for the event\'s channels', async () => {
      const c = await contact({ email: `no-phone-${randomUUID().slice(0, 6)}@example.com` });
      const res = await app.api.post('/events/trigger', { event: 'order.shipped', contactId: c.id, variables: { order: '1' } }, { apiKey: liveKey });
      expect(res.status).to.equal(422);
      expect(res.body.error.code).to.equal('RECIPIENT_UNREACHABLE');
      expect(res.body.error.details.unreachable).to.deep.equal([
        { channel: 'SMS', reason: 'the contact has no phone' }, { channel: 'WHATSAPP', reason: 'the contact has no phone' }]);
    });

    it('answers 400 VALIDATION_ERROR without to and contactId, 404 for an unknown event, 422 EVENT_INACTIVE for a deactivated one', async () => {
      const neither = await app.api.post('/events/trigger', { event: 'order.shipped', variables: { order: '1' } }, { apiKey: liveKey });
      expect(neither.status).to.equal(400);
      expect(neither.body.error).to.deep.include({ code: 'VALIDATION_ERROR' });
      expect(neither.body.error.details.formErrors).to.deep.equal(['to or contactId is required']);
      const unknown = await app.api.post('/events/trigger', { event: 'no.such.event', to: phone(2) }, { apiKey: liveKey });
      expect([unknown.status, unknown.body.error.code]).to.deep.equal([404, 'NOT_FOUND']);
      const inactive = await app.api.post('/events/trigger', { event: 'order.inactive', to: phone(2), variables: { firstName: 'A', order: '1' } }, { apiKey: liveKey });
      expect([inactive.status, inactive.body.error.code]).to.deep.equal([422, 'EVENT_INACTIVE']);
    });

    it('replays an idempotent trigger and refuses the key with another body', async () => {
      const body = { event: 'order.shipped', to: phone(3), variables: { firstName: 'A', order: '3' }, idempotencyKey: `trig-${randomUUID()}` };
      const first = await app.api.post('/events/trigger', body, { apiKey: liveKey });
      const sent = sms.received.length;
      const again = await app.api.post('/events/trigger', body, { apiKey: liveKey });
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body.data.id).to.equal(first.body.data.id);
      expect(sms.received.length).to.equal(sent);
      const reused = await app.api.post('/events/trigger', { ...body, to: phone(4) }, { apiKey: liveKey });
      expect([reused.status, reused.body.error.code]).to.deep.equal([422, 'IDEMPOTENCY_KEY_REUSED']);
    });

    it('falls back later, in the worker, when a delivery report fails the SMS', async () => {
      const res = await app.api.post('/events/trigger', { event: 'order.shipped', to: phone(5), variables: { firstName: 'A', order: '5' } }, { apiKey: liveKey });
      expect(res.body.data.status).to.equal('SENT');
      const smsLog = res.body.data.deliveryLogs[0];
      const infra = await sharedInfrastructure();
      const container = buildWorkerContainer(testConfig(), createLogger('silent'), infra, { providers });
      await loadProviders(container);
      const worker = await startWorker(infra.boss, container.getAll(WORKER.handlers), createLogger('silent'));
      try {
        await app.container.get(MESSAGING.applyDeliveryReport).execute('events-sms',
          { providerMessageId: `sms_${smsLog.internalMessageId}`, status: 'FAILED', errorCode: 'EXPIRED', vendorStatus: 'EXPIRED', occurredAt: null }, 'callback:test');
        let trigger = res.body.data;
        for (let i = 0; i < 200 && (trigger.steps.length < 2 || trigger.status !== 'DELIVERED'); i++) { // the step is recorded before its delivery ends
          await new Promise((resolve) => setTimeout(resolve, 100));
          trigger = (await app.api.get(`/events/triggers/${trigger.id}`, tenant.auth)).body.data;
        }
        expect(trigger).to.include({ status: 'DELIVERED', channel: 'WHATSAPP' });
        expect(trigger.steps.map((s: { channel: string; status: string }) => [s.channel, s.status])).to.deep.equal([['SMS', 'FAILED'], ['WHATSAPP', 'DELIVERED']]);
      } finally {
        await worker.stop();
      }
    });
  });
});
