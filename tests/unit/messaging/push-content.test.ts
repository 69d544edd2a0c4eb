import { expect } from 'chai';
import { RecordingProvider } from '../../../adapters/memory/recording-provider.ts';
import { GetMessage } from '../../../core/use-cases/messaging/get-message.ts';
import { buildPipeline, caught, ghPhone } from './messaging-fixtures.ts';
import type { Campaign } from '../../../core/domain/campaign.ts';
import { prepareForContact } from '../../../core/use-cases/campaigns/campaign-support.ts';
import { prepareStep } from '../../../core/use-cases/events/trigger-plan.ts';
import { aTemplateRecord } from '../../support/template-record.ts';
import { DEFAULT_PRICING_RULES } from '../../../core/domain/pricing.ts';

const FCM_TOKEN = `fcm-instance-id:APA91b${'x7Yq'.repeat(36)}`;

async function pushPipeline() {
  const push = new RecordingProvider('PUSH', 'fcm-push');
  return { push, p: await buildPipeline({ livePush: [push] }) };
}

describe('Push content: title, image, deep link and data reach the provider (issue 29)', () => {
  it('sends the subject as the title with image, link and data, and shows them in the answer and GET /messages/{id}', async () => {
    const { push, p } = await pushPipeline();
    const { log } = await p.send.execute(p.live, {
      channel: 'PUSH', to: FCM_TOKEN, subject: 'Payment received', body: 'GHS 50.00 from Ama',
      imageUrl: 'https://cdn.example.com/receipt.png', link: 'kentefoods://orders/42', data: { orderId: '42', kind: 'payment' },
    });
    expect(log).to.include({ status: 'SENT', subject: 'Payment received' });
    const [sent] = push.received;
    expect(sent?.subject).to.equal('Payment received');
    expect(sent?.push).to.deep.equal({ imageUrl: 'https://cdn.example.com/receipt.png', link: 'kentefoods://orders/42', data: { orderId: '42', kind: 'payment' } });
    const detail = await new GetMessage({ storage: p.core.storage }).execute(p.organizationId, String(log['id']));
    expect(detail).to.include({ subject: 'Payment received', imageUrl: 'https://cdn.example.com/receipt.png', link: 'kentefoods://orders/42' });
    expect(detail['data']).to.deep.equal({ orderId: '42', kind: 'payment' });
  });

  it('takes the title from a PUSH template subject, with its variables', async () => {
    const { push, p } = await pushPipeline();
    const template = await p.template({ channel: 'PUSH', subject: 'Hello {{name}}', body: 'Your order {{order}} shipped', status: 'APPROVED' });
    await p.send.execute(p.live, { channel: 'PUSH', to: FCM_TOKEN, templateId: template.id, variables: { name: 'Ama', order: '42' } });
    expect(push.received[0]).to.include({ subject: 'Hello Ama', body: 'Your order 42 shipped' });
  });

  it('refuses a notification over the vendors\' 4 KiB payload with a VALIDATION_ERROR naming data', async () => {
    const { push, p } = await pushPipeline();
    const error = await caught(() => p.send.execute(p.live, { channel: 'PUSH', to: FCM_TOKEN, body: 'hi', data: { blob: 'x'.repeat(4_100) } }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['fieldErrors']).to.have.property('data');
    expect(error.message).to.contain('4096');
    expect(push.received).to.have.length(0);
  });

  it('refuses non-string data values, FCM-reserved keys and a non-https image, naming the field', async () => {
    const { p } = await pushPipeline();
    for (const [extra, field] of [
      [{ data: { count: 3 } }, 'data'], [{ data: { 'google.c.a': 'x' } }, 'data'], [{ data: { from: 'x' } }, 'data'],
      [{ imageUrl: 'http://cdn.example.com/a.png' }, 'imageUrl'], [{ link: 'not a link' }, 'link'],
    ] as const) {
      const error = await caught(() => p.send.execute(p.live, { channel: 'PUSH', to: FCM_TOKEN, body: 'hi', ...extra }));
      expect(error.code, JSON.stringify(extra)).to.equal('VALIDATION_ERROR');
      expect(error.details['fieldErrors'], JSON.stringify(extra)).to.have.property(field);
    }
  });

  it('refuses push fields on another channel instead of dropping them', async () => {
    const { p } = await pushPipeline();
    const error = await caught(() => p.send.execute(p.live, { channel: 'SMS', to: ghPhone(), body: 'hi', data: { a: 'b' } }));
    expect(error.code).to.equal('VALIDATION_ERROR');
    expect(error.details['fieldErrors']).to.have.property('data');
  });

  it('carries push fields of a bulk item', async () => {
    const { push, p } = await pushPipeline();
    await p.bulk.execute(p.live, { messages: [{ channel: 'PUSH', to: FCM_TOKEN, subject: 'Sale', body: '50% off', data: { sku: 'A1' } }] });
    while (p.takeJobs().length > 0) { /* drained below */ }
    const [message] = await p.messages();
    await p.deliver.execute(message!.id);
    expect(push.received[0]).to.deep.include({ subject: 'Sale', push: { imageUrl: null, link: null, data: { sku: 'A1' } } });
  });
});

describe('Push titles on the event and campaign paths (issue 29)', () => {
  const now = new Date('2026-11-28T05:00:00.000Z');
  const rules = DEFAULT_PRICING_RULES;

  it('an event sent by push takes the template subject as title, or the event name without one', () => {
    const trigger = { plan: [{ channel: 'PUSH' as const, recipient: FCM_TOKEN }], templateId: 't1', variables: { name: 'Ama' }, countryCode: 'GH', fallbackSubject: 'Order shipped' };
    const withSubject = aTemplateRecord('t1', 'org', now, { channel: 'PUSH', subject: 'Hello {{name}}', body: 'Your order shipped', variables: ['name'] });
    expect(prepareStep(trigger, withSubject, 0, rules).subject).to.equal('Hello Ama');
    expect(prepareStep(trigger, { ...withSubject, subject: null }, 0, rules).subject).to.equal('Order shipped');
  });

  it('a PUSH campaign takes its template subject as title', () => {
    const template = aTemplateRecord('t1', 'org', now, { channel: 'PUSH', subject: 'Sale for {{firstName}}', body: '50% off today', variables: ['firstName'] });
    const campaign = { channel: 'PUSH', templateId: 't1' } as Campaign;
    const contact = { id: 'c1', organizationId: 'org', firstName: 'Kofi', lastName: null, phone: null, email: null, countryCode: 'GH', tags: [], fcmToken: FCM_TOKEN, attributes: {}, optedOutAt: null, createdAt: now, updatedAt: now };
    const prepared = prepareForContact(campaign, template, contact, rules);
    expect(prepared.ok && prepared.prepared.subject).to.equal('Sale for Kofi');
  });
});
