import { expect } from 'chai';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { caught } from '../messaging/messaging-fixtures.ts';
import { buildEvents, failPermanently, type Events } from './events-fixtures.ts';

async function eventWith(e: Events, fields: Record<string, unknown> = {}) {
  const template = await e.template();
  return e.createEvent.execute(e.scope, { name: 'Order shipped', slug: 'order.shipped', templateId: template.id, ...fields });
}

describe('TriggerEvent', () => {
  it('sends to a contact on the first reachable channel of channelPriority, rendered with the contact fields', async () => {
    const e = await buildEvents();
    await eventWith(e, { channelPriority: ['PUSH', 'SMS'] });
    const contact = await e.contact();
    const { trigger } = await e.trigger.execute(e.ctx, { event: 'order.shipped', contactId: contact.id, variables: { order: 'A-17' } });
    expect(trigger).to.include({ status: 'SENT', channel: 'SMS', contactId: contact.id, event: 'order.shipped' });
    expect(trigger.plan).to.deep.equal(['SMS']);
    expect(trigger.unreachable).to.deep.equal([{ channel: 'PUSH', reason: 'the contact has no fcmToken' }]);
    expect(trigger.deliveryLogs).to.have.length(1);
    expect(trigger.deliveryLogs[0]).to.include({ channel: 'SMS', recipient: contact.phone, status: 'SENT' });
    expect(e.providers.SMS.received.map((m) => m.body)).to.deep.equal(['Hi Ama, order A-17 has shipped']);
    expect(e.providers.PUSH.received).to.have.length(0);
  });

  it('lets the request variables override contact fields', async () => {
    const e = await buildEvents();
    await eventWith(e);
    const contact = await e.contact();
    await e.trigger.execute(e.ctx, { event: 'order.shipped', contactId: contact.id, variables: { order: '1', firstName: 'Auntie Ama' } });
    expect(e.providers.SMS.received[0]?.body).to.equal('Hi Auntie Ama, order 1 has shipped');
  });

  it('reads a bare `to` by its shape: an email address reaches EMAIL, a phone number SMS', async () => {
    const e = await buildEvents();
    await eventWith(e, { channelPriority: ['SMS', 'EMAIL'] });
    const byEmail = await e.trigger.execute(e.ctx, { event: 'order.shipped', to: 'kofi@Example.com', variables: { firstName: 'Kofi', order: '2' } });
    expect(byEmail.trigger).to.include({ channel: 'EMAIL' });
    expect(byEmail.trigger.unreachable).to.deep.equal([{ channel: 'SMS', reason: 'to is an email address' }]);
    expect(e.providers.EMAIL.received[0]).to.include({ to: 'kofi@example.com', subject: 'Order shipped' });
    const byPhone = await e.trigger.execute(e.ctx, { event: 'order.shipped', to: '024 123 4567', variables: { firstName: 'Kofi', order: '3' } });
    expect(byPhone.trigger).to.include({ channel: 'SMS' });
    expect(e.providers.SMS.received[0]?.to).to.equal('+233241234567');
  });

  it('falls back at send time: SMS refused -> WhatsApp, the SMS refunded, both recorded on the trigger', async () => {
    const e = await buildEvents();
    await eventWith(e, { fallbackRules: { channels: ['WHATSAPP', 'EMAIL'] } });
    e.providers.SMS.next = failPermanently;
    const contact = await e.contact();
    const before = await e.balance();
    const { trigger } = await e.trigger.execute(e.ctx, { event: 'order.shipped', contactId: contact.id, variables: { order: '9' } });
    expect(trigger).to.include({ status: 'SENT', channel: 'WHATSAPP' });
    expect(trigger.plan).to.deep.equal(['SMS', 'WHATSAPP', 'EMAIL']);
    expect(trigger.steps.map((s) => [s.sequence, s.channel, s.attempt, s.status])).to.deep.equal([[1, 'SMS', 1, 'FAILED'], [2, 'WHATSAPP', 1, 'SENT']]);
    expect(trigger.deliveryLogs.map((l) => l['status'])).to.deep.equal(['FAILED', 'SENT']);
    expect(e.providers.WHATSAPP.received).to.have.length(1);
    expect(e.providers.EMAIL.received).to.have.length(0);
    const whatsapp = trigger.deliveryLogs[1]!;
    expect(before - (await e.balance())).to.equal(Math.round(Number(whatsapp['cost']) * 100)); // the failed SMS was refunded
  });

  it('falls back later when a delivery report fails the message (trigger-fallback job), once', async () => {
    const e = await buildEvents();
    await eventWith(e, { fallbackRules: { channels: ['WHATSAPP'] } });
    const contact = await e.contact();
    const { trigger } = await e.trigger.execute(e.ctx, { event: 'order.shipped', contactId: contact.id, variables: { order: '9' } });
    expect(trigger.status).to.equal('SENT');
    const sms = trigger.deliveryLogs[0]!;
    await e.apply.execute('live-sms', { providerMessageId: `rec_${sms['internalMessageId']}`, status: 'FAILED', errorCode: 'EXPIRED', vendorStatus: 'EXPIRED', occurredAt: null }, 'callback');
    const jobs = e.jobs(QUEUES.triggerFallback);
    expect(jobs.map((j) => j.data)).to.deep.equal([{ triggerId: trigger.id, messageId: sms['id'] }]);
    await e.advance.execute(trigger.id, sms['id'] as string);
    await e.advance.execute(trigger.id, sms['id'] as string); // a repeated job changes nothing
    expect(e.providers.WHATSAPP.received).to.have.length(1);
    const stored = (await e.core.storage.eventTriggers.findById(e.organizationId, trigger.id))!;
    expect(stored).to.include({ state: 'ACTIVE', currentStep: 1 });
    expect((await e.core.storage.eventTriggers.listSteps(e.organizationId, trigger.id)).map((s) => s.channel)).to.deep.equal(['SMS', 'WHATSAPP']);
  });

  it('ignores the worker job for a failure the request already fell back from', async () => {
    const e = await buildEvents();
    await eventWith(e, { fallbackRules: { channels: ['WHATSAPP'] } });
    e.providers.SMS.next = failPermanently;
    const { trigger } = await e.trigger.execute(e.ctx, { event: 'order.shipped', to: '+233241234567', variables: { firstName: 'A', order: '1' } });
    const jobs = e.jobs(QUEUES.triggerFallback);
    expect(jobs).to.have.length(1); // enqueued by DeliverMessage when the SMS failed
    await e.advance.execute(String(jobs[0]!.data['triggerId']), String(jobs[0]!.data['messageId']));
    expect(e.providers.WHATSAPP.received).to.have.length(1);
    expect((await e.core.storage.eventTriggers.listSteps(e.organizationId, trigger.id))).to.have.length(2);
  });

  it('ends FAILED when every planned channel failed', async () => {
    const e = await buildEvents();
    await eventWith(e, { fallbackRules: { channels: ['WHATSAPP'] } });
    e.providers.SMS.next = failPermanently;
    e.providers.WHATSAPP.next = failPermanently;
    const { trigger } = await e.trigger.execute(e.ctx, { event: 'order.shipped', to: '+233241234567', variables: { firstName: 'A', order: '1' } });
    expect(trigger.status).to.equal('FAILED');
    expect(trigger.steps.map((s) => s.status)).to.deep.equal(['FAILED', 'FAILED']);
  });

  it('re-sends on the same channel as retryRules allow, then falls back (no backoff: at once)', async () => {
    const e = await buildEvents();
    await eventWith(e, { retryRules: { attempts: 2, backoffSeconds: 0 }, fallbackRules: { channels: ['EMAIL'] } });
    e.providers.SMS.next = failPermanently;
    const contact = await e.contact();
    const { trigger } = await e.trigger.execute(e.ctx, { event: 'order.shipped', contactId: contact.id, variables: { order: '1' } });
    expect(trigger.steps.map((s) => [s.channel, s.attempt, s.status])).to.deep.equal([['SMS', 1, 'FAILED'], ['SMS', 2, 'FAILED'], ['EMAIL', 1, 'SENT']]);
    expect(e.providers.SMS.received).to.have.length(2);
  });

  it('waits the backoff before a re-send (WAITING_RETRY, a delayed job; an early job only re-schedules)', async () => {
    const e = await buildEvents();
    await eventWith(e, { retryRules: { attempts: 3, backoffSeconds: 30, backoffMultiplier: 2 } });
    e.providers.SMS.next = failPermanently;
    const { trigger } = await e.trigger.execute(e.ctx, { event: 'order.shipped', to: '+233241234567', variables: { firstName: 'A', order: '1' } });
    expect(trigger.status).to.equal('PENDING');
    expect(trigger.retryAt).to.equal(new Date(e.core.clock.now().getTime() + 30_000).toISOString());
    const jobs = e.jobs(QUEUES.triggerFallback);
    const delayed = jobs.find((j) => j.startAfterSeconds === 30)!;
    expect(delayed, 'a job delayed by the backoff').to.not.equal(undefined);
    await e.advance.execute(trigger.id, String(delayed.data['messageId'])); // too early
    expect(e.providers.SMS.received).to.have.length(1);
    expect(e.jobs(QUEUES.triggerFallback).map((j) => j.startAfterSeconds)).to.deep.equal([30]);
    e.core.clock.advance(30_000);
    await e.advance.execute(trigger.id, String(delayed.data['messageId']));
    expect(e.providers.SMS.received).to.have.length(2);
    const stored = (await e.core.storage.eventTriggers.findById(e.organizationId, trigger.id))!;
    expect(stored).to.include({ state: 'WAITING_RETRY', currentAttempt: 2 });
    expect(stored.retryAt?.getTime()).to.equal(e.core.clock.now().getTime() + 60_000); // 30 s * 2
  });

  it('answers the same trigger for a repeated idempotencyKey and refuses it with another body', async () => {
    const e = await buildEvents();
    await eventWith(e);
    const body = { event: 'order.shipped', to: '+233241234567', variables: { firstName: 'A', order: '1' }, idempotencyKey: 'order-1' };
    const first = await e.trigger.execute(e.ctx, body);
    const again = await e.trigger.execute(e.ctx, body);
    expect(again.replayed).to.equal(true);
    expect(again.trigger.id).to.equal(first.trigger.id);
    expect(e.providers.SMS.received).to.have.length(1);
    const error = await caught(() => e.trigger.execute(e.ctx, { ...body, variables: { firstName: 'B', order: '1' } }));
    expect(error.code).to.equal('IDEMPOTENCY_KEY_REUSED');
  });

  it('refuses neither to nor contactId, an unknown or inactive event, an unknown contact and an unreachable one', async () => {
    const e = await buildEvents();
    const created = await eventWith(e, { channelPriority: ['EMAIL'] });
    const neither = await caught(() => e.trigger.execute(e.ctx, { event: 'order.shipped' }));
    expect(neither).to.include({ code: 'VALIDATION_ERROR' });
    expect(neither.details['formErrors']).to.deep.equal(['to or contactId is required']);
    expect((await caught(() => e.trigger.execute(e.ctx, { event: 'nope', to: 'a@b.co' }))).code).to.equal('NOT_FOUND');
    expect((await caught(() => e.trigger.execute(e.ctx, { event: 'order.shipped', contactId: 'missing' }))).code).to.equal('NOT_FOUND');
    const noEmail = await e.contact({ email: null });
    const unreachable = await caught(() => e.trigger.execute(e.ctx, { event: 'order.shipped', contactId: noEmail.id }));
    expect(unreachable.code).to.equal('RECIPIENT_UNREACHABLE');
    expect(unreachable.details['unreachable']).to.deep.equal([{ channel: 'EMAIL', reason: 'the contact has no email' }]);
    const optedOut = await e.contact({ optedOutAt: e.core.clock.now() });
    const out = await caught(() => e.trigger.execute(e.ctx, { event: 'order.shipped', contactId: optedOut.id }));
    expect(out.code).to.equal('RECIPIENT_UNREACHABLE');
    expect(out.details['unreachable']).to.deep.equal([{ channel: 'EMAIL', reason: 'the contact opted out' }]);
    await e.core.storage.notificationEvents.update(e.organizationId, created.id, { isActive: false, updatedAt: e.core.clock.now() });
    expect((await caught(() => e.trigger.execute(e.ctx, { event: 'order.shipped', to: 'a@b.co' }))).code).to.equal('EVENT_INACTIVE');
    expect(e.core.storage.state.messages.size).to.equal(0);
    expect(e.core.storage.state.eventTriggers.size).to.equal(0);
  });

  it('refuses a malformed to and a missing template variable without recording anything', async () => {
    const e = await buildEvents();
    await eventWith(e);
    const bad = await caught(() => e.trigger.execute(e.ctx, { event: 'order.shipped', to: '12' }));
    expect(bad.code).to.equal('VALIDATION_ERROR');
    expect(Object.keys(bad.details['fieldErrors'] as object)).to.deep.equal(['to']);
    const missing = await caught(() => e.trigger.execute(e.ctx, { event: 'order.shipped', to: '+233241234567', variables: { firstName: 'A' } }));
    expect(missing.details['fieldErrors']).to.deep.equal({ variables: ['missing template variable: order'] });
    expect(e.core.storage.state.eventTriggers.size).to.equal(0);
  });

  it('queues the first message for the worker when no inline delivery is wired (library use without providers at hand)', async () => {
    const e = await buildEvents({ inline: false });
    await eventWith(e);
    const { trigger } = await e.trigger.execute(e.ctx, { event: 'order.shipped', to: '+233241234567', variables: { firstName: 'A', order: '1' } });
    expect(trigger.status).to.equal('PENDING');
    expect(trigger.deliveryLogs[0]).to.include({ status: 'QUEUED' });
    expect(e.jobs(QUEUES.notificationSend).map((j) => j.startAfterSeconds)).to.deep.equal([0]);
  });

  it('skips a fallback channel the wallet cannot cover, records why, and goes on to the next', async () => {
    const e = await buildEvents({ balance: 5 }); // SMS GH 3 pesewas, WhatsApp 8, email 1
    await eventWith(e, { fallbackRules: { channels: ['WHATSAPP', 'EMAIL'] } });
    e.providers.SMS.next = failPermanently;
    const contact = await e.contact();
    const { trigger } = await e.trigger.execute(e.ctx, { event: 'order.shipped', contactId: contact.id, variables: { order: '1' } });
    expect(trigger.steps.map((s) => [s.channel, s.status, s.errorCode])).to.deep.equal([
      ['SMS', 'FAILED', 'VENDOR_REJECTED'], ['WHATSAPP', 'SKIPPED', 'INSUFFICIENT_BALANCE'], ['EMAIL', 'SENT', null]]);
    expect(trigger).to.include({ status: 'SENT', channel: 'EMAIL' });
    expect(await e.balance()).to.equal(4);
  });
});
