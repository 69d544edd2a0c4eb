import http from 'node:http';
import { createHmac, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import { createLogger } from '../../hosts/logger.ts';
import { LINKS } from '../../hosts/api/modules/links-module.ts';
import { loadProviders, MESSAGING } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { signTwilioRequest } from '../support/fake-vendors/twilio.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { testConfig } from '../support/test-config.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';

const BROWSER = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';

/**
 * Workflow waits for a read, a reply and a click (docs/workflows.md) on PostgreSQL with the worker: the
 * inbox API marks the item read, the Twilio inbound webhook brings the reply, the tracked link redirect
 * counts the click; each wakes the waiting run at once (well before its timeout) and it goes on once.
 */
describe('HTTP: workflow waits for a read, a reply, a click', function () {
  this.timeout(60_000);
  let app: TestApp;
  let tenant: TestTenant;
  let worker: RunningWorker;
  const suffix = randomUUID().slice(0, 8);
  const twilio = { accountSid: `AC${suffix}`, authToken: `twilio-token-${suffix}` };
  const twilioNumber = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const twilioName = `twilio-wf-${suffix}`;
  const sms = new RecordingProvider('SMS', 'workflow-waits-sms');
  sms.next = (m) => ({ accepted: true, providerMessageId: `wfw_${m.internalMessageId}`, delivered: true });
  const providers = new StaticProviderDirectory([sms], []);
  const storage = () => app.container.get(INFRA.storage);

  async function workflow(slug: string, body: string, steps: unknown[]) {
    const templateId = (await app.api.post('/templates', { name: slug, channel: 'SMS', body }, tenant.auth)).body.data.id;
    const event = (await app.api.post('/events', { name: slug, slug, templateId }, tenant.auth)).body.data as { id: string; slug: string };
    const put = await app.api.put(`/events/${event.id}/workflow`, { steps }, tenant.auth);
    expect(put.status, put.text).to.equal(200);
    return event;
  }

  async function settled(runId: string, until: (run: { status: string }) => boolean) {
    let run = (await app.api.get(`/workflow-runs/${runId}`, tenant.auth)).body.data;
    for (let i = 0; i < 150 && !until(run); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      run = (await app.api.get(`/workflow-runs/${runId}`, tenant.auth)).body.data;
    }
    return run;
  }

  async function waitingRun(slug: string, body: Record<string, unknown>) {
    const res = await app.api.post('/events/trigger', { event: slug, ...body }, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    const run = await settled(res.body.data.id, (r) => r.status === 'WAITING');
    expect(run.status).to.equal('WAITING');
    return run;
  }

  /** An inbound SMS through the Twilio webhook (signed with the account's auth token); answers the HTTP status. */
  async function reply(from: string, body: string): Promise<number> {
    const sid = `SM${randomUUID().replaceAll('-', '')}`;
    const params = new URLSearchParams({ MessageSid: sid, SmsSid: sid, SmsMessageSid: sid, AccountSid: twilio.accountSid, From: from, To: twilioNumber, Body: body,
      NumMedia: '0', SmsStatus: 'received', ApiVersion: '2010-04-01' });
    const res = await fetch(`${app.url}/providers/callbacks/twilio-sms`, { method: 'POST', body: params.toString(), headers: {
      'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signTwilioRequest(twilio.authToken, 'http://localhost:3000/providers/callbacks/twilio-sms', params) } });
    await res.arrayBuffer();
    return res.status;
  }

  before(async () => {
    app = await startTestApp({ providers, config: { linkTracking: true } });
    tenant = await registerTenant(app.api, 'workflow-waits');
    await storage().wallets.update(tenant.organizationId, () => ({ amount: 10_000, kind: 'TOP_UP', reference: `seed-${suffix}`, description: 'test credit' }), new Date());
    await app.container.get(MESSAGING.providerRepository).upsert({ name: twilioName, vendor: 'twilio-sms', channel: 'SMS', priority: 900, active: true, countries: ['ZZ'],
      settings: { from: twilioNumber, baseUrl: 'http://127.0.0.1:9' } }, twilio, new Date());
    await app.container.get(MESSAGING.runtime).reload();
    const admin = await registerUser(app.api, 'workflow-waits-admin');
    await storage().users.setPlatformRole(admin.userId, 'PLATFORM_SUPER_ADMIN');
    const assigned = await app.api.post('/admin/inbound-numbers', { organizationId: tenant.organizationId, channel: 'SMS', address: twilioNumber }, { token: admin.token });
    expect(assigned.status, assigned.text).to.equal(201);
    const infra = await sharedInfrastructure();
    const container = buildWorkerContainer({ ...testConfig(), linkTracking: true }, createLogger('silent'), infra, { providers });
    await loadProviders(container);
    worker = await startWorker(infra.boss, container.getAll(WORKER.handlers), createLogger('silent'));
  });
  after(async () => {
    await worker?.stop();
    if (app) {
      const repo = app.container.get(MESSAGING.providerRepository);
      await repo.upsert({ name: twilioName, vendor: 'twilio-sms', channel: 'SMS', priority: 900, active: false, countries: ['ZZ'], settings: { from: twilioNumber, baseUrl: 'http://127.0.0.1:9' } }, twilio, new Date());
      await app.close();
    }
  });

  it('resumes when the in-app item is marked read through the inbox API, and not for a wrong subscriber', async () => {
    const e = await workflow('wf.wait.read', 'Order {{order}} shipped', [{ type: 'send', channels: ['IN_APP'], fallbackChannels: [] },
      { type: 'wait', for: 'read', timeoutSeconds: 3_600, onEvent: 'end', onTimeout: 'next' }, { type: 'send', channels: ['SMS'], fallbackChannels: [] }]);
    const run = await waitingRun(e.slug, { subscriberId: `reader-${suffix}`, to: '+233241230001', variables: { order: 'R-1' } });
    expect(run.waitingFor).to.equal(`read:reader-${suffix}`);
    const box = (await app.api.post('/inbox/settings/secret', undefined, tenant.auth)).body.data as { appId: string; secret: string };
    const as = (subscriberId: string) => ({ 'x-inbox-app-id': box.appId, 'x-inbox-subscriber-id': subscriberId,
      'x-inbox-subscriber-hash': createHmac('sha256', box.secret).update(subscriberId).digest('hex') });
    const feed = await app.api.get('/inbox/v1/feed', {}, as(`reader-${suffix}`));
    expect(feed.status, feed.text).to.equal(200);
    const item = feed.body.data.items[0];
    expect((await app.api.post('/inbox/v1/mark-all', { mark: 'read' }, {}, as(`someone-else-${suffix}`))).status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await app.api.get(`/workflow-runs/${run.id}`, tenant.auth)).body.data.status).to.equal('WAITING'); // another subscriber's read woke nothing
    const marked = await app.api.post(`/inbox/v1/items/${item.id}/mark`, { mark: 'read' }, {}, as(`reader-${suffix}`));
    expect(marked.status, marked.text).to.equal(200);
    const done = await settled(run.id, (r) => r.status === 'COMPLETED');
    expect(done.status).to.equal('COMPLETED');
    expect(done.timeline.map((s: { outcome: string }) => s.outcome)).to.deep.equal(['SENT', 'EVENT']);
    expect(done.timeline[1].detail.at).to.be.a('string');
  });

  it('resumes on an inbound SMS reply from the recipient through the Twilio webhook', async () => {
    const phone = `+23324${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const e = await workflow('wf.wait.reply', 'Confirm order {{order}}? Reply YES', [{ type: 'send', channels: ['SMS'], fallbackChannels: [] },
      { type: 'wait', for: 'reply', timeoutSeconds: 3_600, onEvent: 'end', onTimeout: 'next' }, { type: 'send', channels: ['SMS'], fallbackChannels: [] }]);
    // A message before the send is no reply to it (it also creates the contact and the conversation: two
    // concurrent first messages of an unknown phone race to create the contact, and one is answered 409 for the vendor to retry).
    expect(await reply(phone, 'hello')).to.equal(200);
    const run = await waitingRun(e.slug, { to: phone, variables: { order: 'P-1' } });
    expect(run.waitingFor).to.equal(`reply:${phone}`);
    expect(run.timeline[1].status).to.equal('WAITING');
    // Two replies at once (two callbacks in parallel): the run goes on once.
    const statuses = await Promise.all(['YES', 'Yes please'].map((body) => reply(phone, body)));
    expect(statuses).to.deep.equal([200, 200]);
    const done = await settled(run.id, (r) => r.status === 'COMPLETED');
    expect(done.timeline.map((s: { outcome: string }) => s.outcome)).to.deep.equal(['SENT', 'EVENT']);
  });

  it('takes the timeout path when no reply comes, and a reply after it changes nothing', async () => {
    const phone = `+23324${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const e = await workflow('wf.wait.timeout', 'Confirm order {{order}}? Reply YES', [{ type: 'send', channels: ['SMS'], fallbackChannels: [] },
      { type: 'wait', for: 'reply', timeoutSeconds: 1, onEvent: 'end', onTimeout: 'next' }, { type: 'send', channels: ['SMS'], fallbackChannels: [] }]);
    const res = await app.api.post('/events/trigger', { event: e.slug, to: phone, variables: { order: 'T-1' } }, tenant.auth);
    expect(res.status, res.text).to.equal(201);
    const done = await settled(res.body.data.id, (r) => r.status === 'COMPLETED');
    expect(done.timeline.map((s: { outcome: string }) => s.outcome)).to.deep.equal(['SENT', 'TIMEOUT', 'SENT']);
    expect(await reply(phone, 'late')).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await app.api.get(`/workflow-runs/${done.id}`, tenant.auth)).body.data.timeline.map((s: { outcome: string }) => s.outcome)).to.deep.equal(['SENT', 'TIMEOUT', 'SENT']);
    expect(done.timeline[2].messageId).to.be.a('string');
  });

  it('resumes on a click of the tracked link in the sent SMS (the redirect), once for two clicks', async () => {
    const e = await workflow('wf.wait.click', 'Track order {{order}}: https://shop.example.com.gh/orders/{{order}}', [{ type: 'send', channels: ['SMS'], fallbackChannels: [] },
      { type: 'wait', for: 'click', timeoutSeconds: 3_600, onEvent: 'end', onTimeout: 'next' }, { type: 'send', channels: ['SMS'], fallbackChannels: [] }]);
    const run = await waitingRun(e.slug, { to: '+233241230003', variables: { order: 'C-1' } });
    const message = await storage().messages.findById(tenant.organizationId, run.timeline[0].messageId);
    const code = /\/l\/([0-9A-Za-z]{12})/.exec(message!.body)![1]!;
    const url = new URL(app.url);
    const hit = () => new Promise<number>((resolve, reject) => {
      http.request({ host: url.hostname, port: url.port, path: `/l/${code}`, headers: { 'user-agent': BROWSER } }, (r) => { r.resume(); resolve(r.statusCode ?? 0); }).on('error', reject).end();
    });
    expect(await hit()).to.equal(302);
    expect(await hit()).to.equal(302);
    await app.container.get(LINKS.redirects).follow.flush();
    const done = await settled(run.id, (r) => r.status === 'COMPLETED');
    expect(done.timeline.map((s: { outcome: string }) => s.outcome)).to.deep.equal(['SENT', 'EVENT']);
    expect(sms.received.filter((m) => m.messageId === run.timeline[0].messageId)).to.have.length(1);
  });
});
