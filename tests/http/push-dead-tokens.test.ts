import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Expo, type ExpoPushErrorReceipt, type ExpoPushSuccessReceipt } from 'expo-server-sdk';
import { chunkReceiptIds } from '../../adapters/providers/expo-receipts.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { createLogger } from '../../hosts/logger.ts';
import { deliveryStatusPollHandler } from '../../hosts/worker/delivery-status-poll-handler.ts';
import { startFakeExpo, type FakeExpo } from '../support/fake-vendors/expo.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/**
 * Expo receipts (issue 29, "Dead tokens"): a ticket is only "accepted"; the receipt, fetched later
 * with getReceipts, says whether Apple or Google took the notification. A DeviceNotRegistered receipt
 * must fail the message and remove the token from the contact that holds it (only that token, only
 * that organization), with a contact.push_token_removed event. Receipts are written with the official
 * SDK's types (expo-server-sdk ExpoPushErrorReceipt / ExpoPushSuccessReceipt).
 */
describe('HTTP: Expo push receipts and dead push tokens', () => {
  let expo: FakeExpo;
  let app: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let apiKey: string;
  const name = `expo-e2e-${randomUUID().slice(0, 6)}`;

  async function configure(active: boolean) {
    await app.container.get(MESSAGING.providerRepository).upsert({ name, vendor: 'expo-push', channel: 'PUSH', priority: 1, active, countries: ['*'], settings: { baseUrl: expo.url } }, {}, new Date());
    await app.container.get(MESSAGING.runtime).reload();
  }
  const poll = () => deliveryStatusPollHandler(app.container.get(MESSAGING.runtime), app.container.get(INFRA.storage), app.container.get(MESSAGING.applyDeliveryReport), createLogger('silent')).handle({});

  before(async () => {
    expo = await startFakeExpo();
    app = await startTestApp();
    await configure(true);
    tenant = await registerTenant(app.api, 'receipts');
    other = await registerTenant(app.api, 'receipts-other');
    apiKey = (await app.api.post('/api-keys', { name: 'live', isSandbox: false }, tenant.auth)).body.data.key;
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${name}`, description: 'test credit' }), new Date());
  });

  after(async () => {
    await configure(false);
    await app.close();
    await expo.close();
  });

  it('applies a DeviceNotRegistered receipt: message FAILED with the reason, token removed from the contact only, event recorded', async () => {
    const receiver = await startWebhookReceiver();
    const hook = await app.api.post('/webhook-endpoints', { url: receiver.url, events: ['contact.push_token_removed'] }, tenant.auth);
    expect(hook.status, hook.text).to.equal(201);
    await receiver.close();
    const token = `ExponentPushToken[${randomUUID().replaceAll('-', '')}]`;
    const contact = (await app.api.post('/contacts', { firstName: 'Ama', fcmToken: token }, tenant.auth)).body.data;
    const stranger = (await app.api.post('/contacts', { firstName: 'Kofi', fcmToken: token }, other.auth)).body.data; // another organization, same token
    const sent = await app.api.post('/messages/send', { channel: 'PUSH', to: token, subject: 'Order shipped', body: 'Order 42 is on its way' }, { apiKey });
    expect(sent.status).to.equal(201);
    expect(sent.body.data).to.include({ status: 'SENT', provider: name, subject: 'Order shipped' });
    const ticket = expo.tickets.at(-1)!;
    // Expo's documented error receipt, typed by the SDK.
    const receipt: ExpoPushErrorReceipt = {
      status: 'error', message: `"${token}" is not a registered push notification recipient`, details: { error: 'DeviceNotRegistered', expoPushToken: token },
    };
    expo.receipts.set(ticket.id, receipt);
    await poll();

    const detail = (await app.api.get(`/messages/${sent.body.data.id}`, { apiKey })).body.data;
    expect(detail).to.include({ status: 'FAILED', errorCode: 'UNREGISTERED', cost: 0 });
    expect(detail.errorMessage).to.contain('DeviceNotRegistered');
    const after = (await app.api.get(`/contacts/${contact.id}`, tenant.auth)).body.data;
    expect(after.fcmToken).to.equal(null);
    expect(after.pushTokenRemovedAt).to.be.a('string');
    expect(after.pushTokenRemovedReason).to.contain('UNREGISTERED').and.contain('DeviceNotRegistered');
    expect((await app.api.get(`/contacts/${stranger.id}`, other.auth)).body.data.fcmToken).to.equal(token);
    const events = await app.container.get(INFRA.storage).outboundEvents.listRecent(tenant.organizationId, 10);
    const removed = events.find((e) => e.kind === 'contact.push_token_removed');
    expect(removed?.data).to.include({ contactId: contact.id, token, reason: 'UNREGISTERED', messageId: sent.body.data.id });
  });

  it('marks an ok receipt DELIVERED and leaves a message without a receipt yet SENT', async () => {
    const token = `ExponentPushToken[${randomUUID().replaceAll('-', '')}]`;
    const first = await app.api.post('/messages/send', { channel: 'PUSH', to: token, body: 'one' }, { apiKey });
    const ok: ExpoPushSuccessReceipt = { status: 'ok' };
    expo.receipts.set(expo.tickets.at(-1)!.id, ok);
    const second = await app.api.post('/messages/send', { channel: 'PUSH', to: token, body: 'two' }, { apiKey });
    await poll();
    expect((await app.api.get(`/messages/${first.body.data.id}`, { apiKey })).body.data.status).to.equal('DELIVERED');
    expect((await app.api.get(`/messages/${second.body.data.id}`, { apiKey })).body.data.status).to.equal('SENT');
  });

  it('asks for receipts in the SDK\'s chunks (chunkPushNotificationReceiptIds), each request within Expo\'s 1,000-id limit', () => {
    const ids = Array.from({ length: 1_234 }, () => randomUUID());
    expect(chunkReceiptIds(ids)).to.deep.equal(new Expo().chunkPushNotificationReceiptIds(ids));
    expect(Math.max(...chunkReceiptIds(ids).map((c) => c.length))).to.be.at.most(1_000);
    for (const request of expo.receiptRequests) expect(request.length).to.be.at.most(1_000);
  });
});
