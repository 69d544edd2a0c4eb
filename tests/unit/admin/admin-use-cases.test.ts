import { expect } from 'chai';
import { newOrganization } from '../../../core/domain/organization.ts';
import type { Template } from '../../../core/domain/template.ts';
import { AppError } from '../../../core/errors.ts';
import { DecideApproval } from '../../../core/use-cases/admin/decide-approval.ts';
import { ExitImpersonation } from '../../../core/use-cases/admin/exit-impersonation.ts';
import { IMPERSONATION_TTL_SECONDS, ImpersonateTenant } from '../../../core/use-cases/admin/impersonate-tenant.ts';
import { ListPendingApprovals } from '../../../core/use-cases/admin/list-pending-approvals.ts';
import { SetTenantPaused } from '../../../core/use-cases/admin/set-tenant-paused.ts';
import { AuthenticateSession } from '../../../core/use-cases/auth/authenticate-session.ts';
import { buildCore, type TestCore } from '../../support/build-core.ts';

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try { await promise; } catch (error) { if (error instanceof AppError) return error; throw error; }
  throw new Error('expected an AppError');
}

describe('admin use cases', () => {
  let core: TestCore;
  const admin = { userId: 'admin-1' };

  beforeEach(async () => {
    core = buildCore();
    await core.storage.organizations.insert(newOrganization('org-1', 'Kente Ltd', core.clock.now()));
    await core.storage.organizations.insert(newOrganization('org-2', 'Other Ltd', core.clock.now()));
    await core.storage.users.insert({ id: 'admin-1', email: 'admin@example.com', passwordHash: 'x', firstName: 'A', lastName: 'D', platformRole: 'PLATFORM_SUPER_ADMIN', createdAt: core.clock.now() });
  });

  async function pendingTemplate(): Promise<{ approvalId: string; templateId: string }> {
    const now = core.clock.now();
    const template: Template = {
      id: 'tpl-1', organizationId: 'org-1', name: 'Promo', channel: 'SMS', body: 'Send your PIN', subject: null, countryCode: 'GH', language: 'en',
      category: 'MARKETING', variables: [], status: 'PENDING_APPROVAL', reviewComment: null, createdByUserId: null, createdAt: now, updatedAt: now,
    };
    await core.storage.templates.insert(template);
    await core.storage.approvals.insert({
      id: 'apr-1', organizationId: 'org-1', kind: 'TEMPLATE', subjectId: 'tpl-1', status: 'PENDING', content: { body: template.body, category: 'MARKETING' },
      requestedByUserId: null, decidedByUserId: null, decidedAt: null, comment: null, createdAt: now,
    });
    return { approvalId: 'apr-1', templateId: 'tpl-1' };
  }

  describe('DecideApproval', () => {
    it('rejects a template with the comment as reviewComment and audits who and when', async () => {
      await pendingTemplate();
      const decide = new DecideApproval(core);
      const decided = await decide.execute(admin, 'apr-1', 'REJECTED', { comment: '  Remove the PIN request  ' });
      expect(decided).to.deep.include({ status: 'REJECTED', comment: 'Remove the PIN request', decidedByUserId: 'admin-1', decidedAt: core.clock.now() });
      expect(await core.storage.templates.findById('org-1', 'tpl-1')).to.deep.include({ status: 'REJECTED', reviewComment: 'Remove the PIN request' });
      const [entry] = await core.storage.auditLog.list({ limit: 10 });
      expect(entry).to.deep.include({ actorUserId: 'admin-1', organizationId: 'org-1', action: 'approval.reject', target: 'approval:apr-1', createdAt: core.clock.now() });
    });

    it('answers NOT_FOUND for an unknown id and CONFLICT the second time, leaving state alone', async () => {
      await pendingTemplate();
      const decide = new DecideApproval(core);
      expect((await failure(decide.execute(admin, 'nope', 'APPROVED'))).code).to.equal('NOT_FOUND');
      await decide.execute(admin, 'apr-1', 'APPROVED');
      expect((await failure(decide.execute(admin, 'apr-1', 'REJECTED', { comment: 'late' }))).code).to.equal('CONFLICT');
      expect(await core.storage.templates.findById('org-1', 'tpl-1')).to.deep.include({ status: 'APPROVED', reviewComment: null });
      expect((await core.storage.auditLog.list({ limit: 10 })).map((e) => e.action)).to.deep.equal(['approval.approve']);
    });
  });

  it('ListPendingApprovals attaches the compliance result of the content', async () => {
    await pendingTemplate();
    const [item] = await new ListPendingApprovals(core).execute();
    expect(item!.compliance!.issues.map((i) => i.ruleId)).to.include('phishing.credential-request');
    expect(item!.compliance!.requiresApproval).to.equal(true);
  });

  it('SetTenantPaused pauses, audits with the reason, and answers NOT_FOUND for an unknown tenant', async () => {
    const pause = new SetTenantPaused(core);
    expect((await pause.execute(admin, 'org-1', true, { reason: 'fraud' })).paused).to.equal(true);
    expect((await core.storage.organizations.findById('org-1'))?.paused).to.equal(true);
    expect((await core.storage.auditLog.list({ limit: 1 }))[0]).to.deep.include({ action: 'tenant.pause', details: { reason: 'fraud' } });
    expect((await failure(pause.execute(admin, 'nope', true))).code).to.equal('NOT_FOUND');
  });

  describe('impersonation', () => {
    it('issues a 30-minute token that opens only its organization, as TENANT_ADMIN', async () => {
      const result = await new ImpersonateTenant(core).execute(admin, 'org-1');
      expect(IMPERSONATION_TTL_SECONDS).to.equal(1800);
      expect(new Date(result.expiresAt).getTime() - core.clock.now().getTime()).to.equal(1800 * 1000);
      const auth = new AuthenticateSession(core);
      const session = await auth.execute({ token: result.token, organizationId: 'org-1', permission: 'templates:write' });
      expect(session).to.deep.include({ userId: 'admin-1', impersonatorId: 'admin-1', impersonatedOrganizationId: 'org-1', tenant: { organizationId: 'org-1', role: 'TENANT_ADMIN' } });
      expect((await failure(auth.execute({ token: result.token, organizationId: 'org-2', permission: 'templates:read' }))).code).to.equal('FORBIDDEN');
      expect((await failure(new ImpersonateTenant(core).execute(admin, 'nope'))).code).to.equal('NOT_FOUND');
    });

    it('stops working after 30 minutes', async () => {
      const { token } = await new ImpersonateTenant(core).execute(admin, 'org-1');
      const auth = new AuthenticateSession(core);
      core.clock.advance(29 * 60_000);
      await auth.execute({ token, organizationId: 'org-1', permission: 'templates:read' });
      core.clock.advance(2 * 60_000);
      expect((await failure(auth.execute({ token, organizationId: 'org-1', permission: 'templates:read' }))).code).to.equal('UNAUTHORIZED');
    });

    it('exits with a fresh normal token, and refuses a session that is not impersonating', async () => {
      const exit = new ExitImpersonation(core);
      expect((await failure(exit.execute({ impersonatorId: null }))).code).to.equal('NOT_IMPERSONATING');
      const result = await exit.execute({ impersonatorId: 'admin-1', impersonatedOrganizationId: 'org-1' });
      const claims = await core.sessions.verify(result.token);
      expect(claims).to.deep.include({ userId: 'admin-1' });
      expect(claims).to.not.have.property('impersonatorId');
      expect(claims.expiresAt.getTime() - core.clock.now().getTime()).to.equal(core.sessionTtlSeconds * 1000);
      expect((await core.storage.auditLog.list({ limit: 1 }))[0]).to.deep.include({ action: 'tenant.impersonate.exit', organizationId: 'org-1' });
    });
  });
});
