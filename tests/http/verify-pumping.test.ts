import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';

/**
 * Verify pumping (issue 28 item 8, docs/verify.md): the per-IP rule counts one address however it is
 * written (and an IPv6 /64 as one), malformed addresses are refused, and the organization's hourly start
 * budget holds under concurrency with one `verification.budget_exceeded` alert per window.
 */
describe('HTTP: /verify/start pumping rules', function () {
  this.timeout(120_000);
  let app: TestApp;
  let n = 0;
  const phone = (prefix = '20') => `+233${prefix}${String(1_000_000 + Math.floor(Math.random() * 8_000_000) + (n += 1)).slice(-7)}`;

  before(async () => { app = await startTestApp(); });
  after(async () => { await app?.close(); });

  async function tenantWithKey(name: string): Promise<{ tenant: TestTenant; key: string }> {
    const tenant = await registerTenant(app.api, name);
    await app.container.get(INFRA.storage).wallets.update(tenant.organizationId, () => ({ amount: 1_000_000, kind: 'TOP_UP', reference: `seed-${randomUUID()}`, description: 'seed' }), new Date());
    const key = (await app.api.post('/api-keys', { name: 'Verify', isSandbox: false, scopes: ['verify:send'] }, tenant.auth)).body.data.key as string;
    return { tenant, key };
  }

  it('counts one IPv4 address however it is written (leading zeros, IPv4-mapped IPv6)', async () => {
    const { tenant, key } = await tenantWithKey('verify-ip-spelling');
    expect((await app.api.request('PUT', '/verify/settings', { maxStartsPerIpPerHour: 2 }, tenant.auth)).status).to.equal(200);
    const spellings = ['203.0.113.7', '203.000.113.007', '::ffff:203.0.113.7', '::FFFF:cb00:7107'];
    const answers = [];
    for (const ipAddress of spellings) answers.push(await app.api.post('/verify/start', { to: phone(), ipAddress }, { apiKey: key }));
    expect(answers.map((r) => r.status)).to.deep.equal([201, 201, 429, 429]);
    expect(answers[2]!.body.error.details.rule).to.equal('ip');
  });

  it('counts rotating IPv6 addresses of one /64 as one client', async () => {
    const { tenant, key } = await tenantWithKey('verify-ip-v6');
    await app.api.request('PUT', '/verify/settings', { maxStartsPerIpPerHour: 2 }, tenant.auth);
    const statuses = [];
    for (let i = 1; i <= 4; i++) statuses.push((await app.api.post('/verify/start', { to: phone(), ipAddress: `2001:db8:7:8:${i}::${i}` }, { apiKey: key })).status);
    expect(statuses).to.deep.equal([201, 201, 429, 429]);
    expect((await app.api.post('/verify/start', { to: phone(), ipAddress: '2001:db8:7:9::1' }, { apiKey: key })).status).to.equal(201);
  });

  it('refuses a malformed address with 400 VALIDATION_ERROR', async () => {
    const { key } = await tenantWithKey('verify-ip-bad');
    for (const ipAddress of ['203.0.113.256', '1.2.3', '2001:db8::1::2', '0x7f.0.0.1', '::ffff:1.2.3']) {
      const res = await app.api.post('/verify/start', { to: phone(), ipAddress }, { apiKey: key });
      expect(res.status, ipAddress).to.equal(400);
      expect(res.body.error.code).to.equal('VALIDATION_ERROR');
      expect(res.body.error.details.fieldErrors).to.have.property('ipAddress');
    }
  });

  it('holds the organization budget under 54 concurrent starts to 54 prefixes and alerts once per window', async () => {
    const { tenant, key } = await tenantWithKey('verify-budget');
    expect((await app.api.get('/verify/settings', tenant.auth)).body.data.maxStartsPerHour).to.equal(1000);
    expect((await app.api.request('PUT', '/verify/settings', { maxStartsPerHour: 10, prefixBlocking: false }, tenant.auth)).status).to.equal(200);
    const prefixes = ['20', '24', '26', '27', '50', '54'].flatMap((p) => Array.from({ length: 9 }, (_, d) => `${p}${d + 1}`));
    const answers = await Promise.all(prefixes.map((p, i) => app.api.post('/verify/start', { to: `+233${p}${String(100_000 + i)}`, ipAddress: `198.51.${i}.1` }, { apiKey: key })));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).to.have.length(10);
    expect(statuses.filter((s) => s === 429)).to.have.length(44);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.body.error.details).to.include({ rule: 'organization', limit: 10 });
    expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
    const alerts = (await app.container.get(INFRA.storage).outboundEvents.listRecent(tenant.organizationId, 100)).filter((e) => e.kind === 'verification.budget_exceeded');
    expect(alerts).to.have.length(1);
    expect(alerts[0]!.data).to.include({ limit: 10, windowSeconds: 3600 });
    // Another organization's budget is its own.
    const other = await tenantWithKey('verify-budget-other');
    expect((await app.api.post('/verify/start', { to: phone() }, { apiKey: other.key })).status).to.equal(201);
  });
});
