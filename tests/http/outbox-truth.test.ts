import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { startFakeArkesel, type FakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/**
 * The outbox is not a quiet fallback (issue 29): a real SMS provider is configured but failing, the
 * message falls over to the local outbox and is SENT, and every view of it (the send answer, GET
 * /messages/{id}, GET /delivery-logs, the CSV export) says it never left the machine.
 */
describe('HTTP: a message the local outbox took says so everywhere', () => {
  let arkesel: FakeArkesel;
  let app: TestApp;
  let tenant: TestTenant;
  let apiKey: string;
  const name = `arkesel-outbox-${randomUUID().slice(0, 6)}`;

  async function configure(active: boolean) {
    await app.container.get(MESSAGING.providerRepository).upsert({ name, vendor: 'arkesel-sms', channel: 'SMS', priority: 1, active, countries: ['GH'], settings: { senderId: 'NKRA', baseUrl: arkesel.url } }, { apiKey: arkesel.apiKey }, new Date());
    await app.container.get(MESSAGING.runtime).reload();
  }

  before(async () => {
    arkesel = await startFakeArkesel();
    app = await startTestApp();
    await configure(true);
    tenant = await registerTenant(app.api, 'outbox-truth');
    apiKey = (await app.api.post('/api-keys', { name: 'live', isSandbox: false }, tenant.auth)).body.data.key;
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${name}`, description: 'test credit' }), new Date());
  });

  after(async () => {
    await configure(false);
    await app.close();
    await arkesel.close();
  });

  it('marks an outbox fallback deliveredVia OUTBOX, localOnly, in the answer, the detail, the list and the export', async () => {
    arkesel.script({ kind: 'error', status: 503 }); // the configured vendor is degraded
    const sent = await app.api.post('/messages/send', { channel: 'SMS', to: '0241239876', body: 'Your order is ready' }, { apiKey });
    expect(sent.status).to.equal(201);
    expect(sent.body.data).to.include({ status: 'SENT', deliveredVia: 'OUTBOX', localOnly: true });
    expect(String(sent.body.data.provider)).to.match(/outbox/);
    const detail = (await app.api.get(`/messages/${sent.body.data.id}`, { apiKey })).body.data;
    expect(detail).to.include({ status: 'SENT', deliveredVia: 'OUTBOX', localOnly: true });
    const list = (await app.api.get('/delivery-logs?channel=SMS', tenant.auth)).body.data;
    const row = (list.items ?? list).find((l: { id: string }) => l.id === sent.body.data.id);
    expect(row).to.include({ deliveredVia: 'OUTBOX', localOnly: true });
    const csv = (await app.api.get('/delivery-logs/export?channel=SMS', tenant.auth)).text;
    expect(csv.split('\r\n')[0]).to.match(/,deliveredVia$/);
    expect(csv.split('\r\n').find((line) => line.startsWith(sent.body.data.id))).to.match(/,OUTBOX$/);
  });

  it('marks a message the vendor took deliveredVia PROVIDER, not localOnly', async () => {
    const sent = await app.api.post('/messages/send', { channel: 'SMS', to: '0241239877', body: 'Your order is ready' }, { apiKey });
    expect(sent.body.data).to.include({ status: 'SENT', provider: name, deliveredVia: 'PROVIDER', localOnly: false });
  });
});
