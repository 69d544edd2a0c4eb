import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { MEMBER_ROLES, roleAllows, type MemberRole, type Permission } from '../../core/domain/roles.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, uniqueEmail, type TestTenant } from '../support/tenants.ts';

/** One representative request per permission (docs/permissions.md, "Roles and permissions"). */
const PROBES: ReadonlyArray<{ permission: Permission; method: string; path: string; body?: () => unknown }> = [
  { permission: 'organization:read', method: 'GET', path: '/organizations/current' },
  { permission: 'organization:write', method: 'PATCH', path: '/organizations/current', body: () => ({ industry: 'Retail' }) },
  { permission: 'members:read', method: 'GET', path: '/organizations/members' },
  { permission: 'members:invite', method: 'POST', path: '/organizations/invite', body: () => ({ email: uniqueEmail('nobody') }) },
  { permission: 'api-keys:read', method: 'GET', path: '/api-keys' },
  { permission: 'api-keys:write', method: 'POST', path: '/api-keys', body: () => ({ name: 'matrix' }) },
  { permission: 'messages:send', method: 'POST', path: '/messages/send', body: () => ({ channel: 'SMS', to: '+233241234567', body: 'Hi' }) },
  { permission: 'templates:read', method: 'GET', path: '/templates' },
  { permission: 'templates:write', method: 'POST', path: '/templates', body: () => ({ name: 'matrix', channel: 'SMS', body: 'Hi' }) },
  { permission: 'delivery-logs:read', method: 'GET', path: '/delivery-logs' },
  { permission: 'compliance:read', method: 'GET', path: '/compliance/summary' },
  { permission: 'compliance:write', method: 'POST', path: '/compliance/suppression', body: () => ({ phone: `+23324${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}` }) },
  { permission: 'providers:read', method: 'GET', path: '/providers' },
  { permission: 'senders:read', method: 'GET', path: '/sender-ids' },
  { permission: 'senders:write', method: 'DELETE', path: '/sender-ids/unknown' },
  { permission: 'vendor-accounts:read', method: 'GET', path: '/vendor-accounts' },
  { permission: 'vendor-accounts:write', method: 'DELETE', path: '/vendor-accounts/unknown' },
  { permission: 'conversations:read', method: 'GET', path: '/conversations' },
  { permission: 'conversations:write', method: 'POST', path: '/conversations/unknown/read' },
  { permission: 'audit-log:read', method: 'GET', path: '/audit-log' },
];

describe('HTTP: the tenant role matrix (docs/permissions.md)', () => {
  let app: TestApp;
  let owner: TestTenant;
  const members = new Map<MemberRole, { token: string; organizationId: string }>();

  before(async () => {
    app = await startTestApp();
    owner = await registerTenant(app.api, 'matrix');
    members.set('TENANT_OWNER', owner.auth);
    for (const role of MEMBER_ROLES.filter((r) => r !== 'TENANT_OWNER')) {
      const user = await registerUser(app.api, role.toLowerCase());
      await app.container.get(INFRA.storage).memberships.insert({ id: randomUUID(), organizationId: owner.organizationId, userId: user.userId, role, createdAt: new Date() });
      members.set(role, { token: user.token, organizationId: owner.organizationId });
    }
  });
  after(async () => { await app.close(); });

  for (const role of MEMBER_ROLES) {
    it(`${role}: allowed exactly what core/domain/roles.ts grants`, async () => {
      for (const probe of PROBES) {
        const res = await app.api.request(probe.method, probe.path, probe.body?.(), members.get(role)!);
        const label = `${role} ${probe.method} ${probe.path} (${probe.permission}): ${res.status} ${res.text.slice(0, 160)}`;
        if (roleAllows(role, probe.permission)) {
          expect(res.status, label).to.be.below(500).and.not.equal(403);
          expect(res.status, label).to.not.equal(401);
        } else {
          expect(res.status, label).to.equal(403);
          expect(res.body.error.code, label).to.equal('FORBIDDEN');
        }
      }
    });
  }

  it('spells out the headline rules: VIEWER cannot write, COMPLIANCE_REVIEWER reads and writes compliance, DEVELOPER manages API keys', () => {
    expect(PROBES.filter((p) => !p.permission.endsWith(':read')).some((p) => roleAllows('VIEWER', p.permission))).to.equal(false);
    expect(roleAllows('COMPLIANCE_REVIEWER', 'compliance:read') && roleAllows('COMPLIANCE_REVIEWER', 'compliance:write')).to.equal(true);
    expect(roleAllows('COMPLIANCE_REVIEWER', 'messages:send')).to.equal(false);
    expect(roleAllows('DEVELOPER', 'api-keys:write') && !roleAllows('DEVELOPER', 'compliance:write')).to.equal(true);
    expect(roleAllows('CAMPAIGN_MANAGER', 'api-keys:write')).to.equal(false);
  });
});
