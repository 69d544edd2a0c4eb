import { expect } from 'chai';
import { SCHEDULE_HORIZON_MS } from '../../../core/domain/scheduling.ts';
import { CancelScheduledMessage } from '../../../core/use-cases/messaging/cancel-scheduled-message.ts';
import { ReleaseScheduledMessages, type ReleaseScreen } from '../../../core/use-cases/messaging/release-scheduled-messages.ts';
import { QUEUES } from '../../../core/ports/job-queue.ts';
import { buildPipeline, caught, ghPhone, type Pipeline } from './messaging-fixtures.ts';

describe('scheduled sends (sendAt, release, cancel)', () => {
  let p: Pipeline;
  beforeEach(async () => { p = await buildPipeline(); });
  const inMs = (ms: number) => new Date(p.core.clock.now().getTime() + ms).toISOString();
  const scheduler = (extra: { screen?: ReleaseScreen; batchSize?: number } = {}) =>
    new ReleaseScheduledMessages({ storage: p.core.storage, clock: p.core.clock, ids: p.core.ids, ...extra });
  const cancel = () => new CancelScheduledMessage({ storage: p.core.storage, clock: p.core.clock, ids: p.core.ids });

  it('holds a sync send with a future sendAt SCHEDULED: charged now, no job, nothing delivered, answered as queued (202)', async () => {
    const sendAt = inMs(3_600_000);
    const result = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'Your appointment is tomorrow', sendAt });
    expect(result.queued).to.equal(true);
    expect(result.log).to.include({ status: 'SCHEDULED', scheduledAt: sendAt, cost: 0.03, attempts: 0 });
    expect(p.takeJobs()).to.deep.equal([]);
    expect(p.providers.sms.received).to.have.length(0);
    expect(await p.balance()).to.equal(10_000 - 3);
  });

  it('releases a scheduled message at its exact time, not a millisecond before, with one delivery job; the worker then delivers it', async () => {
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hi', sendAt: inMs(60_000), async: true });
    p.core.clock.advance(59_999);
    expect(await scheduler().execute()).to.deep.equal({ released: 0, rejected: 0, campaignsStarted: 0 });
    expect((await p.stored(String(log['id']))).status).to.equal('SCHEDULED');
    p.core.clock.advance(1);
    expect((await scheduler().execute()).released).to.equal(1);
    expect((await scheduler().execute()).released).to.equal(0);
    const jobs = p.takeJobs();
    expect(jobs).to.deep.equal([{ queue: QUEUES.notificationSend, data: { messageId: log['id'] }, startAfterSeconds: 0 }]);
    await p.deliver.execute(String(log['id']));
    expect((await p.stored(String(log['id']))).status).to.equal('SENT');
    expect(p.providers.sms.received).to.have.length(1);
    expect(await p.entries('DEBIT')).to.have.length(1);
  });

  it('releases in batches until fewer than a batch are due, earliest first', async () => {
    const bodies = Array.from({ length: 7 }, (_, i) => ({ channel: 'SMS', to: ghPhone(i), body: `m${i}`, sendAt: inMs(10_000 + i * 1_000) }));
    await p.bulk.execute(p.live, { async: true, messages: bodies });
    p.core.clock.advance(14_000); // 5 due
    expect((await scheduler({ batchSize: 2 }).execute()).released).to.equal(5);
    const statuses = (await p.messages()).map((m) => m.status);
    expect(statuses).to.deep.equal(['QUEUED', 'QUEUED', 'QUEUED', 'QUEUED', 'QUEUED', 'SCHEDULED', 'SCHEDULED']);
  });

  it('treats a sendAt in the past or within the next second as now, and accepts exactly 35 days ahead but not a millisecond more', async () => {
    const past = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'a', sendAt: inMs(-60_000) });
    expect(past.log).to.include({ status: 'SENT', scheduledAt: null });
    const soon = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(2), body: 'b', sendAt: inMs(1_000), async: true });
    expect(soon.log).to.include({ status: 'QUEUED', scheduledAt: null });
    const edge = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(3), body: 'c', sendAt: inMs(SCHEDULE_HORIZON_MS) });
    expect(edge.log).to.include({ status: 'SCHEDULED' });
    const over = await caught(() => p.send.execute(p.live, { channel: 'SMS', to: ghPhone(4), body: 'd', sendAt: inMs(SCHEDULE_HORIZON_MS + 1) }));
    expect(over).to.include({ code: 'VALIDATION_ERROR', message: 'sendAt: must be at most 35 days ahead' });
    expect(over.details['fieldErrors']).to.deep.equal({ sendAt: ['must be at most 35 days ahead'] });
    const malformed = await caught(() => p.send.execute(p.live, { channel: 'SMS', to: ghPhone(4), body: 'd', sendAt: 'tomorrow' }));
    expect(malformed.code).to.equal('VALIDATION_ERROR');
    expect(Object.keys(malformed.details['fieldErrors'] as object)).to.deep.equal(['sendAt']);
  });

  it('takes a bulk request\'s sendAt for every item unless an item names its own; an item too far ahead is named', async () => {
    const result = await p.bulk.execute(p.live, { sendAt: inMs(3_600_000), messages: [
      { channel: 'SMS', to: ghPhone(1), body: 'later' },
      { channel: 'SMS', to: ghPhone(2), body: 'now', sendAt: inMs(-1) },
      { channel: 'SMS', to: ghPhone(3), body: 'tomorrow', sendAt: inMs(86_400_000) },
    ] });
    expect(result.logs.map((l) => [l['status'], l['scheduledAt']])).to.deep.equal([
      ['SCHEDULED', inMs(3_600_000)], ['SENT', null], ['SCHEDULED', inMs(86_400_000)]]);
    expect(result.queued).to.equal(false); // one item was delivered inline: 201
    const allLater = await p.bulk.execute(p.live, { sendAt: inMs(3_600_000), messages: [{ channel: 'SMS', to: ghPhone(4), body: 'x' }] });
    expect(allLater.queued).to.equal(true);
    const over = await caught(() => p.bulk.execute(p.live, { messages: [
      { channel: 'SMS', to: ghPhone(5), body: 'ok' }, { channel: 'SMS', to: ghPhone(6), body: 'far', sendAt: inMs(SCHEDULE_HORIZON_MS + 1_000) }] }));
    expect(over).to.include({ code: 'VALIDATION_ERROR', message: 'messages[1].sendAt: must be at most 35 days ahead' });
    expect(over.details['index']).to.equal(1);
    const overTop = await caught(() => p.bulk.execute(p.live, { sendAt: inMs(SCHEDULE_HORIZON_MS + 1_000), messages: [{ channel: 'SMS', to: ghPhone(5), body: 'ok' }] }));
    expect(overTop.message).to.equal('sendAt: must be at most 35 days ahead');
  });

  it('makes sendAt part of the idempotent request: the same key with another sendAt is IDEMPOTENCY_KEY_REUSED, the same replays', async () => {
    const body = { channel: 'SMS', to: ghPhone(1), body: 'once', sendAt: inMs(3_600_000), idempotencyKey: 'k-1' };
    const first = await p.send.execute(p.live, body);
    const again = await p.send.execute(p.live, body);
    expect(again).to.include({ replayed: true, queued: true });
    expect(again.log['id']).to.equal(first.log['id']);
    expect((await caught(() => p.send.execute(p.live, { ...body, sendAt: inMs(7_200_000) }))).code).to.equal('IDEMPOTENCY_KEY_REUSED');
  });

  it('cancels a SCHEDULED message: CANCELLED, refunded once (a REFUND entry referencing it), never released; a second cancel is CONFLICT', async () => {
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hi', sendAt: inMs(60_000) });
    const id = String(log['id']);
    const cancelled = await cancel().execute(p.organizationId, id);
    expect(cancelled).to.include({ status: 'CANCELLED', cost: 0 });
    expect(await p.balance()).to.equal(10_000);
    expect((await p.entries('REFUND')).map((e) => [e.amount, e.reference])).to.deep.equal([[3, id]]);
    const again = await caught(() => cancel().execute(p.organizationId, id));
    expect(again).to.include({ code: 'CONFLICT' });
    expect(again.details).to.deep.equal({ status: 'CANCELLED' });
    p.core.clock.advance(120_000);
    expect((await scheduler().execute()).released).to.equal(0);
    expect(p.takeJobs()).to.deep.equal([]);
    expect(await p.entries('REFUND')).to.have.length(1);
    expect((await p.core.storage.messageStatus.listEvents(id)).map((e) => [e.status, e.source])).to.deep.equal([['CANCELLED', 'api']]);
  });

  it('refuses to cancel a released or sent message (CONFLICT with its status) and another organization\'s (NOT_FOUND)', async () => {
    const { log } = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(1), body: 'hi', sendAt: inMs(60_000) });
    p.core.clock.advance(60_000);
    await scheduler().execute();
    expect((await caught(() => cancel().execute(p.organizationId, String(log['id']))))).to.deep.include({ code: 'CONFLICT', details: { status: 'QUEUED' } });
    const theirs = await p.send.execute(p.live, { channel: 'SMS', to: ghPhone(2), body: 'x', sendAt: inMs(60_000) });
    expect((await caught(() => cancel().execute('another-organization', String(theirs.log['id'])))).code).to.equal('NOT_FOUND');
    expect((await p.stored(String(theirs.log['id']))).status).to.equal('SCHEDULED');
    expect((await caught(() => cancel().execute(p.organizationId, 'x'.repeat(65)))).code).to.equal('NOT_FOUND');
  });

  it('cancels a sandbox message without a refund (it was never charged)', async () => {
    const { log } = await p.send.execute(p.sandbox, { channel: 'SMS', to: ghPhone(1), body: 'hi', sendAt: inMs(60_000) });
    expect(await cancel().execute(p.organizationId, String(log['id']))).to.include({ status: 'CANCELLED' });
    expect(await p.entries('REFUND')).to.deep.equal([]);
  });

  it('rejects at release what the screen refuses: REJECTED with its code, refunded once, no job; the others are released', async () => {
    const result = await p.bulk.execute(p.live, { sendAt: inMs(60_000), messages: [
      { channel: 'SMS', to: ghPhone(1), body: 'promo' }, { channel: 'SMS', to: ghPhone(2), body: 'promo' }] });
    const [kept, refused] = result.logs.map((l) => String(l['id']));
    const screened: string[][] = [];
    const screen: ReleaseScreen = async (_tx, messages) => {
      screened.push(messages.map((m) => m.id));
      return messages.filter((m) => m.recipient === ghPhone(2)).map((m) => ({ messageId: m.id, code: 'OPTED_OUT', message: 'The recipient opted out of MARKETING' }));
    };
    p.core.clock.advance(60_000);
    expect(await scheduler({ screen }).execute()).to.deep.equal({ released: 1, rejected: 1, campaignsStarted: 0 });
    expect(screened.map((ids) => [...ids].sort())).to.deep.equal([[kept, refused].sort()]);
    expect(await p.stored(refused!)).to.include({ status: 'REJECTED', errorCode: 'OPTED_OUT', errorMessage: 'The recipient opted out of MARKETING', cost: 0 });
    expect((await p.stored(kept!)).status).to.equal('QUEUED');
    expect(p.takeJobs().map((j) => j.data['messageId'])).to.deep.equal([kept]);
    expect((await p.entries('REFUND')).map((e) => [e.amount, e.reference])).to.deep.equal([[3, refused]]);
    expect(await p.balance()).to.equal(10_000 - 3);
    expect(await scheduler({ screen }).execute()).to.deep.equal({ released: 0, rejected: 0, campaignsStarted: 0 });
    expect(await p.entries('REFUND')).to.have.length(1);
  });

  it('schedules an event trigger\'s first message with sendAt', async () => {
    const { TriggerEvent } = await import('../../../core/use-cases/events/trigger-event.ts');
    const template = await p.template({ channel: 'SMS', body: 'Your code is ready', variables: [], category: 'TRANSACTIONAL' });
    const now = p.core.clock.now();
    await p.core.storage.notificationEvents.insert({
      id: p.core.ids.next(), organizationId: p.organizationId, name: 'Ready', slug: 'order.ready', description: null, channelPriority: ['SMS'],
      templateId: template.id, retryRules: { attempts: 1, backoffSeconds: 0, backoffMultiplier: 1 }, fallbackRules: { channels: [] }, isActive: true, createdAt: now, updatedAt: now,
    } as never);
    const trigger = new TriggerEvent({ storage: p.core.storage, pricing: p.core.storage.pricing, clock: p.core.clock, ids: p.core.ids, secrets: p.core.secrets,
      fraud: { recipientPerHour: 20, newTenantDays: 0, newTenantPerHour: 1_000 } as never, deliverNow: (id) => p.deliver.execute(id) });
    const { trigger: view } = await trigger.execute(p.live, { event: 'order.ready', to: ghPhone(1), sendAt: inMs(600_000) });
    expect(view.deliveryLogs.map((l) => [l['status'], l['scheduledAt']])).to.deep.equal([['SCHEDULED', inMs(600_000)]]);
    expect(p.providers.sms.received).to.have.length(0);
    const over = await caught(() => trigger.execute(p.live, { event: 'order.ready', to: ghPhone(1), sendAt: inMs(SCHEDULE_HORIZON_MS + 1) }));
    expect(over).to.include({ code: 'VALIDATION_ERROR', message: 'sendAt: must be at most 35 days ahead' });
  });
});
