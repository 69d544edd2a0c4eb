import { expect } from 'chai';
import { InMemoryEmailSender } from '../../adapters/memory/in-memory-email-sender.ts';
import { periodOf } from '../../core/domain/invoice.ts';
import { QUEUES } from '../../core/ports/job-queue.ts';
import type { Storage } from '../../core/ports/storage.ts';
import { createLogger } from '../../hosts/logger.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { LedgerWatch } from '../support/ledger-invariant.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { testConfig } from '../support/test-config.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

describe('HTTP: billing usage, monthly statements and low-balance alerts', function () {
  this.timeout(30_000);
  let app: TestApp;
  let storage: Storage;
  const email = new InMemoryEmailSender();
  const ledger = new LedgerWatch(() => storage);
  let worker: ReturnType<typeof buildWorkerContainer>;

  before(async () => {
    app = await startTestApp();
    storage = app.container.get(INFRA.storage);
    worker = buildWorkerContainer(testConfig(), createLogger('silent'), await sharedInfrastructure(), { email });
  });
  after(async () => { await app?.close(); });
  afterEach(async () => { await ledger.check(); });

  const handler = (queue: string) => worker.getAll(WORKER.handlers).find((h) => h.queue === queue)!;
  const credit = (t: TestTenant, pesewas: number) => storage.wallets.update(t.organizationId,
    () => ({ amount: pesewas, kind: 'TOP_UP', reference: `test-${Math.random()}`, description: 'test credit' }), new Date());
  let recipient = 0; // distinct recipients: the per-recipient hourly fraud cap would reject (and not charge) repeats
  const sendSms = async (t: TestTenant, body = 'Your order has shipped') => {
    recipient += 1;
    const to = `024 200 ${String(recipient).padStart(4, '0')}`;
    const response = await app.api.post('/messages/send', { channel: 'SMS', to, body, async: true }, t.auth);
    expect(response.status, response.text).to.equal(202);
  };
  const alertJobs = async (organizationId: string) => app.container.get(INFRA.database).em().execute<Array<{ data: Record<string, unknown> }>>(
    `select data from pgboss.job where name = ? and data->>'organizationId' = ? order by created_on`, [QUEUES.lowBalanceAlert, organizationId]);

  it('reports usage per channel: messages, segments and cost in GHS', async () => {
    const t = ledger.watch(await registerTenant(app.api, 'usage'));
    await credit(t, 10_000);
    await sendSms(t);
    await sendSms(t, 'x'.repeat(200)); // two GSM-7 segments
    await app.api.post('/messages/send', { channel: 'EMAIL', to: 'ama@example.com', subject: 'Hi', body: 'Hello', async: true }, t.auth);
    const response = await app.api.get('/billing/usage?months=1', t.auth);
    expect(response.status).to.equal(200);
    expect(response.body.data.channels).to.deep.equal([
      { channel: 'EMAIL', messages: 1, segments: 1, cost: 0.01 },
      { channel: 'SMS', messages: 2, segments: 3, cost: 0.09 },
    ]);
    expect(response.body.data.totals).to.deep.equal({ messages: 3, segments: 4, cost: 0.1 });
    expect((await app.api.get('/billing/usage?months=0', t.auth)).body.error.code).to.equal('VALIDATION_ERROR');
    expect((await app.api.get('/billing/usage', t.auth)).body.data.months).to.equal(1);
  });

  it('generates a statement per organization through the worker, listed and downloadable as JSON and CSV, never across tenants', async () => {
    const t = ledger.watch(await registerTenant(app.api, 'statement'));
    const other = ledger.watch(await registerTenant(app.api, 'other'));
    await credit(t, 5_000);
    await sendSms(t);
    const period = periodOf(new Date());
    await handler(QUEUES.monthlyStatements).handle({ period });
    await handler(QUEUES.monthlyStatements).handle({ period }); // a rerun creates nothing twice

    const list = await app.api.get('/billing/invoices', t.auth);
    expect(list.status).to.equal(200);
    expect(list.body.data).to.have.length(1);
    const invoice = list.body.data[0];
    expect(invoice).to.deep.include({ period, currency: 'GHS', openingBalance: 0, topUps: 50, debits: -0.03, refunds: 0, adjustments: 0, closingBalance: 49.97 });
    expect(invoice.usage).to.deep.equal([{ channel: 'SMS', messages: 1, segments: 1, cost: 0.03 }]);

    const one = await app.api.get(`/billing/invoices/${invoice.id}`, t.auth);
    expect(one.body.data).to.deep.equal(invoice);
    const json = await app.api.get(`/billing/invoices/${invoice.id}?format=json`, t.auth);
    expect(json.headers.get('content-disposition')).to.equal(`attachment; filename="statement-${period}.json"`);
    expect(json.body).to.deep.equal(invoice);
    const csv = await app.api.get(`/billing/invoices/${invoice.id}?format=csv`, t.auth);
    expect(csv.headers.get('content-type')).to.match(/^text\/csv/);
    expect(csv.text).to.include('closing_balance,49.97\r\n').and.include('SMS,1,1,0.03\r\n');
    expect((await app.api.get(`/billing/invoices/${invoice.id}?format=pdf`, t.auth)).status).to.equal(400);
    expect((await app.api.get(`/billing/invoices/${invoice.id}`, other.auth)).status).to.equal(404);
    expect((await app.api.get('/billing/invoices', other.auth)).body.data.map((i: { closingBalance: number }) => i.closingBalance)).to.deep.equal([0]);
  });

  it('emails the owner once when a debit crosses under the threshold, and again only after a new crossing', async () => {
    const t = ledger.watch(await registerTenant(app.api, 'lowbal'));
    await credit(t, 1_003); // threshold in tests: GHS 10.00 (1,000 pesewas); an SMS costs 3
    await sendSms(t); // 1,000: not under
    expect(await alertJobs(t.organizationId)).to.have.length(0);
    await sendSms(t); // 997: crossed
    await sendSms(t); // 994: still under, no new alert
    const jobs = await alertJobs(t.organizationId);
    expect(jobs.map((j) => j.data)).to.deep.equal([{ organizationId: t.organizationId, balanceAfter: 997 }]);

    const before = email.sent.length;
    await handler(QUEUES.lowBalanceAlert).handle(jobs[0]!.data);
    const sent = email.sent.slice(before);
    expect(sent.map((m) => m.to)).to.deep.equal([t.email]);
    expect(sent[0]!.subject).to.include('GHS 9.97');

    await credit(t, 100); // 1,094: above again
    await sendSms(t); // 1,091
    for (let i = 0; i < 31; i += 1) await sendSms(t); // down to 998: the second crossing
    expect((await alertJobs(t.organizationId)).map((j) => j.data['balanceAfter'])).to.deep.equal([997, 998]);
  });
});
