import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RunCampaign } from '../../core/use-cases/campaigns/run-campaign.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startFakeArkesel, type FakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

const OWN_KEY = `tenant-own-arkesel-${randomUUID()}`;
const FEE_PESEWAS = 1;

/**
 * Tenant-owned vendor accounts (issue 17, docs/providers.md): an organization adds its own Arkesel
 * account; its live sends go through it first at the own-account fee, fall back to the platform's
 * providers (charged the difference) unless it forbids that, and nobody else ever sees the account.
 */
describe('HTTP: /vendor-accounts (an organization\'s own vendor accounts)', function () {
  this.timeout(30_000);
  let app: TestApp;
  let fake: FakeArkesel;
  let owner: TestTenant;
  let other: TestTenant;
  let accountId = '';
  const answers: string[] = [];
  const seen = <T extends { text: string }>(res: T): T => { answers.push(res.text); return res; };

  before(async () => {
    fake = await startFakeArkesel({ apiKey: OWN_KEY });
    app = await startTestApp({ config: { vendorBaseUrls: { 'arkesel-sms': fake.url }, ownAccountFee: FEE_PESEWAS } });
    owner = await registerTenant(app.api, 'own-vendor');
    other = await registerTenant(app.api, 'own-vendor-other');
    for (const t of [owner, other]) {
      await app.container.get(INFRA.storage).wallets.update(t.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    }
  });
  after(async () => {
    await app?.close();
    await fake?.close();
    expect(answers.join('\n')).to.not.include(OWN_KEY);
  });

  const send = (tenant: TestTenant, body = 'Your parcel is on its way') => app.api.post('/messages/send', { channel: 'SMS', to: '+233241234567', body }, tenant.auth);
  /** The name an own account's messages record: namespaced by its organization (no collision with a platform or another tenant's name). */
  const ownName = () => `${owner.organizationId}/my-arkesel`;
  const balance = async (tenant: TestTenant) => Math.round((await app.api.get('/billing/wallet', tenant.auth)).body.data.balance * 100);

  it('refuses what a tenant may not configure: unsupported vendors, endpoints, missing credentials', async () => {
    const smtp = seen(await app.api.post('/vendor-accounts', { name: 'my-smtp', vendor: 'smtp-email', settings: { host: '10.0.0.5', from: 'a@b.c' }, credentials: {} }, owner.auth));
    expect(smtp.status).to.equal(422);
    expect(smtp.body.error.code).to.equal('VENDOR_NOT_SUPPORTED');
    const endpoint = seen(await app.api.post('/vendor-accounts', { name: 'my-arkesel', vendor: 'arkesel-sms', settings: { senderId: 'ACME', baseUrl: 'http://169.254.169.254' }, credentials: { apiKey: OWN_KEY } }, owner.auth));
    expect(endpoint.status).to.equal(400);
    expect(endpoint.body.error.details.fieldErrors).to.have.key('settings');
    const noKey = seen(await app.api.post('/vendor-accounts', { name: 'my-arkesel', vendor: 'arkesel-sms', settings: { senderId: 'ACME' }, credentials: {} }, owner.auth));
    expect(noKey.status).to.equal(400);
    expect(noKey.body.error.details.fieldErrors).to.have.key('credentials');
  });

  it('adds an own account: credentials are write-only, and no one else sees it', async () => {
    const created = seen(await app.api.post('/vendor-accounts', { name: 'my-arkesel', vendor: 'arkesel-sms', countries: ['GH'], settings: { senderId: 'ACME' }, credentials: { apiKey: OWN_KEY } }, owner.auth));
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data).to.include({ name: 'my-arkesel', vendor: 'arkesel-sms', channel: 'SMS', hasCredentials: true, platformFallback: true });
    accountId = created.body.data.id;

    const listed = seen(await app.api.get('/vendor-accounts', owner.auth));
    expect(listed.body.data.items.map((a: { id: string }) => a.id)).to.deep.equal([accountId]);
    expect(listed.body.data.feePerMessage).to.equal(FEE_PESEWAS / 100);
    expect(seen(await app.api.get('/vendor-accounts', other.auth)).body.data.items).to.deep.equal([]);
    expect(seen(await app.api.get(`/vendor-accounts/${accountId}`, other.auth)).status).to.equal(404);
    expect(seen(await app.api.request('PATCH', `/vendor-accounts/${accountId}`, { active: false }, other.auth)).status).to.equal(404);
    expect(seen(await app.api.request('DELETE', `/vendor-accounts/${accountId}`, undefined, other.auth)).status).to.equal(404);
    for (const tenant of [owner, other]) {
      const platform = seen(await app.api.get('/providers', tenant.auth));
      expect(platform.text).to.not.include(accountId);
    }
    const ops = await registerTenant(app.api, 'own-vendor-ops');
    await app.container.get(INFRA.storage).users.setPlatformRole(ops.userId, 'PLATFORM_SUPER_ADMIN');
    expect(seen(await app.api.request('PATCH', `/admin/providers/${accountId}`, { active: false }, { token: ops.token })).status).to.equal(404);
  });

  it('routes the owner\'s live sends through its own account at the own-account fee; other organizations keep the platform\'s route', async () => {
    const before = await balance(owner);
    const sent = seen(await send(owner));
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data.status).to.equal('SENT');
    const stored = await app.container.get(INFRA.storage).messages.findById(owner.organizationId, sent.body.data.id);
    expect(stored?.provider).to.equal(ownName());
    expect(stored?.cost).to.equal(FEE_PESEWAS);
    expect(fake.accepted.length).to.equal(1);
    expect(fake.received.at(-1)?.json).to.include({ sender: 'ACME' });
    expect(before - await balance(owner)).to.equal(FEE_PESEWAS);

    const theirs = seen(await send(other));
    const theirMessage = await app.container.get(INFRA.storage).messages.findById(other.organizationId, theirs.body.data.id);
    expect(theirMessage?.provider).to.not.equal(ownName());
    expect(fake.accepted.length).to.equal(1);
  });

  it('previews the own-account fee as the price of the owner\'s messages, and the platform price for others', async () => {
    const body = { channel: 'SMS', to: '+233241234567', body: 'Your parcel is on its way' };
    const mine = seen(await app.api.post('/messages/preview', body, owner.auth));
    expect(mine.status, mine.text).to.equal(200);
    expect(mine.body.data).to.include({ price: FEE_PESEWAS / 100, priceSource: 'OWN_ACCOUNT' });
    const theirs = seen(await app.api.post('/messages/preview', body, other.auth)).body.data;
    expect(theirs.priceSource).to.equal('PLATFORM');
    expect(theirs.price).to.be.greaterThan(FEE_PESEWAS / 100);
  });

  it('charges the own-account fee on an event trigger too (POST /events/trigger sends through the same pipeline)', async () => {
    const template = seen(await app.api.post('/templates', { name: 'Shipped', channel: 'SMS', body: 'Order {{order}} is on its way' }, owner.auth));
    expect(template.status, template.text).to.equal(201);
    expect(seen(await app.api.post('/events', { name: 'Order shipped', slug: 'order.shipped', templateId: template.body.data.id }, owner.auth)).status).to.equal(201);
    const before = await balance(owner);
    const triggered = seen(await app.api.post('/events/trigger', { event: 'order.shipped', to: '+233241234567', variables: { order: 'A-7' } }, owner.auth));
    expect(triggered.status, triggered.text).to.equal(201);
    const [log] = triggered.body.data.deliveryLogs as Array<{ id: string }>;
    const stored = await app.container.get(INFRA.storage).messages.findById(owner.organizationId, log!.id);
    expect(stored).to.include({ provider: ownName(), cost: FEE_PESEWAS });
    expect(before - await balance(owner)).to.equal(FEE_PESEWAS);
  });

  it('estimates and charges the own-account fee on a campaign\'s messages, fanned out with the worker\'s send deps', async () => {
    expect(seen(await app.api.post('/contacts', { firstName: 'Esi', phone: '+233241230077' }, owner.auth)).status).to.equal(201);
    const template = seen(await app.api.post('/templates', { name: 'Promo', channel: 'SMS', body: 'New stock at ACME today' }, owner.auth));
    const campaign = seen(await app.api.post('/campaigns', { name: 'Promo', channel: 'SMS', templateId: template.body.data.id }, owner.auth));
    expect(campaign.status, campaign.text).to.equal(201);
    const estimate = seen(await app.api.get(`/campaigns/${campaign.body.data.id}/estimate`, owner.auth));
    expect(estimate.body.data).to.include({ recipients: 1, cost: FEE_PESEWAS / 100 });
    expect(seen(await app.api.post(`/campaigns/${campaign.body.data.id}/send`, undefined, owner.auth)).status).to.equal(200);
    const before = await balance(owner);
    // What the worker's campaign-run handler is built from (hosts/worker/container.ts).
    const run = new RunCampaign(app.container.get(MESSAGING.sendDeps));
    expect(await run.execute({ campaignId: campaign.body.data.id, organizationId: owner.organizationId })).to.include({ fanOutDone: true });
    const messages = (await app.container.get(INFRA.storage).messages.list(owner.organizationId, {}, 0, 100)).items.filter((m) => m.body.startsWith('New stock at ACME'));
    expect(messages.map((m) => m.cost)).to.deep.equal([FEE_PESEWAS]);
    expect(before - await balance(owner)).to.equal(FEE_PESEWAS);
  });

  it('falls back to the platform when its own account fails, charging the difference once; not when it forbids fallback', async () => {
    const platformPrice = (await app.container.get(INFRA.storage).messages.findById(other.organizationId,
      (seen(await send(other, 'Price probe'))).body.data.id))!.cost;
    expect(platformPrice).to.be.greaterThan(FEE_PESEWAS);

    const before = await balance(owner);
    fake.script({ kind: 'error', status: 503 });
    const fellBack = seen(await send(owner));
    expect(fellBack.body.data.status).to.equal('SENT');
    const stored = await app.container.get(INFRA.storage).messages.findById(owner.organizationId, fellBack.body.data.id);
    expect(stored?.provider).to.not.equal(ownName());
    expect(stored?.cost).to.equal(platformPrice);
    expect(before - await balance(owner)).to.equal(platformPrice);

    expect(seen(await app.api.request('PATCH', `/vendor-accounts/${accountId}`, { platformFallback: false }, owner.auth)).body.data.platformFallback).to.equal(false);
    const beforeStrict = await balance(owner);
    fake.script({ kind: 'error', status: 503 });
    const strict = seen(await send(owner));
    expect(strict.body.data.status).to.not.equal('SENT');
    const strictStored = await app.container.get(INFRA.storage).messages.findById(owner.organizationId, strict.body.data.id);
    expect(strictStored?.provider ?? ownName()).to.equal(ownName());
    expect(beforeStrict - await balance(owner)).to.equal(FEE_PESEWAS);
  });

  it('sends a test message through exactly this account, and rotated credentials apply at once without leaking', async () => {
    const tested = seen(await app.api.post(`/vendor-accounts/${accountId}/test-message`, { to: '+233241234567' }, owner.auth));
    expect(tested.status, tested.text).to.equal(200);
    expect(tested.body.data.accepted).to.equal(true);

    const wrongKey = `wrong-${randomUUID()}`;
    seen(await app.api.request('PATCH', `/vendor-accounts/${accountId}`, { credentials: { apiKey: wrongKey } }, owner.auth));
    const refused = seen(await app.api.post(`/vendor-accounts/${accountId}/test-message`, { to: '+233241234567' }, owner.auth));
    expect(refused.body.data.accepted).to.equal(false);
    expect(refused.text).to.not.include(wrongKey);
  });

  it('removes the account: the owner\'s sends return to the platform\'s route and price', async () => {
    expect(seen(await app.api.request('DELETE', `/vendor-accounts/${accountId}`, undefined, owner.auth)).body.data.deleted).to.equal(true);
    const sent = seen(await send(owner));
    const stored = await app.container.get(INFRA.storage).messages.findById(owner.organizationId, sent.body.data.id);
    expect(stored?.provider).to.not.equal(ownName());
    expect(stored?.cost).to.be.greaterThan(FEE_PESEWAS);
  });
});
