import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { SandboxProvider } from '../../adapters/providers/sandbox-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { CHANNELS } from '../../core/domain/channel.ts';
import { ReleaseScheduledMessages } from '../../core/use-cases/messaging/release-scheduled-messages.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const phone = (n: number) => `+23324${String(8_100_000 + n).padStart(7, '0')}`;
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const DAY = 86_400_000;

describe('HTTP: scheduled sends (sendAt on send, bulk and triggers; POST /messages/:id/cancel)', function () {
  this.timeout(30_000);
  let app: TestApp;
  let owner: TestTenant;
  let other: TestTenant;
  let liveKey: string;
  const sms = new RecordingProvider('SMS', 'scheduled-sms');

  async function credit(tenant: TestTenant, pesewas: number) {
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId,
      () => ({ amount: pesewas, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'test credit' }), new Date());
  }
  const balance = async (tenant: TestTenant) => (await app.container.get(INFRA.storage).wallets.get(tenant.organizationId))!.balance;
  const stored = (tenant: TestTenant, id: string) => app.container.get(INFRA.storage).messages.findById(tenant.organizationId, id);

  before(async () => {
    app = await startTestApp({ providers: new StaticProviderDirectory([sms], CHANNELS.map((c) => new SandboxProvider(c, 50))) });
    owner = await registerTenant(app.api, 'scheduled');
    other = await registerTenant(app.api, 'scheduled-other');
    await credit(owner, 10_000);
    await credit(other, 10_000);
    liveKey = (await app.api.post('/api-keys', { name: 'live', isSandbox: false }, owner.auth)).body.data.key;
  });
  after(async () => { await app.close(); });

  it('answers a sync send with a future sendAt 202 SCHEDULED with its planned time, charged, without reaching the provider', async () => {
    const sendAt = inMs(3_600_000);
    const before = await balance(owner);
    const res = await app.api.post('/messages/send', { channel: 'SMS', to: phone(1), body: 'See you tomorrow', sendAt }, { apiKey: liveKey });
    expect(res.status, res.text).to.equal(202);
    expect(res.body.data).to.include({ status: 'SCHEDULED', scheduledAt: sendAt, cost: 0.03 });
    expect(sms.received.some((m) => m.messageId === res.body.data.id)).to.equal(false);
    expect(await balance(owner)).to.equal(before - 3);
    const one = await app.api.get(`/messages/${res.body.data.id}`, { apiKey: liveKey });
    expect(one.body.data).to.include({ status: 'SCHEDULED', scheduledAt: sendAt });
    expect(one.body.data.statusHistory[0]).to.include({ status: 'SCHEDULED' });
    const list = await app.api.get('/delivery-logs?status=SCHEDULED', owner.auth);
    expect(list.status, list.text).to.equal(200);
    expect(list.body.data.items.map((m: { id: string }) => m.id)).to.include(res.body.data.id);
    expect(list.body.data.items.every((m: { status: string; scheduledAt: string }) => m.status === 'SCHEDULED' && typeof m.scheduledAt === 'string')).to.equal(true);
  });

  it('refuses a sendAt more than 35 days ahead or malformed with 400 VALIDATION_ERROR naming the field, on send, bulk and trigger', async () => {
    const far = inMs(35 * DAY + 60_000);
    const send = await app.api.post('/messages/send', { channel: 'SMS', to: phone(2), body: 'x', sendAt: far }, { apiKey: liveKey });
    expect(send.status).to.equal(400);
    expect(send.body.error).to.include({ code: 'VALIDATION_ERROR', message: 'sendAt: must be at most 35 days ahead' });
    expect(send.body.error.details.fieldErrors).to.deep.equal({ sendAt: ['must be at most 35 days ahead'] });
    const malformed = await app.api.post('/messages/send', { channel: 'SMS', to: phone(2), body: 'x', sendAt: 'next Friday' }, { apiKey: liveKey });
    expect(malformed.status).to.equal(400);
    expect(Object.keys(malformed.body.error.details.fieldErrors)).to.deep.equal(['sendAt']);
    const bulk = await app.api.post('/messages/bulk', { messages: [{ channel: 'SMS', to: phone(2), body: 'x', sendAt: far }] }, { apiKey: liveKey });
    expect(bulk.status).to.equal(400);
    expect(bulk.body.error.message).to.equal('messages[0].sendAt: must be at most 35 days ahead');
    const trigger = await app.api.post('/events/trigger', { event: 'no.such.event', to: phone(2), sendAt: far }, { apiKey: liveKey });
    expect(trigger.status).to.equal(400); // checked before the event is looked up
    expect(trigger.body.error.details.fieldErrors).to.deep.equal({ sendAt: ['must be at most 35 days ahead'] });
  });

  it('schedules bulk items with the request\'s sendAt or their own (202 when nothing went out inline)', async () => {
    const top = inMs(7_200_000);
    const own = inMs(DAY);
    const res = await app.api.post('/messages/bulk', { sendAt: top, messages: [
      { channel: 'SMS', to: phone(3), body: 'a' }, { channel: 'SMS', to: phone(4), body: 'b', sendAt: own }] }, { apiKey: liveKey });
    expect(res.status, res.text).to.equal(202);
    expect(res.body.data.map((l: { status: string; scheduledAt: string }) => [l.status, l.scheduledAt])).to.deep.equal([['SCHEDULED', top], ['SCHEDULED', own]]);
  });

  it('schedules an event trigger\'s first message with sendAt', async () => {
    const template = await app.api.post('/templates', { name: 'Reminder', channel: 'SMS', body: 'Your appointment is at {{time}}' }, owner.auth);
    expect(template.status, template.text).to.equal(201);
    const event = await app.api.post('/events', { name: 'Reminder', slug: 'appointment.reminder', templateId: template.body.data.id }, owner.auth);
    expect(event.status, event.text).to.equal(201);
    const sendAt = inMs(3_600_000);
    const res = await app.api.post('/events/trigger', { event: 'appointment.reminder', to: phone(5), variables: { time: '9:00' }, sendAt }, { apiKey: liveKey });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.data.deliveryLogs.map((l: { status: string; scheduledAt: string }) => [l.status, l.scheduledAt])).to.deep.equal([['SCHEDULED', sendAt]]);
  });

  it('cancels a SCHEDULED message (200 CANCELLED, refunded once, message.status.updated published); 409 once released or cancelled; 404 for another organization', async () => {
    const storage = app.container.get(INFRA.storage);
    const now = new Date();
    await storage.webhookEndpoints.insert({
      id: `wh-${other.organizationId}`, organizationId: other.organizationId, url: 'https://hooks.example.com/scheduled', events: [], isActive: true, secretCiphertext: 'x',
      previousSecretCiphertext: null, previousSecretExpiresAt: null, disabledReason: null, failingSince: null, createdAt: now, updatedAt: now,
    });
    const otherKey = (await app.api.post('/api-keys', { name: 'live', isSandbox: false }, other.auth)).body.data.key;
    const sent = await app.api.post('/messages/send', { channel: 'SMS', to: phone(6), body: 'Cancel me', sendAt: inMs(3_600_000) }, { apiKey: otherKey });
    expect(sent.status, sent.text).to.equal(202);
    const id = sent.body.data.id as string;
    const before = await balance(other);

    const foreign = await app.api.post(`/messages/${id}/cancel`, {}, { apiKey: liveKey });
    expect(foreign.status).to.equal(404);
    expect(foreign.body.error.code).to.equal('NOT_FOUND');
    expect((await stored(other, id))?.status).to.equal('SCHEDULED');

    const cancelled = await app.api.post(`/messages/${id}/cancel`, {}, { apiKey: otherKey });
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.body.data).to.include({ id, status: 'CANCELLED', cost: 0 });
    expect(await balance(other)).to.equal(before + 3);
    const again = await app.api.post(`/messages/${id}/cancel`, {}, other.auth);
    expect(again.status).to.equal(409);
    expect(again.body.error).to.deep.include({ code: 'CONFLICT', details: { status: 'CANCELLED' } });
    expect(await balance(other)).to.equal(before + 3);
    const refunds = (await storage.wallets.listEntries(other.organizationId, 50)).filter((e) => e.kind === 'REFUND' && e.reference === id);
    expect(refunds.map((e) => e.amount)).to.deep.equal([3]);
    const events = (await storage.outboundEvents.listRecent(other.organizationId, 20)).filter((e) => e.kind === 'message.status.updated');
    expect(events.map((e) => [e.data['messageId'], e.data['status']])).to.deep.equal([[id, 'CANCELLED']]);

    expect((await app.api.post('/messages/no-such-message/cancel', {}, other.auth)).status).to.equal(404);
  });

  it('answers 409 for a message the scheduler already released, and the released message is delivered', async () => {
    const res = await app.api.post('/messages/send', { channel: 'SMS', to: phone(7), body: 'Soon', sendAt: inMs(1_500) }, { apiKey: liveKey });
    expect(res.body.data.status).to.equal('SCHEDULED');
    await new Promise((r) => setTimeout(r, 1_600));
    const storage = app.container.get(INFRA.storage);
    const released = await new ReleaseScheduledMessages({ storage, clock: app.container.get(INFRA.clock), ids: app.container.get(INFRA.ids) }).execute();
    expect(released.released).to.be.at.least(1);
    expect((await stored(owner, res.body.data.id))?.status).to.equal('QUEUED');
    const late = await app.api.post(`/messages/${res.body.data.id}/cancel`, {}, { apiKey: liveKey });
    expect(late.status).to.equal(409);
    expect(late.body.error.details).to.deep.equal({ status: 'QUEUED' });
  });

  it('cancels a bulk request\'s messages with POST /messages/cancel, one outcome per id (CONFLICT, NOT_FOUND per id)', async () => {
    const bulk = await app.api.post('/messages/bulk', { sendAt: inMs(3_600_000), messages: [
      { channel: 'SMS', to: phone(8), body: 'a' }, { channel: 'SMS', to: phone(9), body: 'b' }] }, { apiKey: liveKey });
    const [a, b] = bulk.body.data.map((l: { id: string }) => l.id);
    const before = await balance(owner);
    expect((await app.api.post(`/messages/${a}/cancel`, {}, { apiKey: liveKey })).status).to.equal(200);
    const res = await app.api.post('/messages/cancel', { ids: [a, b, 'no-such-id'] }, { apiKey: liveKey });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.map((o: { id: string; cancelled: boolean; error?: { code: string } }) => [o.id, o.cancelled, o.error?.code ?? null]))
      .to.deep.equal([[a, false, 'CONFLICT'], [b, true, null], ['no-such-id', false, 'NOT_FOUND']]);
    expect(await balance(owner)).to.equal(before + 6);
    const empty = await app.api.post('/messages/cancel', { ids: [] }, { apiKey: liveKey });
    expect(empty.status).to.equal(400);
    expect(empty.body.error.details.fieldErrors.ids).to.deep.equal(['must name at least 1 message']);
    expect((await app.api.post('/messages/cancel', { ids: Array.from({ length: 101 }, (_, i) => `m${i}`) }, { apiKey: liveKey })).status).to.equal(400);
  });

  it('refuses cancel to an API key without the messages:send scope (403)', async () => {
    const readOnly = await app.api.post('/api-keys', { name: 'read', isSandbox: false, scopes: ['messages:read'] }, owner.auth);
    expect(readOnly.status, readOnly.text).to.equal(201);
    const res = await app.api.post('/messages/whatever/cancel', {}, { apiKey: readOnly.body.data.key });
    expect(res.status).to.equal(403);
  });
});
