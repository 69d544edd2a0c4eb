import { expect } from 'chai';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant } from '../support/tenants.ts';

describe('HTTP: analytics roll-ups under concurrent sends and refunds', function () {
  this.timeout(60_000);
  let app: TestApp;
  const sms = new RecordingProvider('SMS', 'rollup-race-sms');
  before(async () => {
    // Odd recipients fail permanently (refund transaction) while even ones are sent: both lock the wallet and the counters.
    sms.next = (m) => (Number(m.to.slice(-1)) % 2 === 1
      ? { accepted: false, retryable: false, errorCode: 'VENDOR_REJECTED', errorMessage: 'destination refused' }
      : { accepted: true, providerMessageId: `rec_${m.internalMessageId}`, delivered: false });
    app = await startTestApp({ providers: new StaticProviderDirectory([sms], []) });
  });
  after(async () => { await app.close(); });

  it('answers every send (no deadlock between sends and refunds) and keeps the overview equal to the logs and the ledger', async () => {
    const owner = await registerTenant(app.api, 'rollup-race');
    const storage = app.container.get(INFRA.storage);
    await storage.wallets.update(owner.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: 'seed-rollup-race', description: 'seed' }), new Date());
    const key = (await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, owner.auth)).body.data.key as string;
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => app.api.post('/messages/send',
      { channel: 'SMS', to: `+2332455${String(10_000 + i).slice(-5)}`, body: 'Race' }, { apiKey: key })));
    expect(responses.map((r) => r.status)).to.deep.equal(Array(60).fill(201));
    expect(responses.filter((r) => r.body.data.status === 'FAILED')).to.have.length(30);
    const overview = (await app.api.get('/analytics/overview', owner.auth)).body.data;
    const logs = (await storage.messages.list(owner.organizationId, {}, 0, 100)).items;
    expect(overview.totals).to.include({ messages: 60, failed: 30, accepted: 30 });
    expect(overview.totals.spend * 100).to.equal(logs.reduce((s, m) => s + m.cost, 0));
    expect(overview.totals.ledgerSpend).to.equal(overview.totals.spend);
  });
});
