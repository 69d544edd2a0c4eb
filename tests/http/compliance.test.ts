import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { MemberRole } from '../../core/domain/roles.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, type TestTenant } from '../support/tenants.ts';

describe('HTTP: /compliance', () => {
  let app: TestApp;
  let owner: TestTenant;
  let other: TestTenant;

  async function memberWithRole(role: MemberRole, tenant = owner) {
    const user = await registerUser(app.api, role.toLowerCase());
    await app.container.get(INFRA.storage).memberships.insert({
      id: randomUUID(), organizationId: tenant.organizationId, userId: user.userId, role, createdAt: new Date(),
    });
    return { token: user.token, organizationId: tenant.organizationId };
  }

  before(async () => {
    app = await startTestApp();
    owner = await registerTenant(app.api, 'compliance');
    other = await registerTenant(app.api, 'compliance-other');
  });
  after(async () => { await app.close(); });

  describe('POST /compliance/check-message', () => {
    it('answers 200 with the risk score, issues and approval requirement (category defaults to MARKETING)', async () => {
      const res = await app.api.post('/compliance/check-message', { message: 'You have won! Send your PIN to claim at bit.ly/x' }, owner.auth);
      expect(res.status, res.text).to.equal(200);
      const data = res.body.data;
      expect(data.category).to.equal('MARKETING');
      expect(data.riskScore).to.be.within(30, 100);
      expect(data.requiresApproval).to.equal(true);
      expect(data.issues.map((i: { ruleId: string }) => i.ruleId)).to.include.members(['spam.prize', 'phishing.credential-request', 'phishing.url-shortener', 'opt-out.missing']);
      const pin = data.issues.find((i: { ruleId: string }) => i.ruleId === 'phishing.credential-request');
      expect(pin).to.include({ severity: 'high', matchedText: 'Send your PIN' });
      expect(pin.explanation).to.be.a('string').and.not.empty;
      expect(pin.suggestion).to.be.a('string').and.not.empty;
    });

    it('answers a clean transactional message with score 0 and no approval', async () => {
      const res = await app.api.post('/compliance/check-message', { message: 'Your order 1234 has shipped.', category: 'TRANSACTIONAL' }, owner.auth);
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ riskScore: 0, issues: [], requiresApproval: false, category: 'TRANSACTIONAL' });
    });

    it('answers 400 VALIDATION_ERROR without a message or with an unknown category', async () => {
      const missing = await app.api.post('/compliance/check-message', {}, owner.auth);
      expect(missing.status).to.equal(400);
      expect(missing.body.error.code).to.equal('VALIDATION_ERROR');
      expect(missing.body.error.details.fieldErrors).to.have.property('message');
      const bad = await app.api.post('/compliance/check-message', { message: 'Hi', category: 'SPAM' }, owner.auth);
      expect(bad.status).to.equal(400);
      expect(bad.body.error.details.fieldErrors).to.have.property('category');
    });

    it('answers 401 without a session', async () => {
      expect((await app.api.post('/compliance/check-message', { message: 'Hi' })).status).to.equal(401);
    });
  });

  describe('suppression list', () => {
    it('POST normalizes the phone to E.164, GET lists it paged, DELETE removes it, and sends honour it meanwhile', async () => {
      const tenant = await registerTenant(app.api, 'suppression');
      const created = await app.api.post('/compliance/suppression', { phone: '024 123 4567', reason: 'asked by phone' }, tenant.auth);
      expect(created.status, created.text).to.equal(201);
      expect(created.body.data).to.include({ phone: '+233241234567', email: null, channel: null, reason: 'asked by phone' });

      const key = (await app.api.post('/api-keys', { name: 'k' }, tenant.auth)).body.data.key as string;
      const blocked = await app.api.post('/messages/send', { channel: 'SMS', to: '+233241234567', body: 'Hello' }, { apiKey: key });
      expect(blocked.body.data).to.include({ status: 'REJECTED', errorCode: 'RECIPIENT_SUPPRESSED' });

      const listed = await app.api.get('/compliance/suppression?page=1&limit=10', tenant.auth);
      expect(listed.status).to.equal(200);
      expect(listed.body.data).to.deep.include({ page: 1, limit: 10, total: 1, totalPages: 1 });
      expect(listed.body.data.items[0].id).to.equal(created.body.data.id);

      const removed = await app.api.delete(`/compliance/suppression/${created.body.data.id}`, tenant.auth);
      expect(removed.status).to.equal(200);
      expect((await app.api.get('/compliance/suppression', tenant.auth)).body.data.total).to.equal(0);
      const again = await app.api.post('/messages/send', { channel: 'SMS', to: '+233241234567', body: 'Hello' }, { apiKey: key });
      expect(again.body.data.status).to.not.equal('REJECTED');
    });

    it('stores an email lowercased for one channel only', async () => {
      const res = await app.api.post('/compliance/suppression', { email: 'Ama@Example.COM', channel: 'EMAIL' }, owner.auth);
      expect(res.status, res.text).to.equal(201);
      expect(res.body.data).to.include({ email: 'ama@example.com', phone: null, channel: 'EMAIL' });
    });

    it('answers 400 VALIDATION_ERROR without phone or email, or with an unreadable phone', async () => {
      const neither = await app.api.post('/compliance/suppression', { reason: 'x' }, owner.auth);
      expect(neither.status).to.equal(400);
      expect(neither.body.error.code).to.equal('VALIDATION_ERROR');
      expect(neither.body.error.details.formErrors).to.deep.equal(['phone or email is required']);
      const badPhone = await app.api.post('/compliance/suppression', { phone: 'call me' }, owner.auth);
      expect(badPhone.status).to.equal(400);
      expect(badPhone.body.error.details.fieldErrors).to.have.property('phone');
      const badChannel = await app.api.post('/compliance/suppression', { phone: '0241234567', channel: 'FAX' }, owner.auth);
      expect(badChannel.status).to.equal(400);
      expect(badChannel.body.error.details.fieldErrors).to.have.property('channel');
    });

    it('answers 409 CONFLICT for the same entry twice', async () => {
      const tenant = await registerTenant(app.api, 'suppression-dup');
      expect((await app.api.post('/compliance/suppression', { phone: '0201234567', channel: 'SMS' }, tenant.auth)).status).to.equal(201);
      const dup = await app.api.post('/compliance/suppression', { phone: '+233 20 123 4567', channel: 'SMS' }, tenant.auth);
      expect(dup.status).to.equal(409);
      expect(dup.body.error.code).to.equal('CONFLICT');
    });

    it('answers 404 for an unknown id or another organization\'s entry, and keeps lists apart', async () => {
      const mine = await app.api.post('/compliance/suppression', { phone: '0501234567' }, other.auth);
      expect((await app.api.delete(`/compliance/suppression/${mine.body.data.id}`, owner.auth)).status).to.equal(404);
      expect((await app.api.delete('/compliance/suppression/nope', owner.auth)).status).to.equal(404);
      const ownerList = await app.api.get('/compliance/suppression?limit=100', owner.auth);
      expect(ownerList.body.data.items.map((s: { id: string }) => s.id)).to.not.include(mine.body.data.id);
    });

    it('answers 400 for a limit above 100', async () => {
      const res = await app.api.get('/compliance/suppression?limit=101', owner.auth);
      expect(res.status).to.equal(400);
      expect(res.body.error.details.fieldErrors).to.have.property('limit');
    });
  });

  describe('GET /compliance/summary and /compliance/approvals', () => {
    it('counts suppressions and pending approvals of this organization only, and lists approval outcomes', async () => {
      const tenant = await registerTenant(app.api, 'summary');
      await app.api.post('/compliance/suppression', { phone: '0241112222' }, tenant.auth);
      await app.api.post('/compliance/suppression', { email: 'kofi@example.com' }, tenant.auth);
      const template = await app.api.post('/templates', { name: 'Promo', channel: 'SMS', category: 'MARKETING', body: 'Sale! Reply STOP to opt out' }, tenant.auth);
      expect(template.status).to.equal(201);
      await app.api.post('/templates', { name: 'Elsewhere', channel: 'SMS', category: 'MARKETING', body: 'Other org' }, other.auth);

      const summary = await app.api.get('/compliance/summary', tenant.auth);
      expect(summary.status).to.equal(200);
      expect(summary.body.data).to.deep.equal({ suppressionCount: 2, pendingApprovals: 1 });

      const approvals = await app.api.get('/compliance/approvals', tenant.auth);
      expect(approvals.status).to.equal(200);
      expect(approvals.body.data).to.have.length(1);
      expect(approvals.body.data[0]).to.include({ id: template.body.data.approvalRequestId, kind: 'TEMPLATE', subjectId: template.body.data.id, status: 'PENDING', comment: null });
    });
  });

  describe('roles', () => {
    it('lets a COMPLIANCE_REVIEWER read and write compliance, a VIEWER only read (and check messages)', async () => {
      const reviewer = await memberWithRole('COMPLIANCE_REVIEWER');
      expect((await app.api.post('/compliance/suppression', { phone: '0277777777' }, reviewer)).status).to.equal(201);
      expect((await app.api.post('/compliance/check-message', { message: 'Hi' }, reviewer)).status).to.equal(200);
      expect((await app.api.get('/compliance/summary', reviewer)).status).to.equal(200);

      const viewer = await memberWithRole('VIEWER');
      expect((await app.api.get('/compliance/suppression', viewer)).status).to.equal(200);
      expect((await app.api.get('/compliance/approvals', viewer)).status).to.equal(200);
      const denied = await app.api.post('/compliance/suppression', { phone: '0277777778' }, viewer);
      expect(denied.status).to.equal(403);
      expect(denied.body.error.code).to.equal('FORBIDDEN');
      // A check stores nothing: every member may run it.
      expect((await app.api.post('/compliance/check-message', { message: 'Hi' }, viewer)).status).to.equal(200);
    });
  });
});
