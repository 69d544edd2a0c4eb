import { expect } from 'chai';
import type { ApprovalRequest } from '../../core/domain/approval.ts';
import type { Storage } from '../../core/ports/storage.ts';
import type { Suppression } from '../../core/ports/suppression-repository.ts';
import { at, debit, rejection, seedOrganization, seedUser, seedWallet, topUp, uniqueId } from './contract-fixtures.ts';

function anApproval(organizationId: string, overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    id: uniqueId('approval'), organizationId, kind: 'TEMPLATE', subjectId: uniqueId('tpl'), status: 'PENDING',
    content: { body: 'Sale', category: 'MARKETING' }, requestedByUserId: null, decidedByUserId: null, decidedAt: null, comment: null,
    createdAt: at(0), ...overrides,
  };
}

function aSuppression(organizationId: string, overrides: Partial<Suppression> = {}): Suppression {
  return { id: uniqueId('sup'), organizationId, phone: '+233241234567', email: null, channel: null, category: null, reason: null, createdAt: at(0), ...overrides };
}

/** Approval, suppression, organization pause and platform report contracts (issue 7), run against every Storage. */
export function describeComplianceAdminContract(name: string, makeStorage: () => Promise<Storage>): void {
  describe(`Approval, Suppression, pause and PlatformReport repositories contract: ${name}`, () => {
    let storage: Storage;
    before(async () => { storage = await makeStorage(); });

    it('decides a pending approval once: the second decision gets null and changes nothing', async () => {
      const org = await seedOrganization(storage);
      const request = anApproval(org.id);
      await storage.approvals.insert(request);
      const decided = await storage.approvals.decide(request.id, { status: 'REJECTED', decidedByUserId: 'admin-1', decidedAt: at(5), comment: 'No' });
      expect(decided).to.deep.equal({ ...request, status: 'REJECTED', decidedByUserId: 'admin-1', decidedAt: at(5), comment: 'No' });
      expect(await storage.approvals.decide(request.id, { status: 'APPROVED', decidedByUserId: 'admin-2', decidedAt: at(6), comment: null })).to.equal(null);
      expect(await storage.approvals.findById(request.id)).to.deep.include({ status: 'REJECTED', decidedByUserId: 'admin-1' });
      expect(await storage.approvals.decide(uniqueId('missing'), { status: 'APPROVED', decidedByUserId: 'a', decidedAt: at(1), comment: null })).to.equal(null);
    });

    it('lets exactly one of two concurrent decisions win', async () => {
      const org = await seedOrganization(storage);
      const request = anApproval(org.id);
      await storage.approvals.insert(request);
      const results = await Promise.all(['admin-a', 'admin-b'].map((who) => storage.transaction((tx) =>
        tx.approvals.decide(request.id, { status: 'APPROVED', decidedByUserId: who, decidedAt: at(1), comment: null }))));
      expect(results.filter((r) => r !== null)).to.have.length(1);
    });

    it('lists one organization\'s requests newest first, and counts its pending ones', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const old = anApproval(a.id, { createdAt: at(1) }); const recent = anApproval(a.id, { createdAt: at(2), status: 'APPROVED' });
      await storage.approvals.insert(old); await storage.approvals.insert(recent); await storage.approvals.insert(anApproval(b.id));
      expect((await storage.approvals.listByOrganization(a.id, 10)).map((r) => r.id)).to.deep.equal([recent.id, old.id]);
      expect((await storage.approvals.listByOrganization(a.id, 1)).map((r) => r.id)).to.deep.equal([recent.id]);
      expect(await storage.approvals.countPending(a.id)).to.equal(1);
    });

    it('refuses a duplicate suppression entry with CONFLICT, matches per channel or all, and removes only within the organization', async () => {
      const a = await seedOrganization(storage); const b = await seedOrganization(storage);
      const all = aSuppression(a.id);
      const emailOnly = aSuppression(a.id, { phone: null, email: 'ama@example.com', channel: 'EMAIL' });
      await storage.suppressions.insert(all); await storage.suppressions.insert(emailOnly);
      expect((await rejection(storage.suppressions.insert(aSuppression(a.id)))).code).to.equal('CONFLICT');
      await storage.suppressions.insert(aSuppression(a.id, { channel: 'SMS' }));
      await storage.suppressions.insert(aSuppression(b.id));
      expect((await storage.suppressions.findMatch(a.id, 'VOICE', '+233241234567'))?.id).to.equal(all.id);
      expect((await storage.suppressions.findMatch(a.id, 'EMAIL', 'AMA@example.com'))?.id).to.equal(emailOnly.id);
      expect(await storage.suppressions.findMatch(a.id, 'SMS', 'ama@example.com')).to.equal(null);
      expect((await storage.suppressions.list(a.id, 0, 2)).total).to.equal(3);
      expect(await storage.suppressions.remove(b.id, all.id)).to.equal(false);
      expect(await storage.suppressions.remove(a.id, all.id)).to.equal(true);
      expect(await storage.suppressions.findMatch(a.id, 'VOICE', '+233241234567')).to.equal(null);
    });

    it('pauses and resumes an organization; an unknown id gets null', async () => {
      const org = await seedOrganization(storage);
      expect(await storage.organizations.setPaused(org.id, true, at(3))).to.deep.include({ paused: true, updatedAt: at(3) });
      expect((await storage.organizations.findById(org.id))?.paused).to.equal(true);
      expect((await storage.organizations.setPaused(org.id, false, at(4)))?.paused).to.equal(false);
      expect(await storage.organizations.setPaused(uniqueId('org'), true, at(4))).to.equal(null);
    });

    it('lists tenants by name or id with wallet balance and member count, paged', async () => {
      const marker = uniqueId('Kente').replace(/-/g, '');
      const first = await seedWallet(storage, 1_234);
      await storage.organizations.update(first, { name: `${marker} One` }, at(1));
      const second = await seedOrganization(storage, { name: `${marker} Two 100%_x`, createdAt: at(9) });
      await storage.memberships.insert({ id: uniqueId('m'), organizationId: second.id, userId: (await seedUser(storage)).id, role: 'TENANT_OWNER', createdAt: at(1) });
      const found = await storage.platformReports.listTenants({ search: marker.toLowerCase(), offset: 0, limit: 10 });
      expect(found.total).to.equal(2);
      expect(found.items.map((t) => [t.organization.id, t.walletBalance, t.memberCount])).to.deep.equal([[second.id, 0, 1], [first, 1_234, 0]]);
      expect((await storage.platformReports.listTenants({ search: marker, offset: 1, limit: 1 })).items.map((t) => t.organization.id)).to.deep.equal([first]);
      expect((await storage.platformReports.listTenants({ search: first, offset: 0, limit: 5 })).items.map((t) => t.organization.id)).to.deep.equal([first]);
      // LIKE wildcards in the search are literal.
      expect((await storage.platformReports.listTenants({ search: `${marker} Two 100%_`, offset: 0, limit: 5 })).total).to.equal(1);
      expect((await storage.platformReports.listTenants({ search: `${marker}%One`, offset: 0, limit: 5 })).total).to.equal(0);
    });

    it('pages audit entries that share a timestamp with a (time, id) cursor, skipping none', async () => {
      const org = await seedOrganization(storage);
      const base = uniqueId('audit');
      const entries = ['a', 'b', 'c'].map((suffix) => ({
        id: `${base}-${suffix}`, actorUserId: 'admin-1', impersonatorUserId: null, organizationId: org.id, action: 'tenant.pause',
        target: null, details: {}, createdAt: at(7),
      }));
      for (const e of entries) await storage.auditLog.record(e);
      const first = await storage.auditLog.list({ limit: 2, organizationId: org.id });
      expect(first.map((e) => e.id)).to.deep.equal([`${base}-c`, `${base}-b`]);
      const rest = await storage.auditLog.list({ limit: 2, organizationId: org.id, before: at(7), beforeId: `${base}-b` });
      expect(rest.map((e) => e.id)).to.deep.equal([`${base}-a`]);
    });

    it('totals top-ups, debits, refunds and wallet balances across tenants', async () => {
      const before = await storage.platformReports.totals();
      const org = await seedWallet(storage, 5_000);
      await storage.wallets.update(org, () => debit(700), at(1));
      await storage.wallets.update(org, () => ({ amount: 200, kind: 'REFUND', reference: uniqueId('r'), description: 'refund' }), at(2));
      await storage.wallets.update(org, () => topUp(100), at(3));
      const after = await storage.platformReports.totals();
      expect(after.topUps - before.topUps).to.equal(5_100);
      expect(after.debits - before.debits).to.equal(700);
      expect(after.refunds - before.refunds).to.equal(200);
      expect(after.walletBalance - before.walletBalance).to.equal(4_600);
      expect(after.walletCount - before.walletCount).to.equal(1);
      expect(after.messageCount).to.be.a('number').and.at.least(0);
    });
  });
}
