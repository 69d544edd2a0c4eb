import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { AesGcmCredentialCipher } from '../../adapters/security/aes-gcm-credential-cipher.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { testConfig } from '../support/test-config.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/**
 * Verify (issue 18, docs/verify.md) through the real API on the shared database: codes are never
 * answered, checks are counted before they are compared (the attempt limit and single approval hold
 * under concurrency), the SMS-pumping rules refuse before anything is charged.
 */
describe('HTTP: /verify (one-time passcodes)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let tenant: TestTenant;
  let key: string;
  let n = 0;
  /** A new Ghanaian number per test (the per-recipient limit is per hour). */
  const phone = () => `+23320${String(1_000_000 + Math.floor(Math.random() * 8_000_000) + (n += 1)).slice(-7)}`;

  before(async () => {
    app = await startTestApp();
    tenant = await registerTenant(app.api, 'verify');
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 1_000_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    key = (await app.api.post('/api-keys', { name: 'Verify', isSandbox: false, scopes: ['verify:send'] }, tenant.auth)).body.data.key as string;
  });
  after(async () => { await app?.close(); });

  const start = (body: Record<string, unknown>, auth: { apiKey: string } | TestTenant['auth'] = { apiKey: key }) => app.api.post('/verify/start', body, auth);
  const check = (body: Record<string, unknown>) => app.api.post('/verify/check', body, { apiKey: key });
  /**
   * The code, read as delivery reads it (no worker runs here): the stored body is masked, the real text
   * sealed for the provider (tests/http/verify-promises.test.ts follows codes to the phone).
   */
  const sealer = new AesGcmCredentialCipher(testConfig().encryptionKey);
  const codeOf = async (verification: { sends: Array<{ messageId: string }> }) => {
    const message = (await app.container.get(INFRA.storage).messages.findById(tenant.organizationId, verification.sends.at(-1)!.messageId))!;
    expect(message.body).to.not.match(/\d{4,10}/);
    return /(\d{4,10})/.exec((JSON.parse(sealer.decrypt(message.sealedContent!)) as { body: string }).body)![1]!;
  };
  const balance = async () => Math.round((await app.api.get('/billing/wallet', tenant.auth)).body.data.balance * 100);

  it('starts a verification: the passcode goes out as a charged SMS, and the answer never carries the code', async () => {
    const before = await balance();
    const res = await start({ to: phone() });
    expect(res.status, res.text).to.equal(201);
    const v = res.body.data;
    expect(v).to.include({ status: 'PENDING', channel: 'SMS', codeLength: 6, sendAttempts: 1, checkAttempts: 0, maxCheckAttempts: 5 });
    const code = await codeOf(v);
    expect(res.text).to.not.include(code);
    expect(before - await balance()).to.be.greaterThan(0);
    const stored = await app.container.get(INFRA.storage).verifications.findById(tenant.organizationId, v.id);
    expect(JSON.stringify(stored)).to.not.include(`"${code}"`);
    expect(stored!.codeHash).to.match(/^[0-9a-f]{64}$/);
  });

  it('records the passcode message in category OTP, in the delivery logs list and in the message detail (docs/verify.md; issue 35)', async () => {
    // As the dashboard's Verify page starts one (signed in, no API key) and as an integration does (API key).
    for (const auth of [tenant.auth, { apiKey: key }]) {
      const v = (await start({ to: phone() }, auth)).body.data;
      const messageId = (v.sends?.[0]?.messageId ?? v.messageId) as string | undefined;
      const list = (await app.api.get('/delivery-logs?limit=100', tenant.auth)).body.data.items as Array<{ id: string; recipient: string; category: string }>;
      const logged = list.filter((l) => l.recipient === v.to || l.id === messageId);
      expect(logged.length, JSON.stringify(v)).to.be.greaterThan(0);
      for (const l of logged) {
        expect(l.category).to.equal('OTP');
        expect((await app.api.get(`/messages/${l.id}`, tenant.auth)).body.data.category).to.equal('OTP');
      }
    }
  });

  it('approves the right code once; a wrong code counts an attempt; an approved one is not approved again', async () => {
    const v = (await start({ to: phone() })).body.data;
    const code = await codeOf(v);
    const wrong = await check({ id: v.id, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.body.data).to.deep.include({ status: 'PENDING', valid: false, remainingAttempts: 4 });
    const right = await check({ id: v.id, code });
    expect(right.body.data).to.deep.include({ status: 'APPROVED', valid: true });
    const again = await check({ id: v.id, code });
    expect(again.body.data).to.deep.include({ status: 'APPROVED', valid: false });
    const events = await app.container.get(INFRA.storage).outboundEvents.listRecent(tenant.organizationId, 20);
    expect(events.filter((e) => e.kind === 'verification.approved' && e.data['id'] === v.id)).to.have.length(1);
  });

  it('holds the attempt limit under 100 concurrent wrong checks, and then refuses even the right code', async () => {
    const v = (await start({ to: phone() })).body.data;
    const code = await codeOf(v);
    const wrongCode = code === '999999' ? '888888' : '999999';
    const answers = await Promise.all(Array.from({ length: 100 }, () => check({ id: v.id, code: wrongCode })));
    expect(answers.every((a) => a.status === 200 && a.body.data.valid === false)).to.equal(true);
    const stored = await app.container.get(INFRA.storage).verifications.findById(tenant.organizationId, v.id);
    expect(stored).to.include({ checkAttempts: 5, status: 'MAX_ATTEMPTS' });
    expect((await check({ id: v.id, code })).body.data).to.deep.include({ valid: false, status: 'MAX_ATTEMPTS' });
  });

  it('approves a code at most once under concurrent right checks', async () => {
    const v = (await start({ to: phone() })).body.data;
    const code = await codeOf(v);
    const answers = await Promise.all(Array.from({ length: 20 }, () => check({ id: v.id, code })));
    expect(answers.filter((a) => a.body.data.valid === true)).to.have.length(1);
  });

  it('checks by recipient, supersedes the earlier verification of a recipient, and cancels', async () => {
    const to = phone();
    const first = (await start({ to })).body.data;
    const second = (await start({ to })).body.data;
    expect((await app.api.get(`/verify/${first.id}`, { apiKey: key })).body.data.status).to.equal('CANCELED');
    expect((await check({ to, code: await codeOf(first) })).body.data).to.deep.include({ id: second.id, valid: false });
    const canceled = await app.api.post(`/verify/${second.id}/cancel`, {}, { apiKey: key });
    expect(canceled.body.data.status).to.equal('CANCELED');
    expect((await check({ id: second.id, code: await codeOf(second) })).body.data).to.deep.include({ valid: false, status: 'CANCELED' });
    expect((await app.api.post(`/verify/${second.id}/cancel`, {}, { apiKey: key })).status).to.equal(409);
    expect((await check({ to: phone(), code: '123456' })).status).to.equal(404);
  });

  it('answers a retried idempotency key with the first verification, sending and charging once', async () => {
    const idempotencyKey = randomUUID();
    const to = phone();
    const first = await start({ to, idempotencyKey });
    const before = await balance();
    const retried = await start({ to, idempotencyKey });
    expect(retried.status).to.equal(200);
    expect(retried.body.data.id).to.equal(first.body.data.id);
    expect(retried.body.data.sends[0].status, 'a replay shows the send status too').to.equal('QUEUED');
    expect(await balance()).to.equal(before);
  });

  it('refuses a country outside the allowed list (422), charging nothing, until the settings allow it', async () => {
    const before = await balance();
    const refused = await start({ to: '+2348031234567' });
    expect(refused.status).to.equal(422);
    expect(refused.body.error.code).to.equal('VERIFY_COUNTRY_NOT_ALLOWED');
    expect(await balance()).to.equal(before);
    const settings = await app.api.request('PUT', '/verify/settings', { allowedCountries: ['GH', 'NG'] }, tenant.auth);
    expect(settings.body.data.allowedCountries).to.deep.equal(['GH', 'NG']);
    expect((await start({ to: '+2348031234567' })).status).to.equal(201);
  });

  it('rate-limits starts per recipient and per end-user IP with 429 VERIFY_RATE_LIMITED and Retry-After', async () => {
    const to = phone();
    for (let i = 0; i < 5; i++) expect((await start({ to })).status).to.equal(201);
    const sixth = await start({ to });
    expect(sixth.status).to.equal(429);
    expect(sixth.body.error).to.deep.include({ code: 'VERIFY_RATE_LIMITED' });
    expect(sixth.body.error.details.rule).to.equal('recipient');
    expect(Number(sixth.headers.get('retry-after'))).to.be.greaterThan(0);

    await app.api.request('PUT', '/verify/settings', { maxStartsPerIpPerHour: 2 }, tenant.auth);
    const ipAddress = `198.51.100.${Math.floor(Math.random() * 200)}`;
    expect((await start({ to: phone(), ipAddress })).status).to.equal(201);
    expect((await start({ to: phone(), ipAddress })).status).to.equal(201);
    const third = await start({ to: phone(), ipAddress });
    expect(third.status).to.equal(429);
    expect(third.body.error.details.rule).to.equal('ip');
    await app.api.request('PUT', '/verify/settings', { maxStartsPerIpPerHour: 20 }, tenant.auth);
  });

  it('blocks a prefix whose conversion collapsed (SMS pumping), before sending or charging', async () => {
    const other = await registerTenant(app.api, 'verify-pumped');
    await app.container.get(INFRA.storage).wallets.update(other.organizationId, () => ({ amount: 100_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    for (let i = 0; i < 20; i++) expect((await start({ to: `+233277${String(100_000 + i)}` }, other.auth)).status).to.equal(201);
    const wallet = (await app.api.get('/billing/wallet', other.auth)).body.data.balance;
    const blocked = await start({ to: '+233277999999' }, other.auth);
    expect(blocked.status).to.equal(422);
    expect(blocked.body.error.code).to.equal('VERIFY_PREFIX_BLOCKED');
    expect(blocked.body.error.details).to.include({ prefix: '+233277', starts: 20, approvals: 0 });
    expect((await app.api.get('/billing/wallet', other.auth)).body.data.balance).to.equal(wallet);
    // Other prefixes are unaffected.
    expect((await start({ to: '+233244999999' }, other.auth)).status).to.equal(201);
  });

  it('refuses a resend inside the cooldown; refuses an unfunded start with 402 and leaves no verification', async () => {
    const v = (await start({ to: phone() })).body.data;
    const resend = await app.api.post(`/verify/${v.id}/resend`, {}, { apiKey: key });
    expect(resend.status).to.equal(429);
    expect(resend.body.error.code).to.equal('VERIFY_RESEND_COOLDOWN');

    const poor = await registerTenant(app.api, 'verify-poor');
    const refused = await start({ to: phone() }, poor.auth);
    expect(refused.status).to.equal(402);
    expect((await app.api.get('/verify', poor.auth)).body.data.items).to.deep.equal([]);
  });

  it('keeps verifications per organization, needs the verify:send scope, and reports conversion', async () => {
    const v = (await start({ to: phone() })).body.data;
    const other = await registerTenant(app.api, 'verify-other');
    expect((await app.api.get(`/verify/${v.id}`, other.auth)).status).to.equal(404);
    expect((await app.api.post('/verify/check', { id: v.id, code: '123456' }, other.auth)).status).to.equal(404);
    const messagesKey = (await app.api.post('/api-keys', { name: 'Messages only', isSandbox: false }, tenant.auth)).body.data.key as string;
    expect((await start({ to: phone() }, { apiKey: messagesKey })).status).to.equal(403);
    const analytics = await app.api.get('/verify/analytics?days=1', tenant.auth);
    expect(analytics.status).to.equal(200);
    expect(analytics.body.data.starts).to.be.greaterThan(5);
    expect(analytics.body.data.byChannel.find((c: { channel: string }) => c.channel === 'SMS').approvals).to.be.at.least(2);
    // conversionRate is a percentage with one decimal (docs/verify.md, "Analytics"), not a ratio.
    const { starts, approvals, conversionRate } = analytics.body.data as { starts: number; approvals: number; conversionRate: number };
    expect(conversionRate).to.equal(Math.round((approvals / starts) * 1000) / 10);
    expect(conversionRate).to.be.greaterThan(1);
    const listed = await app.api.get('/verify?limit=3', tenant.auth);
    expect(listed.body.data.items).to.have.length(3);
    expect((await app.api.get('/verify?limit=500', tenant.auth)).status).to.equal(400);
  });
});
