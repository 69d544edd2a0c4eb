import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { emptyBucket } from '../../core/domain/route-learning.ts';
import type { Message } from '../../core/domain/message.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders } from '../../hosts/messaging-bindings.ts';
import { ROUTING } from '../../hosts/routing-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { startFakeArkesel, type FakeArkesel } from '../support/fake-vendors/arkesel.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';
import { testConfig } from '../support/test-config.ts';
import { docSnippetVerifier } from '../support/webhook-doc-snippet.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const KEY = `arkesel-key-${randomUUID()}`;

/**
 * Issue 32: a provider degrading for one network is a routing.route_shifted webhook to every organization
 * whose traffic it affects, through the signed webhook delivery, once, even with two workers evaluating at
 * once; an organization that only sent to another network hears nothing. PostgreSQL, pg-boss, a local receiver.
 */
describe('Worker: route shifts as signed routing.route_shifted webhooks', function () {
  this.timeout(60_000);
  let app: TestApp;
  let vendor: FakeArkesel;
  let worker: RunningWorker;
  let receiver: WebhookReceiver;
  let ops: TestTenant;
  let affected: TestTenant;
  let unaffected: TestTenant;
  const suffix = randomUUID().slice(0, 8);
  const names = { a: `gh-a-${suffix}`, b: `gh-b-${suffix}` };
  const providerIds: string[] = [];

  before(async () => {
    vendor = await startFakeArkesel({ apiKey: KEY });
    app = await startTestApp();
    ops = await registerTenant(app.api, 'shift-ops');
    await app.container.get(INFRA.storage).users.setPlatformRole(ops.userId, 'PLATFORM_SUPER_ADMIN');
    for (const [name, priority] of [[names.a, 1], [names.b, 2]] as const) {
      const created = await app.api.post('/admin/providers', {
        name, vendor: 'arkesel-sms', channel: 'SMS', priority, countries: ['GH'], settings: { senderId: 'NKRA', baseUrl: vendor.url }, credentials: { apiKey: KEY },
      }, { token: ops.token });
      expect(created.status, created.text).to.equal(201);
      providerIds.push(created.body.data.id as string);
    }
    affected = await registerTenant(app.api, 'shift-affected');
    unaffected = await registerTenant(app.api, 'shift-unaffected');
    receiver = await startWebhookReceiver();
    const infra = await sharedInfrastructure();
    const container = buildWorkerContainer(testConfig(), createLogger('silent'), infra);
    await loadProviders(container);
    worker = await startWorker(infra.boss, container.getAll(WORKER.handlers), createLogger('silent'));
  });
  after(async () => {
    await worker?.stop();
    for (const id of providerIds) await app.api.request('DELETE', `/admin/providers/${id}`, undefined, { token: ops.token });
    await receiver?.close();
    await app?.close();
    await vendor?.close();
  });

  async function evaluators() {
    const infra = await sharedInfrastructure();
    return Promise.all([1, 2].map(async () => {
      const container = buildWorkerContainer(testConfig(), createLogger('silent'), infra);
      await loadProviders(container);
      return container.getAll(WORKER.tasks).find((t) => t.name === 'evaluate-routes')!;
    }));
  }

  it('sends one signed delivery per affected organization when a provider degrades for MTN, none to an organization that only reached Telecel', async () => {
    const [first, second] = await evaluators();
    await first!.run(); // shifts other suites left unannounced go out first: this test sees only its own
    const secrets = new Map<string, string>();
    for (const tenant of [affected, unaffected]) {
      const endpoint = await app.api.post('/webhook-endpoints', { url: receiver.url, events: ['routing.route_shifted'] }, tenant.auth);
      expect(endpoint.status, endpoint.text).to.equal(201);
      secrets.set(tenant.organizationId, endpoint.body.data.secret as string);
    }
    // Live traffic of the last 24 h: the affected organization to GH/MTN through the platform's provider, the other to GH/TELECEL only.
    const storage = app.container.get(INFRA.storage);
    const ids = app.container.get(INFRA.ids);
    const now = new Date();
    const message = (organizationId: string, network: string): Message => {
      const id = ids.next();
      return {
        id, organizationId, internalMessageId: `msg_${id}`, channel: 'SMS', recipient: '+233241234567', country: 'GH', network, subject: null, body: 'hi', templateId: null,
        category: 'TRANSACTIONAL', scheduledAt: null, status: 'SENT', errorCode: null, errorMessage: null, cost: 3, price: 3, segments: 1, encoding: 'GSM-7', isSandbox: false,
        apiKeyId: null, userId: null, senderId: null, provider: names.a, providerMessageId: null, attempts: 1, leaseUntil: null, createdAt: now, updatedAt: now, sentAt: now, deliveredAt: null, failedAt: null,
      };
    };
    await storage.messages.insertMany([message(affected.organizationId, 'MTN'), message(affected.organizationId, 'MTN'), message(unaffected.organizationId, 'TELECEL')]);
    // The degradation: 30 MTN sends through provider A eight minutes ago, none reported (slow for certain); Telecel through A is fine.
    const start = new Date(Math.floor((now.getTime() - 8 * 60_000) / 60_000) * 60_000);
    await app.container.get(ROUTING.routeStats).add([
      { ...emptyBucket(names.a, 'GH', 'MTN', start), sent: 30 },
      { ...emptyBucket(names.a, 'GH', 'TELECEL', start), sent: 30, reported: 30, delivered: 30, latency: [30, 0, 0, 0, 0, 0, 0, 0] },
    ]);
    // Two workers evaluate at once: the shift is stored once and announced once.
    await Promise.all([first!.run(), second!.run()]);
    await Promise.all([first!.run(), second!.run()]);
    await receiver.waitFor(1, 15_000);
    await new Promise((r) => setTimeout(r, 1_500)); // room for a duplicate to arrive, were there one
    const mine = receiver.received.filter((r) => String(r.headers['x-service-event']) === 'routing.route_shifted');
    expect(mine).to.have.length(1);
    const event = docSnippetVerifier()(mine[0]!.rawBody, mine[0]!.headers, [secrets.get(affected.organizationId)!]) as Record<string, any> | null;
    expect(event, 'signed with the affected organization\'s endpoint secret').to.not.equal(null);
    expect(event).to.include({ kind: 'routing.route_shifted', organizationId: affected.organizationId });
    expect(event!.data).to.include({ channel: 'SMS', country: 'GH', network: 'MTN', direction: 'away', from: names.a });
    expect(event!.data.to).to.not.equal(names.a);
    expect(event!.data.figures.slowShare).to.equal(1);
    expect(mine[0]!.headers['webhook-signature']).to.match(/^v1,/);
    const shifts = (await app.container.get(ROUTING.routeStats).listShifts(100)).filter((s) => s.provider === names.a);
    expect(shifts.map((s) => [s.network, s.direction])).to.deep.equal([['MTN', 'away']]);
    const endpoints = (await app.api.get('/webhook-endpoints', unaffected.auth)).body.data as Array<{ id: string }>;
    expect((await app.api.get(`/webhook-endpoints/${endpoints[0]!.id}/deliveries`, unaffected.auth)).body.data).to.deep.equal([]);
  });
});
