import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';

describe('HTTP: /admin (platform administration)', () => {
  let app: TestApp;
  let admin: { token: string; userId: string };
  let tenant: TestTenant;
  let other: TestTenant;

  const storage = () => app.container.get(INFRA.storage);

  async function credit(organizationId: string, pesewas: number) {
    await storage().wallets.update(organizationId, () => ({ amount: pesewas, kind: 'TOP_UP', reference: randomUUID(), description: 'test top-up' }), new Date());
  }

  async function marketingTemplate(owner: TestTenant, body = 'Sale this weekend. Reply STOP to opt out') {
    const res = await app.api.post('/templates', { name: 'Promo', channel: 'SMS', category: 'MARKETING', body }, owner.auth);
    expect(res.status, res.text).to.equal(201);
    return res.body.data as { id: string; approvalRequestId: string };
  }

  async function auditActions(organizationId: string) {
    const res = await app.api.get(`/admin/audit-log?organizationId=${organizationId}`, { token: admin.token });
    expect(res.status, res.text).to.equal(200);
    return res.body.data.items as Array<{ action: string; actorUserId: string; impersonatorUserId: string | null; target: string; details: Record<string, unknown>; createdAt: string }>;
  }

  before(async () => {
    app = await startTestApp();
    const user = await registerUser(app.api, 'platform-admin');
    await storage().users.setPlatformRole(user.userId, 'PLATFORM_SUPER_ADMIN');
    admin = { token: user.token, userId: user.userId };
    tenant = await registerTenant(app.api, 'admin-tenant');
    other = await registerTenant(app.api, 'admin-other');
  });
  after(async () => { await app.close(); });

  describe('access', () => {
    const routes: Array<[string, string]> = [
      ['GET', '/admin/revenue'], ['GET', '/admin/tenants'], ['GET', '/admin/approvals'], ['GET', '/admin/audit-log'],
      ['POST', '/admin/tenants/x/pause'], ['POST', '/admin/tenants/x/resume'], ['POST', '/admin/tenants/x/impersonate'],
      ['POST', '/admin/approvals/x/approve'], ['POST', '/admin/approvals/x/reject'],
    ];
    it('answers 403 FORBIDDEN to a tenant owner on every admin route, and 401 without a token', async () => {
      for (const [method, path] of routes) {
        const res = await app.api.request(method, path, method === 'POST' ? {} : undefined, { token: tenant.token, organizationId: tenant.organizationId });
        expect(res.status, `${method} ${path}`).to.equal(403);
        expect(res.body.error.code).to.equal('FORBIDDEN');
        expect((await app.api.request(method, path, undefined)).status, `${method} ${path}`).to.equal(401);
      }
    });
  });

  describe('revenue and tenants', () => {
    it('GET /admin/revenue sums top-ups, usage (debits minus refunds), messages and wallet balances', async () => {
      const before = (await app.api.get('/admin/revenue', { token: admin.token })).body.data;
      const payer = await registerTenant(app.api, 'revenue');
      await credit(payer.organizationId, 10_000);
      await storage().wallets.update(payer.organizationId, () => ({ amount: -300, kind: 'DEBIT', reference: randomUUID(), description: 'd' }), new Date());
      await storage().wallets.update(payer.organizationId, () => ({ amount: 100, kind: 'REFUND', reference: randomUUID(), description: 'r' }), new Date());
      const res = await app.api.get('/admin/revenue', { token: admin.token });
      expect(res.status, res.text).to.equal(200);
      const after = res.body.data;
      expect(after.currency).to.equal('GHS');
      expect(+(after.totalRevenue - before.totalRevenue).toFixed(2)).to.equal(100);
      expect(+(after.revenue.usage - before.revenue.usage).toFixed(2)).to.equal(2);
      expect(+(after.walletBalances.total - before.walletBalances.total).toFixed(2)).to.equal(98);
      expect(after.walletBalances.wallets - before.walletBalances.wallets).to.equal(1);
      expect(after.messageCount).to.be.a('number');
    });

    it('GET /admin/tenants pages and searches tenants with wallet balance and member count', async () => {
      const label = `searchable-${randomUUID().slice(0, 6)}`;
      const found = await registerTenant(app.api, label);
      await credit(found.organizationId, 2_550);
      const res = await app.api.get(`/admin/tenants?search=${label.toUpperCase()}`, { token: admin.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.include({ page: 1, limit: 20, total: 1, totalPages: 1 });
      expect(res.body.data.items[0]).to.deep.include({ id: found.organizationId, name: `Org ${label}`, paused: false, memberCount: 1, wallet: { balance: 25.5, currency: 'GHS' } });
      const byId = await app.api.get(`/admin/tenants?search=${found.organizationId}`, { token: admin.token });
      expect(byId.body.data.items.map((t: { id: string }) => t.id)).to.deep.equal([found.organizationId]);
      const page = await app.api.get('/admin/tenants?limit=2&page=1', { token: admin.token });
      expect(page.body.data.items).to.have.length(2);
      expect(page.body.data.total).to.be.at.least(3);
      const bad = await app.api.get('/admin/tenants?limit=500', { token: admin.token });
      expect(bad.status).to.equal(400);
      expect(bad.body.error.code).to.equal('VALIDATION_ERROR');
    });
  });

  describe('pause and resume', () => {
    it('rejects every send of a paused tenant with FRAUD_TENANT_PAUSED, sends again after resume, audited', async () => {
      const paused = await registerTenant(app.api, 'paused');
      const key = (await app.api.post('/api-keys', { name: 'k' }, paused.auth)).body.data.key as string;
      const res = await app.api.post(`/admin/tenants/${paused.organizationId}/pause`, { reason: 'chargebacks' }, { token: admin.token });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.include({ id: paused.organizationId, paused: true });

      const single = await app.api.post('/messages/send', { channel: 'SMS', to: '+233241234567', body: 'Hi' }, { apiKey: key });
      expect(single.body.data).to.include({ status: 'REJECTED', errorCode: 'FRAUD_TENANT_PAUSED' });
      const queued = await app.api.post('/messages/send', { channel: 'SMS', to: '+233241234571', body: 'Hi', async: true }, { apiKey: key });
      expect(queued.body.data, queued.text).to.include({ status: 'REJECTED', errorCode: 'FRAUD_TENANT_PAUSED' });
      const asMember = await app.api.post('/messages/send', { channel: 'SMS', to: '+233241234572', body: 'Hi' }, paused.auth);
      expect(asMember.body.data, asMember.text).to.include({ status: 'REJECTED', errorCode: 'FRAUD_TENANT_PAUSED' });
      const bulk = await app.api.post('/messages/bulk', { messages: [{ channel: 'SMS', to: '+233241234568', body: 'a' }, { channel: 'WHATSAPP', to: '+233241234570', body: 'b' }] }, { apiKey: key });
      expect(bulk.status, bulk.text).to.equal(201);
      expect(bulk.body.data.map((m: { errorCode: string }) => m.errorCode)).to.deep.equal(['FRAUD_TENANT_PAUSED', 'FRAUD_TENANT_PAUSED']);

      expect((await app.api.post(`/admin/tenants/${paused.organizationId}/resume`, undefined, { token: admin.token })).body.data.paused).to.equal(false);
      const resumed = await app.api.post('/messages/send', { channel: 'SMS', to: '+233241234569', body: 'Hi' }, { apiKey: key });
      expect(resumed.body.data.status).to.not.equal('REJECTED');

      const actions = await auditActions(paused.organizationId);
      expect(actions.map((a) => a.action)).to.include.members(['tenant.pause', 'tenant.resume']);
      const pause = actions.find((a) => a.action === 'tenant.pause')!;
      expect(pause).to.deep.include({ actorUserId: admin.userId, impersonatorUserId: null, target: `organization:${paused.organizationId}`, details: { reason: 'chargebacks' } });
    });

    it('answers 404 for an unknown tenant', async () => {
      const res = await app.api.post('/admin/tenants/no-such-org/pause', undefined, { token: admin.token });
      expect(res.status).to.equal(404);
      expect(res.body.error.code).to.equal('NOT_FOUND');
      expect((await app.api.post('/admin/tenants/no-such-org/resume', undefined, { token: admin.token })).status).to.equal(404);
    });
  });

  describe('approvals', () => {
    it('lists pending approvals with content and compliance result; approving makes the template APPROVED and is audited', async () => {
      const template = await marketingTemplate(tenant, 'You have won a prize! Reply STOP to opt out');
      const blocked = await app.api.post('/messages/send', { channel: 'SMS', to: '+233241234573', templateId: template.id }, tenant.auth);
      expect(blocked.status).to.equal(422);
      expect(blocked.body.error.code).to.equal('TEMPLATE_NOT_APPROVED');
      const list = await app.api.get('/admin/approvals', { token: admin.token });
      expect(list.status).to.equal(200);
      const item = list.body.data.find((a: { id: string }) => a.id === template.approvalRequestId);
      expect(item).to.deep.include({ organizationId: tenant.organizationId, kind: 'TEMPLATE', subjectId: template.id, status: 'PENDING' });
      expect(item.content).to.include({ body: 'You have won a prize! Reply STOP to opt out', category: 'MARKETING' });
      expect(item.compliance.issues.map((i: { ruleId: string }) => i.ruleId)).to.deep.equal(['spam.prize']);
      expect(item.compliance).to.include({ riskScore: 20, requiresApproval: false });

      const approved = await app.api.post(`/admin/approvals/${template.approvalRequestId}/approve`, undefined, { token: admin.token });
      expect(approved.status, approved.text).to.equal(200);
      expect(approved.body.data).to.include({ id: template.approvalRequestId, status: 'APPROVED', decidedByUserId: admin.userId });
      expect(approved.body.data.decidedAt).to.be.a('string');
      const stored = await app.api.get(`/templates/${template.id}`, tenant.auth);
      expect(stored.body.data.status).to.equal('APPROVED');
      // Approval unblocks sending with the template.
      await credit(tenant.organizationId, 1_000);
      const sent = await app.api.post('/messages/send', { channel: 'SMS', to: '+233241234573', templateId: template.id }, tenant.auth);
      expect(sent.status, sent.text).to.equal(201);
      expect(sent.body.data.status).to.not.equal('REJECTED');
      expect((await app.api.get('/admin/approvals', { token: admin.token })).body.data.map((a: { id: string }) => a.id)).to.not.include(template.approvalRequestId);

      const entry = (await auditActions(tenant.organizationId)).find((a) => a.target === `approval:${template.approvalRequestId}`);
      expect(entry).to.deep.include({ action: 'approval.approve', actorUserId: admin.userId });
      expect(entry!.createdAt).to.be.a('string');
    });

    it('rejecting sets the template REJECTED with the comment, which the tenant sees; deciding twice is 409', async () => {
      const template = await marketingTemplate(tenant);
      const rejected = await app.api.post(`/admin/approvals/${template.approvalRequestId}/reject`, { comment: 'Name the offer terms' }, { token: admin.token });
      expect(rejected.status, rejected.text).to.equal(200);
      expect(rejected.body.data).to.include({ status: 'REJECTED', comment: 'Name the offer terms' });
      expect((await app.api.get(`/templates/${template.id}`, tenant.auth)).body.data).to.include({ status: 'REJECTED', reviewComment: 'Name the offer terms' });
      const outcomes = await app.api.get('/compliance/approvals', tenant.auth);
      expect(outcomes.body.data.find((a: { id: string }) => a.id === template.approvalRequestId)).to.include({ status: 'REJECTED', comment: 'Name the offer terms' });
      expect((await auditActions(tenant.organizationId)).map((a) => a.action)).to.include('approval.reject');

      const again = await app.api.post(`/admin/approvals/${template.approvalRequestId}/approve`, undefined, { token: admin.token });
      expect(again.status).to.equal(409);
      expect(again.body.error.code).to.equal('CONFLICT');
    });

    it('rejects without a comment; unknown ids answer 404 NOT_FOUND; a bad comment 400', async () => {
      const template = await marketingTemplate(tenant);
      const res = await app.api.post(`/admin/approvals/${template.approvalRequestId}/reject`, undefined, { token: admin.token });
      expect(res.status).to.equal(200);
      expect(res.body.data).to.include({ status: 'REJECTED', comment: null });
      for (const verb of ['approve', 'reject']) {
        const missing = await app.api.post(`/admin/approvals/${randomUUID()}/${verb}`, {}, { token: admin.token });
        expect(missing.status).to.equal(404);
        expect(missing.body.error.code).to.equal('NOT_FOUND');
      }
      const bad = await app.api.post(`/admin/approvals/${randomUUID()}/reject`, { comment: 42 }, { token: admin.token });
      expect(bad.status).to.equal(400);
      expect(bad.body.error.code).to.equal('VALIDATION_ERROR');
    });

    it('decides a CAMPAIGN request by updating the request record only', async () => {
      const id = randomUUID();
      await storage().approvals.insert({
        id, organizationId: tenant.organizationId, kind: 'CAMPAIGN', subjectId: randomUUID(), status: 'PENDING',
        content: { name: 'Launch', body: 'New shop', compliance: { riskScore: 40, issues: [], requiresApproval: true, category: 'MARKETING' } },
        requestedByUserId: tenant.userId, decidedByUserId: null, decidedAt: null, comment: null, createdAt: new Date(),
      });
      const listed = (await app.api.get('/admin/approvals', { token: admin.token })).body.data.find((a: { id: string }) => a.id === id);
      expect(listed.compliance.riskScore).to.equal(40);
      const res = await app.api.post(`/admin/approvals/${id}/reject`, { comment: 'Too risky' }, { token: admin.token });
      expect(res.status).to.equal(200);
      expect(await storage().approvals.findById(id)).to.deep.include({ status: 'REJECTED', comment: 'Too risky', decidedByUserId: admin.userId });
    });
  });

  describe('impersonation', () => {
    it('issues a 30-minute token scoped to the tenant, acting as TENANT_ADMIN there, with writes audited', async () => {
      const res = await app.api.post(`/admin/tenants/${tenant.organizationId}/impersonate`, undefined, { token: admin.token });
      expect(res.status, res.text).to.equal(200);
      const data = res.body.data;
      expect(data).to.include({ expiresInSeconds: 1800, impersonatorId: admin.userId });
      expect(data.organization).to.include({ id: tenant.organizationId });
      const lifetime = new Date(data.expiresAt).getTime() - Date.now();
      expect(lifetime).to.be.within(1790_000, 1801_000);
      const as = { token: data.token as string, organizationId: tenant.organizationId };

      expect((await app.api.get('/organizations/current', as)).status).to.equal(200);
      const me = await app.api.get('/auth/me', { token: as.token });
      expect(me.body.data.impersonatorId).to.equal(admin.userId);

      const created = await app.api.post('/compliance/suppression', { phone: '0249998888' }, as);
      expect(created.status).to.equal(201);
      const failed = await app.api.post('/compliance/suppression', {}, as);
      expect(failed.status).to.equal(400);

      const entries = await auditActions(tenant.organizationId);
      expect(entries.map((e) => e.action)).to.include('tenant.impersonate');
      const writes = entries.filter((e) => e.action === 'impersonation.request');
      expect(writes.map((e) => [e.target, e.details['status']])).to.deep.include.members([['POST /compliance/suppression', 201], ['POST /compliance/suppression', 400]]);
      expect(writes[0]).to.deep.include({ actorUserId: admin.userId, impersonatorUserId: admin.userId });
      // Reads are not audited.
      expect(entries.filter((e) => e.action === 'impersonation.request' && e.target.startsWith('GET'))).to.deep.equal([]);
    });

    it('refuses the impersonation token on another organization (403) and on admin routes (403)', async () => {
      const token = (await app.api.post(`/admin/tenants/${tenant.organizationId}/impersonate`, undefined, { token: admin.token })).body.data.token as string;
      const elsewhere = await app.api.get('/organizations/current', { token, organizationId: other.organizationId });
      expect(elsewhere.status).to.equal(403);
      expect(elsewhere.body.error.code).to.equal('FORBIDDEN');
      for (const path of ['/admin/revenue', '/admin/tenants', '/admin/approvals']) {
        const res = await app.api.get(path, { token });
        expect(res.status, path).to.equal(403);
      }
      const nested = await app.api.post(`/admin/tenants/${other.organizationId}/impersonate`, undefined, { token });
      expect(nested.status).to.equal(403);
    });

    it('POST /admin/exit-impersonation returns a fresh administrator token; without impersonation 400 NOT_IMPERSONATING', async () => {
      const token = (await app.api.post(`/admin/tenants/${tenant.organizationId}/impersonate`, undefined, { token: admin.token })).body.data.token as string;
      const exit = await app.api.post('/admin/exit-impersonation', undefined, { token });
      expect(exit.status, exit.text).to.equal(200);
      expect(exit.body.data.userId).to.equal(admin.userId);
      const restored = exit.body.data.token as string;
      expect((await app.api.get('/admin/revenue', { token: restored })).status).to.equal(200);
      // The impersonation token ends with the exit: refused at once, everywhere.
      const reused = await app.api.get('/organizations/current', { token, organizationId: tenant.organizationId });
      expect(reused.status).to.equal(401);
      expect(reused.body.error.code).to.equal('UNAUTHORIZED');
      expect((await auditActions(tenant.organizationId)).map((e) => e.action)).to.include('tenant.impersonate.exit');

      const notImpersonating = await app.api.post('/admin/exit-impersonation', undefined, { token: restored });
      expect(notImpersonating.status).to.equal(400);
      expect(notImpersonating.body.error.code).to.equal('NOT_IMPERSONATING');
      const tenantToo = await app.api.post('/admin/exit-impersonation', undefined, { token: tenant.token });
      expect(tenantToo.status).to.equal(400);
      expect(tenantToo.body.error.code).to.equal('NOT_IMPERSONATING');
    });

    it('answers 404 for an unknown tenant and ends the session when the administrator loses the role', async () => {
      const missing = await app.api.post('/admin/tenants/no-such-org/impersonate', undefined, { token: admin.token });
      expect(missing.status).to.equal(404);
      expect(missing.body.error.code).to.equal('NOT_FOUND');

      const former = await registerUser(app.api, 'former-admin');
      await storage().users.setPlatformRole(former.userId, 'PLATFORM_SUPER_ADMIN');
      const token = (await app.api.post(`/admin/tenants/${tenant.organizationId}/impersonate`, undefined, { token: former.token })).body.data.token as string;
      await storage().users.setPlatformRole(former.userId, null);
      expect((await app.api.get('/organizations/current', { token, organizationId: tenant.organizationId })).status).to.equal(401);
    });
  });

  describe('audit log', () => {
    it('is newest first and bounded, and its cursor walks every entry exactly once', async () => {
      const org = await registerTenant(app.api, 'audit-walk');
      for (let i = 0; i < 5; i += 1) {
        await app.api.post(`/admin/tenants/${org.organizationId}/${i % 2 === 0 ? 'pause' : 'resume'}`, undefined, { token: admin.token });
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `/admin/audit-log?limit=2&organizationId=${org.organizationId}${cursor ? `&cursor=${cursor}` : ''}`;
        const page = await app.api.get(query, { token: admin.token });
        expect(page.status, page.text).to.equal(200);
        expect(page.body.data.items.length).to.be.at.most(2);
        seen.push(...page.body.data.items.map((e: { id: string }) => e.id));
        cursor = page.body.data.nextCursor;
      } while (cursor);
      expect(seen).to.have.length(5);
      expect(new Set(seen).size).to.equal(5);
      const all = (await app.api.get(`/admin/audit-log?organizationId=${org.organizationId}`, { token: admin.token })).body.data.items;
      expect(all.map((e: { id: string }) => e.id)).to.deep.equal(seen);
      expect(all.map((e: { action: string }) => e.action)).to.deep.equal(['tenant.pause', 'tenant.resume', 'tenant.pause', 'tenant.resume', 'tenant.pause']);
    });

    it('answers 400 VALIDATION_ERROR for a limit above 200 or a forged cursor', async () => {
      expect((await app.api.get('/admin/audit-log?limit=201', { token: admin.token })).status).to.equal(400);
      const forged = await app.api.get('/admin/audit-log?cursor=yesterday', { token: admin.token });
      expect(forged.status).to.equal(400);
      expect(forged.body.error.details.fieldErrors).to.have.property('cursor');
    });
  });
});
