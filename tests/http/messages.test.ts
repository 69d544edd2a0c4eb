import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { SandboxProvider } from '../../adapters/providers/sandbox-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { CHANNELS } from '../../core/domain/channel.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const phone = (n: number) => `+23324${String(2_000_000 + n).padStart(7, '0')}`;

describe('HTTP: POST /messages/send, POST /messages/bulk, GET /messages/:id', () => {
  let app: TestApp;
  let owner: TestTenant;
  let liveKey: string;
  let sandboxKey: string;
  const sms = new RecordingProvider('SMS', 'recording-sms');
  const email = new RecordingProvider('EMAIL', 'recording-email');

  async function topUp(tenant: TestTenant, pesewas: number): Promise<void> {
    // Billing endpoints do not exist yet: credit the wallet through storage, as a verified payment would.
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId,
      () => ({ amount: pesewas, kind: 'TOP_UP', reference: `test-${randomUUID()}`, description: 'test top-up' }), new Date());
  }
  async function balance(tenant: TestTenant): Promise<number> {
    return (await app.container.get(INFRA.storage).wallets.get(tenant.organizationId))!.balance;
  }
  async function createKey(tenant: TestTenant, isSandbox: boolean): Promise<string> {
    const res = await app.api.post('/api-keys', { name: isSandbox ? 'Sandbox' : 'Live', isSandbox }, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data.key as string;
  }

  before(async () => {
    app = await startTestApp({
      providers: new StaticProviderDirectory([sms, email], CHANNELS.map((c) => new SandboxProvider(c, 50))),
    });
    owner = await registerTenant(app.api, 'messages');
    await topUp(owner, 10_000);
    liveKey = await createKey(owner, false);
    sandboxKey = await createKey(owner, true);
  });
  after(async () => { await app.close(); });

  describe('sending', () => {
    it('answers 201 with the resulting status for a sync send with a live key, and debits the price once', async () => {
      const before = await balance(owner);
      const res = await app.api.post('/messages/send', { channel: 'SMS', to: '024 200 0001', body: 'Your parcel is on its way' }, { apiKey: liveKey });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.success).to.equal(true);
      expect(res.body.data).to.include({ status: 'SENT', channel: 'SMS', recipient: phone(1), cost: 0.03, segments: 1, isSandbox: false, provider: 'recording-sms' });
      expect(res.body.data.internalMessageId).to.match(/^msg_[0-9a-f]{32}$/);
      expect(sms.received.filter((m) => m.messageId === res.body.data.id).map((m) => m.body)).to.deep.equal(['Your parcel is on its way']);
      expect(await balance(owner)).to.equal(before - 3);
      const debits = (await app.container.get(INFRA.storage).wallets.listEntries(owner.organizationId, 50)).filter((e) => e.kind === 'DEBIT');
      expect(debits.filter((e) => e.description.includes(res.body.data.internalMessageId)).map((e) => e.amount)).to.deep.equal([-3]);
    });

    it('answers 202 QUEUED for async: true, without reaching the provider', async () => {
      const res = await app.api.post('/messages/send', { channel: 'SMS', to: phone(2), body: 'later', async: true }, { apiKey: liveKey });
      expect(res.status, res.text).to.equal(202);
      expect(res.body.data).to.include({ status: 'QUEUED', cost: 0.03, attempts: 0 });
      expect(sms.received.some((m) => m.messageId === res.body.data.id)).to.equal(false);
      const stored = await app.container.get(INFRA.storage).messages.findById(owner.organizationId, res.body.data.id);
      expect(stored).to.include({ status: 'QUEUED', cost: 3 });
    });

    it('sends with a dashboard session (JWT) as a live send', async () => {
      const res = await app.api.post('/messages/send', { channel: 'EMAIL', to: 'ama@example.com', subject: 'Receipt', body: '<p>Thanks</p>' }, owner.auth);
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.include({ status: 'SENT', isSandbox: false, cost: 0.01, recipient: 'ama@example.com' });
      expect(email.received.find((m) => m.messageId === res.body.data.id)).to.include({ subject: 'Receipt', to: 'ama@example.com' });
    });

    it('accepts bulk EMAIL items without a subject: the item\'s subject, else the template\'s, else the body\'s first line', async () => {
      const long = 'Your statement for November is ready: three payments, two refunds and one standing order were recorded';
      const res = await app.api.post('/messages/bulk', { messages: [
        { channel: 'EMAIL', to: 'one@example.com', body: '<p>Your <b>order</b> shipped</p>\n<p>Track it online</p>' },
        { channel: 'EMAIL', to: 'two@example.com', body: long },
        { channel: 'EMAIL', to: 'three@example.com', body: 'Hello', subject: 'Chosen subject' },
      ] }, { apiKey: liveKey });
      expect(res.status, res.text).to.equal(201);
      const subjects = res.body.data.map((log: { id: string }) => email.received.find((m) => m.messageId === log.id)?.subject);
      expect(subjects[0]).to.equal('Your order shipped');
      expect(subjects[1]).to.match(/^Your statement for November is ready: three payments, two refunds and one…$/).and.have.length.at.most(78);
      expect(subjects[2]).to.equal('Chosen subject');
    });

    it('runs a sandbox key through the sandbox only, never charged; magic recipients simulate outcomes', async () => {
      const before = await balance(owner);
      const received = sms.received.length;
      const delivered = await app.api.post('/messages/send', { channel: 'SMS', to: phone(3), body: 'test' }, { apiKey: sandboxKey });
      const failed = await app.api.post('/messages/send', { channel: 'SMS', to: '+233209990001', body: 'test' }, { apiKey: sandboxKey });
      const sent = await app.api.post('/messages/send', { channel: 'EMAIL', to: 'sent@example.com', subject: 's', body: 'test' }, { apiKey: sandboxKey });
      const pending = await app.api.post('/messages/send', { channel: 'SMS', to: '+233209990002', body: 'test' }, { apiKey: sandboxKey });
      expect(delivered.body.data).to.include({ status: 'DELIVERED', cost: 0, isSandbox: true, provider: 'sandbox' });
      expect(failed.body.data).to.include({ status: 'FAILED', errorCode: 'SANDBOX_REJECTED', cost: 0 });
      expect(sent.body.data).to.include({ status: 'SENT', cost: 0 });
      expect(pending.body.data).to.include({ status: 'PENDING', errorCode: 'SANDBOX_UNAVAILABLE', attempts: 1, cost: 0 });
      expect(sms.received.length).to.equal(received);
      expect(await balance(owner)).to.equal(before);
    });

    it('answers 201 for a bulk send with one delivery log per item, 202 when async', async () => {
      const messages = [{ channel: 'SMS', to: phone(10), body: 'a' }, { channel: 'SMS', to: phone(11), body: 'b' }];
      const sync = await app.api.post('/messages/bulk', { messages }, { apiKey: liveKey });
      expect(sync.status, sync.text).to.equal(201);
      expect(sync.body.data.map((l: { status: string; recipient: string }) => [l.status, l.recipient])).to.deep.equal([['SENT', phone(10)], ['SENT', phone(11)]]);
      const queued = await app.api.post('/messages/bulk', { async: true, messages: [{ channel: 'SMS', to: phone(12), body: 'c' }] }, owner.auth);
      expect(queued.status, queued.text).to.equal(202);
      expect(queued.body.data[0]).to.include({ status: 'QUEUED', recipient: phone(12), cost: 0.03 });
      expect(queued.body.data[0]).to.have.all.keys('id', 'internalMessageId', 'status', 'channel', 'recipient', 'cost', 'segments', 'encoding',
        'isSandbox', 'templateId', 'category', 'scheduledAt', 'provider', 'attempts', 'createdAt', 'updatedAt', 'sentAt', 'deliveredAt', 'failedAt',
        'deliveredVia', 'localOnly', 'network');
    });
  });

  describe('lookup', () => {
    it('GET /messages/:id answers the delivery log with an API key and with a JWT', async () => {
      const sent = await app.api.post('/messages/send', { channel: 'SMS', to: phone(20), body: 'look me up' }, { apiKey: liveKey });
      const byKey = await app.api.get(`/messages/${sent.body.data.id}`, { apiKey: sandboxKey });
      expect(byKey.status, byKey.text).to.equal(200);
      expect(byKey.body.data).to.include({ id: sent.body.data.id, status: 'SENT', body: 'look me up', cost: 0.03 });
      const byJwt = await app.api.get(`/messages/${sent.body.data.id}`, owner.auth);
      expect(byJwt.status).to.equal(200);
      expect(byJwt.body.data).to.deep.equal(byKey.body.data);
    });

    it('answers 404 NOT_FOUND for another organization\'s message and for an unknown id', async () => {
      const sent = await app.api.post('/messages/send', { channel: 'SMS', to: phone(21), body: 'private' }, { apiKey: liveKey });
      const other = await registerTenant(app.api, 'messages-other');
      const otherKey = await createKey(other, true);
      for (const auth of [other.auth, { apiKey: otherKey }]) {
        const res = await app.api.get(`/messages/${sent.body.data.id}`, auth);
        expect(res.status).to.equal(404);
        expect(res.body.error.code).to.equal('NOT_FOUND');
      }
      expect((await app.api.get(`/messages/${randomUUID()}`, owner.auth)).status).to.equal(404);
      expect((await app.api.get(`/messages/${'x'.repeat(65)}`, owner.auth)).status).to.equal(404);
    });

    it('answers 401 without credentials', async () => {
      const res = await app.api.post('/messages/send', { channel: 'SMS', to: phone(22), body: 'x' });
      expect(res.status).to.equal(401);
    });
  });
});
