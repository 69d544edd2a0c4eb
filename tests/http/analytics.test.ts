import { expect } from 'chai';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { openWhatsappWindow } from '../support/whatsapp-window.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

describe('HTTP: /analytics', function () {
  this.timeout(30_000);
  let app: TestApp;
  let owner: TestTenant;
  let other: TestTenant;
  const sms = new RecordingProvider('SMS', 'analytics-sms');
  const whatsapp = new RecordingProvider('WHATSAPP', 'analytics-wa');

  before(async () => {
    app = await startTestApp({ providers: new StaticProviderDirectory([sms, whatsapp], []) });
    owner = await registerTenant(app.api, 'analytics');
    other = await registerTenant(app.api, 'analytics-other');
    const storage = app.container.get(INFRA.storage);
    await storage.wallets.update(owner.organizationId, () => ({ amount: 2_000, kind: 'TOP_UP', reference: 'seed-analytics', description: 'seed' }), new Date());
    const key = (await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, owner.auth)).body.data.key as string;
    const send = async (body: Record<string, unknown>) => {
      const res = await app.api.post('/messages/send', body, { apiKey: key });
      expect(res.status, res.text).to.equal(201);
      return res.body.data;
    };
    // GSM-7 text that went UCS-2 because of a curly apostrophe: 2 UCS-2 segments instead of 1 GSM-7 segment.
    const curly = `We\u2019re sorry, your parcel is delayed. ${'x'.repeat(60)}`;
    for (let i = 0; i < 3; i += 1) await send({ channel: 'SMS', to: `+23324555${String(1000 + i)}`, body: curly });
    for (let i = 0; i < 4; i += 1) await send({ channel: 'SMS', to: `+23324556${String(1000 + i)}`, body: 'Your code is 1234' });
    await openWhatsappWindow(storage, owner.organizationId, '+233245570001');
    await send({ channel: 'WHATSAPP', to: '+233245570001', body: 'Hello on WhatsApp' });
    sms.next = () => ({ accepted: false, retryable: false, errorCode: 'VENDOR_REJECTED', errorMessage: 'destination refused' });
    for (let i = 0; i < 2; i += 1) await send({ channel: 'SMS', to: `+23324558${String(1000 + i)}`, body: 'will fail' });
  });
  after(async () => { await app.close(); });

  it('overview totals agree with the delivery logs and the ledger', async () => {
    const res = await app.api.get('/analytics/overview', owner.auth);
    expect(res.status, res.text).to.equal(200);
    const o = res.body.data;
    expect(o.daily).to.have.length(30);
    expect(o.totals).to.include({ messages: 10, accepted: 8, failed: 2, deliveryRate: 0.8 });
    const storage = app.container.get(INFRA.storage);
    const logs = (await storage.messages.list(owner.organizationId, {}, 0, 100)).items;
    const ledger = await storage.wallets.listEntries(owner.organizationId, 100);
    const logCost = logs.reduce((s, m) => s + m.cost, 0);
    const ledgerNet = -ledger.filter((e) => e.kind === 'DEBIT' || e.kind === 'REFUND').reduce((s, e) => s + e.amount, 0);
    expect(logCost).to.equal(3 * 6 + 4 * 3 + 8); // UCS-2 2 segments x 3, GSM-7 1 x 3, WhatsApp 8; failed ones refunded
    expect(o.totals.spend).to.equal(logCost / 100);
    expect(o.totals.ledgerSpend).to.equal(ledgerNet / 100);
    expect(ledgerNet).to.equal(logCost);
    const today = o.daily[29];
    expect(today.messages).to.equal(10);
    expect(today.byChannel).to.include({ SMS: 9, WHATSAPP: 1 });
    expect(o.byChannel.find((c: { channel: string }) => c.channel === 'SMS')).to.include({ messages: 9, failed: 2, spend: 0.3 });
    expect(o.trends.currentMonth.messages).to.equal(10);
    expect(o.trends.previousMonth.messages).to.equal(0);
    expect(o.trends.messagesChangePercent).to.equal(null);
  });

  it('shows nothing of another organization', async () => {
    const res = await app.api.get('/analytics/overview', other.auth);
    expect(res.body.data.totals).to.include({ messages: 0, spend: 0 });
    expect((await app.api.get('/analytics/failures', other.auth)).body.data).to.deep.equal([]);
  });

  it('recommends replacing look-alike characters, with the messages and the extra cost', async () => {
    const res = await app.api.get('/analytics/recommendations', owner.auth);
    expect(res.status).to.equal(200);
    expect(res.body.data.length).to.be.at.most(4);
    const lookalike = res.body.data.find((r: { kind: string }) => r.kind === 'UCS2_LOOKALIKE_CHARACTERS');
    expect(lookalike.figures).to.include({ messages: 3, extraSegments: 3, extraCost: 0.09 });
    expect(lookalike.figures.characters[0]).to.include({ character: '\u2019', codePoint: 'U+2019', messages: 3 });
  });

  it('lists costs per month and channel matching the ledger; validates months', async () => {
    const res = await app.api.get('/analytics/costs?months=2', owner.auth);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.items).to.have.length(2);
    const current = res.body.data.items[1];
    expect(current.cost).to.equal(0.38);
    expect(current.ledger.net).to.equal(0.38);
    expect(current.channels.find((c: { channel: string }) => c.channel === 'SMS')).to.include({ messages: 9, segments: 3 * 2 + 4 + 2, cost: 0.3 });
    expect((await app.api.get('/analytics/costs', owner.auth)).body.data.items).to.have.length(3);
    for (const bad of ['0', '13', 'abc', '1.5']) {
      const r = await app.api.get(`/analytics/costs?months=${bad}`, owner.auth);
      expect(r.status, bad).to.equal(400);
      expect(r.body.error.code).to.equal('VALIDATION_ERROR');
    }
  });

  it('lists the last failed delivery logs with their reasons', async () => {
    const res = await app.api.get('/analytics/failures', owner.auth);
    expect(res.status).to.equal(200);
    expect(res.body.data).to.have.length(2);
    expect(res.body.data[0]).to.include({ status: 'FAILED', errorCode: 'VENDOR_REJECTED', reason: 'destination refused', cost: 0 });
  });
});

describe('HTTP: /analytics with the default outbox provider (nothing leaves the machine)', function () {
  this.timeout(30_000);
  let app: TestApp;
  before(async () => { app = await startTestApp(); }); // the configured providers: the outbox on a fresh install
  after(async () => { await app?.close(); });

  it('counts messages written to the outbox as outbox, not accepted, and leaves them out of the delivery rate; each log names its provider', async () => {
    const owner = await registerTenant(app.api, 'outbox-analytics');
    await app.container.get(INFRA.storage).wallets.update(owner.organizationId, () => ({ amount: 1_000, kind: 'TOP_UP', reference: 'seed-outbox', description: 'seed' }), new Date());
    const key = (await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, owner.auth)).body.data.key as string;
    const sent = await app.api.post('/messages/send', { channel: 'SMS', to: '+233245550999', body: 'Only written locally' }, { apiKey: key });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data).to.include({ status: 'SENT', provider: 'outbox-sms' });
    const totals = (await app.api.get('/analytics/overview', owner.auth)).body.data.totals;
    expect(totals).to.include({ messages: 1, accepted: 0, outbox: 1, deliveryRate: null });
  });
});

