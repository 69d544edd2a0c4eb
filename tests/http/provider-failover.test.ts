import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { createLogger } from '../../hosts/logger.ts';
import { deliveryStatusPollHandler } from '../../hosts/worker/delivery-status-poll-handler.ts';
import { startFakeArkesel, type FakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { startFakeHubtel, type FakeHubtel } from '../support/fake-vendors/hubtel.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/**
 * Live sends through real vendor adapters over HTTP to local fake vendors: country routing, failover
 * on retryable errors, no failover on permanent ones, callbacks and polling. Routed to Ghana with a
 * run-unique provider name; the providers are deactivated afterwards so later apps do not load them.
 */
describe('HTTP: live delivery through vendor adapters (routing, failover, delivery reports)', () => {
  let arkesel: FakeArkesel;
  let hubtel: FakeHubtel;
  let app: TestApp;
  let tenant: TestTenant;
  let apiKey: string;
  const suffix = randomUUID().slice(0, 6);
  const names = { arkesel: `arkesel-e2e-${suffix}`, hubtel: `hubtel-e2e-${suffix}` };

  async function configure(active: boolean) {
    const repo = app.container.get(MESSAGING.providerRepository);
    const now = new Date();
    await repo.upsert({ name: names.arkesel, vendor: 'arkesel-sms', channel: 'SMS', priority: 1, active, countries: ['GH'], settings: { senderId: 'NKRA', baseUrl: arkesel.url } }, { apiKey: arkesel.apiKey }, now);
    await repo.upsert({ name: names.hubtel, vendor: 'hubtel-sms', channel: 'SMS', priority: 2, active, countries: ['GH'], settings: { from: 'NKRA', baseUrl: hubtel.url } }, { clientId: 'hubtel-client', clientSecret: 'hubtel-secret' }, now);
    await app.container.get(MESSAGING.runtime).reload();
  }

  before(async () => {
    arkesel = await startFakeArkesel();
    hubtel = await startFakeHubtel();
    app = await startTestApp();
    await configure(true);
    tenant = await registerTenant(app.api, 'vendors');
    const key = await app.api.post('/api-keys', { name: 'live', isSandbox: false }, tenant.auth);
    apiKey = key.body.data.key;
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${suffix}`, description: 'test credit' }), new Date());
  });

  after(async () => {
    await configure(false);
    await app.close();
    await arkesel.close();
    await hubtel.close();
  });

  const send = (to: string) => app.api.post('/messages/send', { channel: 'SMS', to, body: 'Your order is ready' }, { apiKey });

  it('routes a Ghana SMS to the first provider by priority', async () => {
    const res = await send('0241234567');
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ status: 'SENT', provider: names.arkesel, attempts: 1 });
    expect(arkesel.received.at(-1)?.json).to.deep.include({ sender: 'NKRA', recipients: ['233241234567'] });
  });

  it('fails over to the next provider on a retryable vendor error, submitting once to each', async () => {
    const before = { arkesel: arkesel.received.length, hubtel: hubtel.received.length };
    arkesel.script({ kind: 'error', status: 503 });
    const res = await send('0241234568');
    expect(res.body.data).to.include({ status: 'SENT', provider: names.hubtel });
    expect(arkesel.received.length - before.arkesel).to.equal(1);
    expect(hubtel.received.length - before.hubtel).to.equal(1);
    const detail = await app.api.get(`/messages/${res.body.data.id}`, { apiKey });
    expect(detail.body.data.attemptLog.map((a: { provider: string; outcome: string; retryable: boolean }) => [a.provider, a.outcome, a.retryable]))
      .to.deep.equal([[names.arkesel, 'FAILED', true], [names.hubtel, 'ACCEPTED', false]]);
    expect(detail.body.data.statusHistory.map((h: { status: string }) => h.status)).to.deep.equal(['QUEUED', 'SENT']);
  });

  it('does not fail over on a permanent error (invalid number): FAILED and refunded', async () => {
    const before = (await app.container.get(INFRA.storage).wallets.get(tenant.organizationId))!.balance;
    const hubtelBefore = hubtel.received.length;
    arkesel.script({ kind: 'error', status: 422, body: { message: 'The given data was invalid.', errors: { recipients: ['invalid'] } } });
    const res = await send('0241234569');
    expect(res.body.data.status).to.equal('FAILED');
    expect(hubtel.received.length).to.equal(hubtelBefore);
    expect((await app.container.get(INFRA.storage).wallets.get(tenant.organizationId))!.balance).to.equal(before);
  });

  it('applies a signed Arkesel delivery callback, ignores a duplicate, refuses a forged one', async () => {
    const res = await send('0241234570');
    const vendorId = arkesel.accepted.at(-1)!.id;
    const entry = arkesel.accepted.at(-1)!;
    entry.callbackUrl = entry.callbackUrl!.replace(/^https?:\/\/[^/]+/, app.url);
    expect((await arkesel.sendCallback(vendorId, 'DELIVERED')).status).to.equal(200);
    expect((await arkesel.sendCallback(vendorId, 'SUBMITTED')).status).to.equal(200);
    const lookup = await app.api.get(`/messages/${res.body.data.id}`, { apiKey });
    expect(lookup.body.data.status).to.equal('DELIVERED');
    const forged = await fetch(`${app.url}/providers/callbacks/arkesel-sms?token=forged&sms_id=${vendorId}&status=NOT_DELIVERED`);
    expect(forged.status).to.equal(401);
    expect(((await forged.json()) as { error: { code: string } }).error.code).to.equal('INVALID_SIGNATURE');
  });

  it('polls Hubtel for the status of its sent messages', async () => {
    arkesel.script({ kind: 'error', status: 500 });
    const res = await send('0241234571');
    expect(res.body.data.provider).to.equal(names.hubtel);
    hubtel.setStatus(hubtel.accepted.at(-1)!.messageId, 'Delivered');
    const c = app.container;
    await deliveryStatusPollHandler(c.get(MESSAGING.runtime), c.get(INFRA.storage), c.get(MESSAGING.applyDeliveryReport), createLogger('silent')).handle({});
    expect((await app.api.get(`/messages/${res.body.data.id}`, { apiKey })).body.data.status).to.equal('DELIVERED');
  });
});
