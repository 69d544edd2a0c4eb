import { expect } from 'chai';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';
import { testConfig } from '../support/test-config.ts';
import { docSnippetVerifier } from '../support/webhook-doc-snippet.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

describe('Worker: webhooks end to end through pg-boss', function () {
  this.timeout(30_000);
  let app: TestApp;
  let worker: RunningWorker;
  let receiver: WebhookReceiver;
  let owner: TestTenant;

  before(async () => {
    const sms = new RecordingProvider('SMS', 'webhook-e2e-sms');
    const providers = new StaticProviderDirectory([sms], []);
    app = await startTestApp({ providers });
    const container = buildWorkerContainer(testConfig(), createLogger('silent'), await sharedInfrastructure(), { providers });
    await loadProviders(container);
    worker = await startWorker((await sharedInfrastructure()).boss, container.getAll(WORKER.handlers), createLogger('silent'));
    receiver = await startWebhookReceiver();
    owner = await registerTenant(app.api, 'webhook-e2e');
  });
  after(async () => { await worker.stop(); await receiver.close(); await app.close(); });

  it('delivers message.status.updated for a send to a subscribed endpoint, signed, and records the delivery', async () => {
    const endpoint = await app.api.post('/webhook-endpoints', { url: receiver.url, events: ['message.status.updated'] }, owner.auth);
    expect(endpoint.status, endpoint.text).to.equal(201);
    const key = await app.api.post('/api-keys', { name: 'Live', isSandbox: false }, owner.auth);
    const storage = app.container.get(INFRA.storage);
    await storage.wallets.update(owner.organizationId, () => ({ amount: 1_000, kind: 'TOP_UP', reference: 'seed-webhook-e2e', description: 'seed' }), new Date());
    const sent = await app.api.post('/messages/send', { channel: 'SMS', to: '+233245550101', body: 'Parcel update' }, { apiKey: key.body.data.key });
    expect(sent.status, sent.text).to.equal(201);
    expect(sent.body.data.status).to.equal('SENT');
    await receiver.waitFor(1, 15_000);
    const got = receiver.received[0]!;
    const event = docSnippetVerifier()(got.rawBody, got.headers, [endpoint.body.data.secret]) as Record<string, any>;
    expect(event).to.include({ kind: 'message.status.updated', organizationId: owner.organizationId });
    expect(event.data).to.include({ messageId: sent.body.data.id, status: 'SENT', channel: 'SMS' });
    let deliveries: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 50; i += 1) {
      deliveries = (await app.api.get(`/webhook-endpoints/${endpoint.body.data.id}/deliveries`, owner.auth)).body.data;
      if (deliveries[0]?.['status'] === 'SUCCEEDED') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(deliveries[0]).to.include({ status: 'SUCCEEDED', attempts: 1, responseCode: 200, eventId: event.id });
  });
});
