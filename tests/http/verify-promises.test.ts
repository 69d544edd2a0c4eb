import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RecordingProvider } from '../../adapters/memory/recording-provider.ts';
import { SandboxProvider } from '../../adapters/providers/sandbox-provider.ts';
import { StaticProviderDirectory } from '../../adapters/providers/static-provider-directory.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import { createLogger } from '../../hosts/logger.ts';
import { loadProviders } from '../../hosts/messaging-bindings.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { buildWorkerContainer, WORKER } from '../../hosts/worker/container.ts';
import { startWorker, type RunningWorker } from '../../hosts/worker/worker.ts';
import { sharedInfrastructure } from '../support/shared-infrastructure.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { testConfig } from '../support/test-config.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * Verify keeps what docs/verify.md promises (issue 28 item 4 and "Verify keeps its documented
 * promises"), through the real API and a real worker on the shared database: a passcode is stored and
 * shown masked in every read path while the phone gets the real code (retries and the voice fallback
 * included); every channel failed makes the verification FAILED at once with verification.failed; a
 * resend on another channel says so; lists carry send statuses; passcodes are OTP messages; sandbox
 * verifications carry their code, live ones never.
 */
describe('HTTP: Verify promises (masked passcodes, failures, channels, sandbox codes)', function () {
  this.timeout(90_000);
  let app: TestApp;
  let worker: RunningWorker;
  let receiver: WebhookReceiver;
  let tenant: TestTenant;
  let live: { apiKey: string };
  let sandbox: { apiKey: string };
  let n = 0;
  const phone = () => `+23320${String(1_000_000 + Math.floor(Math.random() * 8_000_000) + (n += 1)).slice(-7)}`;

  const smsRefuses = new Set<string>();
  const voiceRefuses = new Set<string>();
  const smsUnavailableOnce = new Set<string>();
  const refused: ProviderResult = { accepted: false, retryable: false, errorCode: 'VENDOR_REJECTED', errorMessage: 'destination refused' };
  const accept = (m: OutboundMessage): ProviderResult => ({ accepted: true, providerMessageId: `vp_${m.internalMessageId}`, delivered: false });
  const sms = new RecordingProvider('SMS', 'verify-promises-sms');
  const voice = new RecordingProvider('VOICE', 'verify-promises-voice');
  sms.next = (m) => (smsRefuses.has(m.to) ? refused : smsUnavailableOnce.delete(m.to)
    ? { accepted: false, retryable: true, errorCode: 'VENDOR_UNAVAILABLE', errorMessage: 'try later' } : accept(m));
  voice.next = (m) => (voiceRefuses.has(m.to) ? refused : accept(m));
  const providers = new StaticProviderDirectory([sms, voice], [new SandboxProvider('SMS'), new SandboxProvider('VOICE')]);

  before(async () => {
    app = await startTestApp({ providers });
    const infra = await sharedInfrastructure();
    const container = buildWorkerContainer(testConfig(), createLogger('silent'), infra, { providers });
    await loadProviders(container);
    worker = await startWorker(infra.boss, container.getAll(WORKER.handlers), createLogger('silent'));
    receiver = await startWebhookReceiver();
    tenant = await registerTenant(app.api, 'verify-promises');
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 1_000_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    const key = async (isSandbox: boolean) => ({ apiKey: (await app.api.post('/api-keys', { name: `Verify ${isSandbox}`, isSandbox, scopes: ['verify:send', 'messages:read', 'messages:send'] }, tenant.auth)).body.data.key as string });
    live = await key(false);
    sandbox = await key(true);
    const endpoint = await app.api.post('/webhook-endpoints', { url: receiver.url, events: ['message.status.updated', 'verification.approved', 'verification.failed'] }, tenant.auth);
    expect(endpoint.status, endpoint.text).to.equal(201);
  });
  after(async () => {
    await worker?.stop();
    await receiver?.close();
    await app?.close();
  });

  const start = async (body: Record<string, unknown>, auth = live) => {
    const res = await app.api.post('/verify/start', body, auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data;
  };
  const get = async (id: string, auth: { apiKey: string } = live) => (await app.api.get(`/verify/${id}`, auth)).body.data;
  const check = async (id: string, code: string, auth = live) => (await app.api.post('/verify/check', { id, code }, auth)).body.data;
  const until = async <T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> => {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      const found = await probe();
      if (found) return found;
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  /** What the phone got for a send: the text the provider received, and the code in it. */
  const delivered = async (messageId: string, length = 6) => {
    const got = await until(`message ${messageId} at a provider`, async () => [...sms.received, ...voice.received].findLast((m) => m.messageId === messageId));
    const digits = got.channel === 'VOICE' ? (got.body.match(/\d/g) ?? []).join('').slice(0, length) : new RegExp(`\\b(\\d{${length}})\\b`).exec(got.body)?.[1] ?? '';
    expect(digits).to.have.length(length);
    return { text: got.body, code: digits };
  };
  const lastSend = (v: { sends: Array<{ messageId: string }> }) => v.sends.at(-1)!.messageId;
  const events = async (kind: string, id: string) => (await app.container.get(INFRA.storage).outboundEvents.listRecent(tenant.organizationId, 200))
    .filter((e) => e.kind === kind && e.data['id'] === id);
  const skipCooldown = (id: string) => app.container.get(INFRA.database).em().execute("update verifications set last_sent_at = last_sent_at - interval '31 seconds' where id = ?", [id]);

  it('stores and shows a passcode masked in the message, the delivery-log list, the CSV export and webhooks, while the phone gets the real code', async () => {
    const v = await start({ to: phone() });
    const messageId = lastSend(v);
    const { code, text } = await delivered(messageId);
    expect(text).to.equal(`Your verification code is ${code}. It expires in 10 minutes. Do not share it with anyone.`);
    await until('the passcode SENT', async () => (await get(v.id)).sends[0].status === 'SENT');

    const detail = await app.api.get(`/messages/${messageId}`, live);
    expect(detail.status, detail.text).to.equal(200);
    expect(detail.body.data).to.include({ category: 'OTP', body: 'Your verification code is ******. It expires in 10 minutes. Do not share it with anyone.' });
    expect(detail.text).to.not.include(code);
    const list = await app.api.get('/delivery-logs?limit=100', tenant.auth);
    expect(list.text).to.include(messageId).and.not.include(code);
    const csv = await app.api.get('/delivery-logs/export', tenant.auth);
    expect(csv.status).to.equal(200);
    expect(csv.text).to.include(messageId).and.not.include(code);
    const stored = (await app.container.get(INFRA.storage).messages.findById(tenant.organizationId, messageId))!;
    expect(JSON.stringify(stored)).to.not.include(code);
    expect(stored.sealedContent ?? null, 'the sealed text is gone once sent').to.equal(null);
    expect(JSON.stringify(await get(v.id))).to.not.include(code);

    expect(await check(v.id, code)).to.deep.include({ valid: true, status: 'APPROVED' });
    await until('the webhooks', async () => receiver.received.some((r) => r.rawBody.toString().includes('verification.approved') && r.rawBody.toString().includes(v.id))
      && receiver.received.some((r) => r.rawBody.toString().includes('message.status.updated') && r.rawBody.toString().includes(messageId)));
    for (const r of receiver.received) expect(r.rawBody.toString()).to.not.include(code);
  });

  it('delivers the right code after a failed attempt is retried, and through the voice fallback when the SMS fails', async () => {
    const retried = phone();
    smsUnavailableOnce.add(retried);
    const v = await start({ to: retried });
    await until('the retried attempt', async () => sms.received.filter((m) => m.messageId === lastSend(v)).length === 2);
    await until('the passcode SENT', async () => (await get(v.id)).sends[0].status === 'SENT');
    const { code } = await delivered(lastSend(v));
    expect(await check(v.id, code)).to.deep.include({ valid: true });

    const to = phone();
    smsRefuses.add(to);
    const fallback = await start({ to, channels: ['SMS', 'VOICE'] });
    const moved = await until('the voice fallback', async () => { const x = await get(fallback.id); return x.sends.length === 2 ? x : null; }, 20_000);
    expect(moved).to.include({ channel: 'VOICE', status: 'PENDING' });
    const spoken = await delivered(lastSend(moved));
    expect(spoken.text).to.match(/^Your verification code is: (\d\. ){6}Again: (\d\. ){5}\d\.$/);
    expect((await app.api.get(`/messages/${lastSend(moved)}`, live)).body.data.body).to.equal('Your verification code is: *. *. *. *. *. *. Again: *. *. *. *. *. *.');
    expect(await check(fallback.id, spoken.code)).to.deep.include({ valid: true, status: 'APPROVED' });
  });

  it('fails a verification at once when every channel failed, announcing verification.failed once', async () => {
    const to = phone();
    smsRefuses.add(to);
    voiceRefuses.add(to);
    const v = await start({ to, channels: ['SMS', 'VOICE'], fallbackAfterSeconds: 600 });
    const failed = await until('FAILED', async () => { const x = await get(v.id); return x.status === 'FAILED' ? x : null; }, 20_000);
    expect(failed.sends.map((s: { channel: string; status: string }) => [s.channel, s.status])).to.deep.equal([['SMS', 'FAILED'], ['VOICE', 'FAILED']]);
    await until('verification.failed', async () => (await events('verification.failed', v.id)).length > 0);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await events('verification.failed', v.id)).to.have.length(1);
    // One channel only: its failure is the end too.
    const single = phone();
    smsRefuses.add(single);
    const alone = await start({ to: single });
    await until('FAILED (one channel)', async () => (await get(alone.id)).status === 'FAILED', 20_000);
  });

  it('says VOICE after a resend on VOICE, and the voice code is the valid one', async () => {
    const v = await start({ to: phone() });
    const first = await delivered(lastSend(v));
    await skipCooldown(v.id);
    const resent = await app.api.post(`/verify/${v.id}/resend`, { channel: 'VOICE' }, live);
    expect(resent.status, resent.text).to.equal(200);
    expect(resent.body.data).to.include({ channel: 'VOICE', sendAttempts: 2 });
    expect(resent.body.data.channels).to.deep.equal(['SMS', 'VOICE']);
    expect(resent.body.data.sends.map((s: { channel: string }) => s.channel)).to.deep.equal(['SMS', 'VOICE']);
    expect((await get(v.id)).channel).to.equal('VOICE');
    const spoken = await delivered(lastSend(resent.body.data));
    if (spoken.code !== first.code) expect(await check(v.id, first.code)).to.deep.include({ valid: false });
    expect(await check(v.id, spoken.code)).to.deep.include({ valid: true, status: 'APPROVED' });
  });

  it('lists verifications with their sends\' statuses', async () => {
    const v = await start({ to: phone() });
    await until('SENT', async () => (await get(v.id)).sends[0].status === 'SENT');
    const listed = await app.api.get('/verify?limit=100', tenant.auth);
    const item = listed.body.data.items.find((x: { id: string }) => x.id === v.id);
    expect(item.sends[0]).to.include({ status: 'SENT', messageId: lastSend(v) });
    expect(listed.body.data.items.every((x: { sends: Array<{ status: unknown }> }) => x.sends.every((s) => typeof s.status === 'string'))).to.equal(true);
  });

  it('sends passcodes as OTP messages: charged at the channel price, never held by quiet hours', async () => {
    const now = new Date();
    const hhmm = (d: Date) => `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
    const quiet = await app.api.patch('/organizations/current', { quietHours: { start: hhmm(new Date(now.getTime() - 3_600_000)), end: hhmm(new Date(now.getTime() + 3_600_000)) } }, tenant.auth);
    expect(quiet.status, quiet.text).to.equal(200);
    try {
      const reminder = await app.api.post('/messages/send', { channel: 'SMS', to: phone(), body: 'Your appointment is tomorrow', category: 'REMINDER', async: true }, live);
      expect(reminder.body.data?.status ?? reminder.text).to.equal('SCHEDULED'); // quiet hours are in force
      const v = await start({ to: phone() });
      const log = (await app.api.get(`/messages/${lastSend(v)}`, live)).body.data;
      expect(log).to.include({ category: 'OTP', scheduledAt: null, segments: 1 });
      expect(log.status).to.not.equal('SCHEDULED');
      expect(log.cost).to.be.greaterThan(0);
      await delivered(lastSend(v));
    } finally {
      await app.api.patch('/organizations/current', { quietHours: null }, tenant.auth);
    }
  });

  it('answers a sandbox verification\'s code on the verification (start, get, list, resend), never a live one\'s, never in webhooks', async () => {
    const v = await start({ to: phone() }, sandbox);
    expect(v.sandboxCode).to.match(/^\d{6}$/);
    expect((await get(v.id, sandbox)).sandboxCode).to.equal(v.sandboxCode);
    const stored = (await app.container.get(INFRA.storage).messages.findById(tenant.organizationId, lastSend(v)))!;
    expect(stored.body).to.not.include(v.sandboxCode);
    await skipCooldown(v.id);
    const resent = (await app.api.post(`/verify/${v.id}/resend`, {}, sandbox)).body.data;
    expect(resent.sandboxCode).to.match(/^\d{6}$/);
    const listed = (await app.api.get('/verify?limit=100', tenant.auth)).body.data.items.find((x: { id: string }) => x.id === v.id);
    expect(listed.sandboxCode).to.equal(resent.sandboxCode);
    if (resent.sandboxCode !== v.sandboxCode) expect(await check(v.id, v.sandboxCode, sandbox)).to.deep.include({ valid: false });
    expect(await check(v.id, resent.sandboxCode, sandbox)).to.deep.include({ valid: true, status: 'APPROVED' });
    const approved = await until('verification.approved', async () => (await events('verification.approved', v.id))[0]);
    expect(approved.data).to.not.have.property('sandboxCode');

    const liveOne = await start({ to: phone() });
    expect(liveOne).to.not.have.property('sandboxCode');
    expect(await get(liveOne.id)).to.not.have.property('sandboxCode');
  });
});
