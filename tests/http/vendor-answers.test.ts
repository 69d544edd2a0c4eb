import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import twilioSdk from 'twilio';
import { INFRA } from '../../hosts/tokens.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { startFakeHubtel, type FakeHubtel } from '../support/fake-vendors/hubtel.ts';
import { signTwilioRequest, startFakeTwilio, type FakeTwilio } from '../support/fake-vendors/twilio.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/**
 * What vendors answer and expect, end to end (issue 29): a Twilio account whose credentials were revoked
 * (Twilio's documented 401 `{ "code": 20003, "message": "Authenticate", ... }`) fails over to the next
 * provider instead of failing the message; Twilio's webhooks get TwiML back, never JSON.
 */
describe('HTTP: vendor answers (account-level failover, TwiML to Twilio)', function () {
  this.timeout(30_000);
  let twilio: FakeTwilio;
  let hubtel: FakeHubtel;
  let app: TestApp;
  let tenant: TestTenant;
  let apiKey: string;
  const suffix = randomUUID().slice(0, 6);
  const names = { twilio: `twilio-revoked-${suffix}`, hubtel: `hubtel-second-${suffix}` };
  const twilioNumber = '+15005550006';

  async function configure(active: boolean) {
    const repo = app.container.get(MESSAGING.providerRepository);
    const now = new Date();
    // The account SID is Twilio's, the auth token is not what the fake accepts: Twilio answers 401 code 20003.
    await repo.upsert({ name: names.twilio, vendor: 'twilio-sms', channel: 'SMS', priority: 1, active, countries: ['GH'], settings: { from: twilioNumber, baseUrl: twilio.url } },
      { accountSid: twilio.accountSid, authToken: 'revoked-auth-token' }, now);
    await repo.upsert({ name: names.hubtel, vendor: 'hubtel-sms', channel: 'SMS', priority: 2, active, countries: ['GH'], settings: { from: 'NKRA', baseUrl: hubtel.url } },
      { clientId: 'hubtel-client', clientSecret: 'hubtel-secret' }, now);
    await app.container.get(MESSAGING.runtime).reload();
  }

  before(async () => {
    twilio = await startFakeTwilio();
    hubtel = await startFakeHubtel();
    app = await startTestApp();
    await configure(true);
    tenant = await registerTenant(app.api, 'vendor-answers');
    apiKey = (await app.api.post('/api-keys', { name: 'live', isSandbox: false }, tenant.auth)).body.data.key;
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${suffix}`, description: 'test credit' }), new Date());
  });

  after(async () => {
    await configure(false);
    await app.close();
    await twilio.close();
    await hubtel.close();
  });

  it('delivers through the second provider when Twilio answers 401 code 20003, and the first provider\'s circuit records the failure', async () => {
    const wallet = async () => (await app.container.get(INFRA.storage).wallets.get(tenant.organizationId))!.balance;
    const before = { balance: await wallet(), twilio: twilio.received.length, hubtel: hubtel.received.length };

    const res = await app.api.post('/messages/send', { channel: 'SMS', to: '0241234567', body: 'Your order is ready' }, { apiKey });

    expect(res.status, res.text).to.equal(201);
    expect(res.body.data).to.include({ status: 'SENT', provider: names.hubtel, attempts: 1 });
    expect(twilio.received.length - before.twilio).to.equal(1);
    expect(hubtel.received.length - before.hubtel).to.equal(1);
    const detail = await app.api.get(`/messages/${res.body.data.id}`, { apiKey });
    expect(detail.body.data.attemptLog.map((a: { provider: string; outcome: string; errorCode: string | null }) => [a.provider, a.outcome, a.errorCode]))
      .to.deep.equal([[names.twilio, 'FAILED', 'AUTH_FAILED'], [names.hubtel, 'ACCEPTED', null]]);
    // Charged once, not refunded: the message was delivered.
    expect(await wallet()).to.be.below(before.balance);
    const entry = app.container.get(MESSAGING.runtime).directory.entries().find((e) => e.config.name === names.twilio)!;
    expect(entry.provider.consecutiveFailures).to.equal(1);
  });

  // Twilio's messaging webhooks read the answer as TwiML (twilio.com/docs/messaging/twiml): an empty
  // <Response/> with Content-Type text/xml sends no reply; JSON makes Twilio log error 12300 (invalid Content-Type).
  it('answers a signed Twilio incoming-message webhook with empty TwiML as text/xml, byte for byte what the twilio SDK writes', async () => {
    const sid = `SM${randomUUID().replaceAll('-', '')}`;
    const params = new URLSearchParams({ MessageSid: sid, SmsSid: sid, SmsMessageSid: sid, AccountSid: twilio.accountSid, From: '+233241234599', To: twilioNumber,
      Body: 'Hello', NumMedia: '0', SmsStatus: 'received', ApiVersion: '2010-04-01' });
    const signature = signTwilioRequest('revoked-auth-token', 'http://localhost:3000/providers/callbacks/twilio-sms', params);
    const res = await fetch(`${app.url}/providers/callbacks/twilio-sms`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature }, body: params.toString(),
    });

    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/xml/);
    expect(await res.text()).to.equal(new twilioSdk.twiml.MessagingResponse().toString());
  });
});
