import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTracing, type RunningTracing } from '../../hosts/tracing.ts';
import { createLogger } from '../../hosts/logger.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { startFakeTwilio, type FakeTwilio } from '../support/fake-vendors/twilio.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { testConfig } from '../support/test-config.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const PUBLIC_URL = 'http://localhost:3000'; // the test configuration's PUBLIC_URL: where vendors call back
const SPAN_KIND = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;

/**
 * OpenTelemetry traces (docs/observability.md): one trace per message from the HTTP request through
 * acceptance, the queue (context in the pg-boss job data), the worker, the vendor call and the delivery
 * report, and the webhooks it causes. Real app, real worker on pg-boss, a fake Twilio over HTTP, a local
 * webhook receiver; spans collected by an in-memory exporter. The platform provider routes to a country
 * no other test uses (Tanzania mainland numbers +25568...), and is deactivated afterwards.
 */
describe('HTTP: OpenTelemetry traces of a message', function () {
  this.timeout(40_000);
  const exporter = new InMemorySpanExporter();
  let tracing: RunningTracing;
  let app: TestApp;
  let worker: RunningWorker;
  let fake: FakeTwilio;
  let receiver: WebhookReceiver;
  let tenant: TestTenant;
  const name = `tw-trace-${randomUUID().slice(0, 8)}`;

  async function configure(active: boolean) {
    await app.container.get(MESSAGING.providerRepository).upsert({ name, vendor: 'twilio-sms', channel: 'SMS', priority: 1, active, countries: ['TZ'], settings: { from: '+15550007777', baseUrl: fake.url } },
      { accountSid: fake.accountSid, authToken: fake.authToken }, new Date());
    await app.container.get(MESSAGING.runtime).reload();
  }

  before(async () => {
    tracing = (await startTracing({ exporter }))!;
    fake = await startFakeTwilio({ accountSid: `AC${'d4'.repeat(16)}`, authToken: `trace-token-${randomUUID()}` });
    receiver = await startWebhookReceiver();
    app = await startTestApp();
    await configure(true);
    const workerContainer = buildWorkerContainer(testConfig(), createLogger('silent'), await sharedInfrastructure(),
      { runtime: app.container.get(MESSAGING.runtime), telemetry: app.container.get(MESSAGING.telemetry) });
    worker = await startWorker((await sharedInfrastructure()).boss, workerContainer.getAll(WORKER.handlers), createLogger('silent'));
    tenant = await registerTenant(app.api, 'tracing');
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    const endpoint = await app.api.post('/webhook-endpoints', { url: receiver.url }, tenant.auth);
    expect(endpoint.status, endpoint.text).to.equal(201);
  });

  after(async () => {
    await worker?.stop();
    if (app) await configure(false);
    await app?.close();
    await Promise.all([fake?.close(), receiver?.close()]);
    await tracing?.shutdown();
  });

  const spansOf = (traceId: string) => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId ?? null;
  const kind = (span: ReadableSpan) => SPAN_KIND[span.kind];
  async function until<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  /** The one finished span named `name` in the trace, whose parent is `parent` (null: the trace's root in this service). */
  function only(traceId: string, spanName: string | RegExp, parent: ReadableSpan | string | null): ReadableSpan {
    const found = spansOf(traceId).filter((s) => (typeof spanName === 'string' ? s.name === spanName : spanName.test(s.name)));
    const wanted = parent === null || typeof parent === 'string' ? parent : parent.spanContext().spanId;
    const matching = found.filter((s) => parentOf(s) === wanted);
    expect(matching, `${spanName} under ${wanted}; trace has ${spansOf(traceId).map((s) => `${s.name}<${parentOf(s)}`).join(', ')}`).to.have.length(1);
    return matching[0]!;
  }

  it('follows an async SMS from POST /messages/send through the queue, the worker and the vendor to its delivery report and webhooks, in one trace', async () => {
    const traceId = randomUUID().replaceAll('-', '');
    const callerSpan = '00f067aa0ba902b7';
    const sent = await app.api.post('/messages/send', { channel: 'SMS', to: `+25568${String(Date.now()).slice(-7)}`, body: 'Your parcel is on its way', async: true },
      tenant.auth, { traceparent: `00-${traceId}-${callerSpan}-01` });
    expect(sent.status, sent.text).to.equal(202);
    const messageId = sent.body.data.id as string;
    const storage = app.container.get(INFRA.storage);
    const message = await until('the worker to send it', async () => {
      const m = await storage.messages.findById(tenant.organizationId, messageId);
      return m?.status === 'SENT' && m;
    });
    const resource = fake.created.find((r) => r.sid === message.providerMessageId)!;
    const callback = await fake.sendStatusCallback(resource.sid, 'delivered', { url: resource.statusCallback!.replace(PUBLIC_URL, app.url), signedUrl: resource.statusCallback! });
    expect(callback.status).to.equal(200);
    await until('DELIVERED', async () => (await storage.messages.findById(tenant.organizationId, messageId))?.status === 'DELIVERED');
    await until('the status webhooks', () => ['webhook message.status.updated', 'webhook-dispatch process'].every((n) => spansOf(traceId).filter((s) => s.name === n).length >= 2));

    const request = only(traceId, 'POST /messages/send', callerSpan);
    expect(kind(request)).to.equal('SERVER');
    expect(request.attributes).to.include({ 'http.route': '/messages/send', 'http.response.status_code': 202 });
    const publish = only(traceId, 'notification-send publish', request);
    expect(kind(publish)).to.equal('PRODUCER');
    const job = only(traceId, 'notification-send process', publish);
    expect(kind(job)).to.equal('CONSUMER');
    const vendor = only(traceId, 'SMS send', job);
    expect(kind(vendor)).to.equal('CLIENT');
    expect(vendor.attributes).to.include({ 'nkra.provider': name, 'nkra.message_id': messageId, 'nkra.accepted': true, 'nkra.provider_message_id': resource.sid });
    const report = only(traceId, 'delivery report DELIVERED', vendor);
    expect(report.attributes).to.include({ 'nkra.report.vendor_status': 'delivered' });
    // The vendor's callback request is its own trace, linked from the report.
    const callbackRequest = exporter.getFinishedSpans().find((s) => s.name.startsWith('POST /providers/callbacks/:vendor'))!;
    expect(callbackRequest.spanContext().traceId).to.not.equal(traceId);
    expect(report.links.map((l) => l.context.spanId)).to.deep.equal([callbackRequest.spanContext().spanId]);

    // message.status.updated webhooks: SENT from the worker's job, DELIVERED from the report, each fanned out and posted in this trace.
    for (const cause of [job, report]) {
      const dispatch = only(traceId, 'webhook-dispatch process', only(traceId, 'webhook-dispatch publish', cause));
      const post = only(traceId, 'webhook message.status.updated', dispatch);
      expect(kind(post)).to.equal('CLIENT');
      expect(post.attributes).to.include({ 'http.response.status_code': 200, 'server.address': new URL(receiver.url).host });
    }
    expect(spansOf(traceId).every((s) => !JSON.stringify(s.attributes).includes('parcel')), 'no message body in spans').to.equal(true);
  });

  it('traces a webhook test delivery from its request to the receiver and keeps the callback id out of span names', async () => {
    const endpoints = await app.api.get('/webhook-endpoints', tenant.auth);
    const id = (endpoints.body.data as Array<{ id: string }>)[0]!.id;
    const before = receiver.received.length;
    const tested = await app.api.post(`/webhook-endpoints/${id}/test`, {}, tenant.auth);
    expect(tested.status, tested.text).to.equal(200);
    expect(receiver.received.length).to.equal(before + 1);
    const request = await until('the request span', () => exporter.getFinishedSpans().find((s) => s.name === 'POST /webhook-endpoints/:id/test'));
    const traceId = request.spanContext().traceId;
    expect(parentOf(request)).to.equal(null);
    const post = only(traceId, /^webhook /, request);
    expect(kind(post)).to.equal('CLIENT');
    expect(post.attributes['http.response.status_code']).to.equal(200);
    expect(exporter.getFinishedSpans().filter((s) => kind(s) === 'SERVER').every((s) => !/[0-9a-f]{32}/.test(s.name))).to.equal(true);
  });
});
