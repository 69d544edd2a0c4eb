import { expect } from 'chai';
import type { Message } from '../../../core/domain/message.ts';
import { ApplyDeliveryReport } from '../../../core/use-cases/messaging/apply-delivery-report.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

async function seed(core: TestCore, status: Message['status'], cost = 6): Promise<Message> {
  const now = core.clock.now();
  const organizationId = core.ids.next();
  await core.storage.organizations.insert({ id: organizationId, name: 'Org', industry: null, businessPhone: null, businessEmail: null, timezone: 'Africa/Accra',
    defaultLanguage: 'en', website: null, onboardingComplete: false, complianceAcknowledged: false, monthlyVolume: null, preferredChannels: [], paused: false, defaultSenderId: null, quietHours: null, createdAt: now, updatedAt: now });
  await core.storage.wallets.create(organizationId, now);
  await core.storage.wallets.update(organizationId, () => ({ amount: 100, kind: 'TOP_UP', reference: 'seed', description: 'seed' }), now);
  await core.storage.wallets.update(organizationId, () => ({ amount: -cost, kind: 'DEBIT', reference: 'batch-1', description: 'send' }), now);
  const message: Message = {
    id: core.ids.next(), organizationId, internalMessageId: 'msg_1', channel: 'SMS', recipient: '+233241234567', country: 'GH', subject: null, body: 'hi',
    templateId: null, category: 'TRANSACTIONAL', scheduledAt: null, status, errorCode: null, errorMessage: null, cost, price: cost, segments: 2, encoding: 'GSM-7', isSandbox: false, apiKeyId: null,
    userId: null, senderId: null, provider: 'arkesel-gh', providerMessageId: 'vendor-1', attempts: 1, leaseUntil: null, createdAt: now, updatedAt: now,
    sentAt: now, deliveredAt: null, failedAt: null,
  };
  await core.storage.messages.insertMany([message]);
  return message;
}

describe('ApplyDeliveryReport', () => {
  const delivered = { providerMessageId: 'vendor-1', status: 'DELIVERED' as const, errorCode: null, vendorStatus: 'DELIVERED', occurredAt: null };
  const failed = { providerMessageId: 'vendor-1', status: 'FAILED' as const, errorCode: 'EXPIRED', vendorStatus: 'EXPIRED', occurredAt: null };
  const sent = { providerMessageId: 'vendor-1', status: 'SENT' as const, errorCode: null, vendorStatus: 'SUBMITTED', occurredAt: null };

  it('moves a SENT message to DELIVERED and records one status event', async () => {
    const core = buildCore();
    const message = await seed(core, 'SENT');
    const apply = new ApplyDeliveryReport(core);
    const updated = await apply.execute('arkesel-gh', delivered, 'callback:arkesel-sms');
    expect(updated?.status).to.equal('DELIVERED');
    const events = await core.storage.messageStatus.listEvents(message.id);
    expect(events.map((e) => [e.status, e.source])).to.deep.equal([['DELIVERED', 'callback:arkesel-sms']]);
  });

  it('matches among the providers sharing one vendor account, and only by their names', async () => {
    const core = buildCore();
    const message = await seed(core, 'SENT');
    const apply = new ApplyDeliveryReport(core);
    expect(await apply.execute(['org-1/arkesel-gh', 'other'], delivered, 'callback')).to.equal(null);
    expect((await apply.execute(['first-sender', 'arkesel-gh'], delivered, 'callback'))?.id).to.equal(message.id);
  });

  it('never moves backwards and treats duplicates as no-ops', async () => {
    const core = buildCore();
    const message = await seed(core, 'SENT');
    const apply = new ApplyDeliveryReport(core);
    await apply.execute('arkesel-gh', delivered, 'callback');
    expect(await apply.execute('arkesel-gh', delivered, 'callback')).to.equal(null);
    expect(await apply.execute('arkesel-gh', sent, 'callback')).to.equal(null);
    expect(await apply.execute('arkesel-gh', failed, 'callback')).to.equal(null);
    expect((await core.storage.messages.findById(message.organizationId, message.id))?.status).to.equal('DELIVERED');
    expect(await core.storage.messageStatus.listEvents(message.id)).to.have.length(1);
  });

  it('fails an undelivered message and refunds its cost exactly once', async () => {
    const core = buildCore();
    const message = await seed(core, 'SENT', 6);
    const apply = new ApplyDeliveryReport(core);
    await apply.execute('arkesel-gh', failed, 'poll:arkesel-gh');
    await apply.execute('arkesel-gh', failed, 'poll:arkesel-gh');
    const stored = await core.storage.messages.findById(message.organizationId, message.id);
    expect(stored).to.include({ status: 'FAILED', errorCode: 'EXPIRED', cost: 0 });
    expect((await core.storage.wallets.get(message.organizationId))?.balance).to.equal(100);
    const refunds = (await core.storage.wallets.listEntries(message.organizationId, 10)).filter((e) => e.kind === 'REFUND');
    expect(refunds.map((r) => [r.amount, r.reference])).to.deep.equal([[6, message.id]]);
  });

  it('handles an out-of-order DELIVERED before SENT (the late SENT changes nothing)', async () => {
    const core = buildCore();
    const message = await seed(core, 'PENDING');
    const apply = new ApplyDeliveryReport(core);
    await apply.execute('arkesel-gh', delivered, 'callback');
    await apply.execute('arkesel-gh', sent, 'callback');
    expect((await core.storage.messages.findById(message.organizationId, message.id))?.status).to.equal('DELIVERED');
  });

  it('ignores reports for unknown vendor ids or another provider', async () => {
    const core = buildCore();
    await seed(core, 'SENT');
    const apply = new ApplyDeliveryReport(core);
    expect(await apply.execute('arkesel-gh', { ...delivered, providerMessageId: 'nope' }, 'callback')).to.equal(null);
    expect(await apply.execute('hubtel-gh', delivered, 'callback')).to.equal(null);
  });
});
