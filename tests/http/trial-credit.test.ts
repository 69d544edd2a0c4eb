import { expect } from 'chai';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser } from '../support/tenants.ts';

const TRIAL = 500; // pesewas: GHS 5
const SMS_PRICE = 3;

describe('HTTP: trial credit for new organizations (TRIAL_CREDIT_GHS)', function () {
  this.timeout(30_000);
  let app: TestApp;
  let admin: { token: string };

  before(async () => {
    // The daily allowance is counted across the whole test database: wide enough for this file's registrations.
    app = await startTestApp({ config: { trialCredit: { amount: TRIAL, perDay: 1_000_000 } }, providers: new StaticProviderDirectory([new RecordingProvider('SMS')], []) });
    const user = await registerUser(app.api, 'trial-admin');
    await app.container.get(INFRA.storage).users.setPlatformRole(user.userId, 'PLATFORM_SUPER_ADMIN');
    admin = { token: user.token };
  });
  after(async () => { await app?.close(); });

  it('lets a new organization send live at once: the wallet starts at the trial credit, recorded as TRIAL_CREDIT and shown in the wallet', async () => {
    const tenant = await registerTenant(app.api, 'trial');
    const wallet = await app.api.get('/billing/wallet', tenant.auth);
    expect(wallet.body.data).to.include({ balance: TRIAL / 100, trialCredit: TRIAL / 100, currency: 'GHS' });
    const entries = await app.container.get(INFRA.storage).wallets.listEntries(tenant.organizationId, 10);
    expect(entries.map((e) => [e.kind, e.amount, e.reference])).to.deep.equal([['TRIAL_CREDIT', TRIAL, 'trial']]);

    const key = await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth);
    const sent = await app.api.post('/messages/send', { channel: 'SMS', to: '0241234567', body: 'Hello from a new tenant' }, { apiKey: key.body.data.key });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data).to.include({ status: 'SENT', cost: SMS_PRICE / 100 });
    expect((await app.api.get('/billing/wallet', tenant.auth)).body.data.balance).to.equal((TRIAL - SMS_PRICE) / 100);
  });

  it('gives no credit to an account without an organization', async () => {
    const user = await registerUser(app.api, 'no-org');
    expect(await app.container.get(INFRA.storage).wallets.listEntries(user.userId, 10)).to.deep.equal([]);
  });

  it('keeps trial credit out of revenue: sends paid with it earn nothing, and it is reported on its own', async () => {
    const before = (await app.api.get('/admin/revenue', { token: admin.token })).body.data;
    const tenant = await registerTenant(app.api, 'trial-revenue');
    const key = await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth);
    for (let i = 0; i < 2; i += 1) {
      expect((await app.api.post('/messages/send', { channel: 'SMS', to: `024123450${i}`, body: 'Trial send' }, { apiKey: key.body.data.key })).status).to.equal(201);
    }
    const after = (await app.api.get('/admin/revenue', { token: admin.token })).body.data;
    const delta = (field: (r: any) => number) => Math.round((field(after) - field(before)) * 100);
    expect(delta((r) => r.totalRevenue)).to.equal(0);
    expect(delta((r) => r.usageRevenue)).to.equal(0);
    expect(delta((r) => r.revenue.debits)).to.equal(2 * SMS_PRICE);
    expect(delta((r) => r.revenue.trialCredits)).to.equal(TRIAL);
    expect(delta((r) => r.revenue.trialCreditsUsed)).to.equal(2 * SMS_PRICE);
  });
});

describe('HTTP: the trial credit daily allowance (TRIAL_CREDITS_PER_DAY)', function () {
  this.timeout(30_000);
  let app: TestApp;
  before(async () => { app = await startTestApp({ config: { trialCredit: { amount: TRIAL, perDay: 0 } } }); });
  after(async () => { await app?.close(); });

  it('starts organizations at 0 once the allowance is used up (here: none per day), and they can still top up', async () => {
    const tenant = await registerTenant(app.api, 'over-allowance');
    expect((await app.api.get('/billing/wallet', tenant.auth)).body.data).to.include({ balance: 0, trialCredit: 0 });
    const key = await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, tenant.auth);
    const refused = await app.api.post('/messages/send', { channel: 'SMS', to: '0241234567', body: 'No money yet' }, { apiKey: key.body.data.key });
    expect(refused.status).to.equal(402);
    expect(refused.body.error.code).to.equal('INSUFFICIENT_BALANCE');
  });
});
