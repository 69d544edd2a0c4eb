import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { MemberRole } from '../../core/domain/roles.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser, uniqueEmail, type TestTenant } from '../support/tenants.ts';

describe('HTTP: /organizations current, members, invite', () => {
  let app: TestApp;
  before(async () => { app = await startTestApp(); });
  after(async () => { await app.close(); });

  /** Registers a user and has the owner invite them with `role`; returns their credentials for the owner's organization. */
  async function memberWithRole(owner: TestTenant, role: MemberRole) {
    const user = await registerUser(app.api, role.toLowerCase());
    const res = await app.api.post('/organizations/invite', { email: user.email, role }, owner.auth);
    expect(res.status, res.text).to.equal(201);
    return { ...user, auth: { token: user.token, organizationId: owner.organizationId } };
  }

  it('GET /organizations/current returns the organization with its GHS wallet and members', async () => {
    const owner = await registerTenant(app.api, 'current');
    const res = await app.api.get('/organizations/current', owner.auth);
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.data).to.include({ id: owner.organizationId, name: 'Org current', timezone: 'Africa/Accra', paused: false });
    expect(res.body.data.wallet).to.include({ balance: 0, currency: 'GHS' });
    expect(res.body.data.members).to.have.length(1);
    expect(res.body.data.members[0]).to.include({ id: owner.userId, email: owner.email, firstName: 'Ama', lastName: 'Mensah', role: 'TENANT_OWNER' });
    expect(res.body.data.members[0].joinedAt).to.be.a('string');
  });

  it('PATCH /organizations/current changes the spec fields, ignores the rest, and GET shows the change', async () => {
    const owner = await registerTenant(app.api, 'patch');
    const res = await app.api.patch('/organizations/current', {
      name: 'Adinkra Health', industry: 'Healthcare', businessEmail: 'ops@adinkra.example', timezone: 'Africa/Lagos',
      website: 'https://adinkra.example', onboardingComplete: true, monthlyVolume: 5000, preferredChannels: ['SMS', 'WHATSAPP', 'SMS'],
      paused: true, id: 'chosen-id',
    }, owner.auth);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.include({ id: owner.organizationId, name: 'Adinkra Health', timezone: 'Africa/Lagos', monthlyVolume: 5000, paused: false });
    expect(res.body.data.preferredChannels).to.deep.equal(['SMS', 'WHATSAPP']);
    const current = await app.api.get('/organizations/current', owner.auth);
    expect(current.body.data).to.include({ name: 'Adinkra Health', industry: 'Healthcare', businessEmail: 'ops@adinkra.example', website: 'https://adinkra.example', onboardingComplete: true });
  });

  it('PATCH answers 400 VALIDATION_ERROR for a bad businessEmail, website and timezone, and changes nothing', async () => {
    const owner = await registerTenant(app.api, 'badpatch');
    const res = await app.api.patch('/organizations/current', { name: 'Changed', businessEmail: 'nope', website: 'javascript:alert(1)', timezone: 'Not/AZone' }, owner.auth);
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    expect(res.body.error.details.fieldErrors).to.have.keys('businessEmail', 'website', 'timezone');
    expect((await app.api.get('/organizations/current', owner.auth)).body.data.name).to.equal('Org badpatch');
  });

  it('PATCH says a bad website once and refuses a business phone without 7 to 15 digits (issue 35)', async () => {
    const owner = await registerTenant(app.api, 'onboard-rules');
    const res = await app.api.patch('/organizations/current', { website: 'adinkra', businessPhone: '0000' }, owner.auth);
    expect(res.status).to.equal(400);
    expect(res.body.error.details.fieldErrors.website).to.deep.equal(['must be an http or https URL, e.g. https://example.com']);
    expect(res.body.error.details.fieldErrors.businessPhone).to.have.length(1);
    const ok = await app.api.patch('/organizations/current', { website: 'https://adinkra.example/about', businessPhone: '+233 (30) 123-4567' }, owner.auth);
    expect(ok.status, ok.text).to.equal(200);
  });

  it('GET /organizations/members lists members with profiles', async () => {
    const owner = await registerTenant(app.api, 'members');
    const dev = await memberWithRole(owner, 'DEVELOPER');
    const res = await app.api.get('/organizations/members', owner.auth);
    expect(res.status).to.equal(200);
    expect(res.body.data.map((m: { email: string; role: string }) => [m.email, m.role])).to.deep.equal([[owner.email, 'TENANT_OWNER'], [dev.email, 'DEVELOPER']]);
  });

  it('POST /organizations/invite adds a registered user: 201, an email, and the invitee sees the organization with the role', async () => {
    const owner = await registerTenant(app.api, 'inviter');
    const invitee = await registerUser(app.api, 'invitee');
    const res = await app.api.post('/organizations/invite', { email: invitee.email.toUpperCase(), role: 'CAMPAIGN_MANAGER' }, owner.auth);
    expect(res.status).to.equal(201);
    expect(res.body.data).to.include({ id: invitee.userId, email: invitee.email, role: 'CAMPAIGN_MANAGER' });

    const email = app.email.lastTo(invitee.email);
    expect(email?.subject).to.equal('You have been added to Org inviter');
    expect(email?.text).to.include('CAMPAIGN_MANAGER');

    const login = await app.api.post('/auth/login', { email: invitee.email, password: invitee.password });
    expect(login.body.data.organizations).to.deep.include({ id: owner.organizationId, name: 'Org inviter', role: 'CAMPAIGN_MANAGER' });
    const current = await app.api.get('/organizations/current', { token: login.body.data.token, organizationId: owner.organizationId });
    expect(current.status).to.equal(200);
    expect(current.body.data.id).to.equal(owner.organizationId);
  });

  it('POST /organizations/invite grants VIEWER by default', async () => {
    const owner = await registerTenant(app.api, 'default-role');
    const invitee = await registerUser(app.api);
    const res = await app.api.post('/organizations/invite', { email: invitee.email }, owner.auth);
    expect(res.status).to.equal(201);
    expect(res.body.data.role).to.equal('VIEWER');
  });

  it('POST /organizations/invite answers 404 USER_NOT_FOUND for an unregistered email, 409 CONFLICT for a member', async () => {
    const owner = await registerTenant(app.api, 'invite-errors');
    const unknown = await app.api.post('/organizations/invite', { email: uniqueEmail('ghost') }, owner.auth);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('USER_NOT_FOUND');
    const again = await app.api.post('/organizations/invite', { email: owner.email, role: 'VIEWER' }, owner.auth);
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('CONFLICT');
  });

  it('a VIEWER can read but gets 403 FORBIDDEN on PATCH and invite', async () => {
    const owner = await registerTenant(app.api, 'viewer-org');
    const viewer = await memberWithRole(owner, 'VIEWER');
    expect((await app.api.get('/organizations/current', viewer.auth)).status).to.equal(200);
    expect((await app.api.get('/organizations/members', viewer.auth)).status).to.equal(200);
    const patch = await app.api.patch('/organizations/current', { name: 'Hijacked' }, viewer.auth);
    expect(patch.status).to.equal(403);
    expect(patch.body.error.code).to.equal('FORBIDDEN');
    const other = await registerUser(app.api);
    const invite = await app.api.post('/organizations/invite', { email: other.email }, viewer.auth);
    expect(invite.status).to.equal(403);
    expect((await app.api.get('/organizations/current', owner.auth)).body.data.name).to.equal('Org viewer-org');
  });

  it('a TENANT_ADMIN may invite admins but gets 403 FORBIDDEN granting TENANT_OWNER', async () => {
    const owner = await registerTenant(app.api, 'admin-org');
    const admin = await memberWithRole(owner, 'TENANT_ADMIN');
    const first = await registerUser(app.api);
    const second = await registerUser(app.api);
    expect((await app.api.post('/organizations/invite', { email: first.email, role: 'TENANT_ADMIN' }, admin.auth)).status).to.equal(201);
    const res = await app.api.post('/organizations/invite', { email: second.email, role: 'TENANT_OWNER' }, admin.auth);
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('FORBIDDEN');
    const members = await app.api.get('/organizations/members', owner.auth);
    expect(members.body.data.map((m: { email: string }) => m.email)).to.not.include(second.email);
  });

  it('answers 400 ORGANIZATION_REQUIRED without X-Organization-Id and 401 UNAUTHORIZED without a token', async () => {
    const owner = await registerTenant(app.api, 'no-header');
    const missing = await app.api.get('/organizations/current', { token: owner.token });
    expect(missing.status).to.equal(400);
    expect(missing.body.error.code).to.equal('ORGANIZATION_REQUIRED');
    const anonymous = await app.api.get('/organizations/members', { organizationId: owner.organizationId });
    expect(anonymous.status).to.equal(401);
    expect(anonymous.body.error.code).to.equal('UNAUTHORIZED');
  });

  it('keeps tenants apart: a member of B gets 403 FORBIDDEN on every organization route of A, and A is unchanged', async () => {
    const a = await registerTenant(app.api, 'tenant-a');
    const b = await registerTenant(app.api, 'tenant-b');
    const bInA = { token: b.token, organizationId: a.organizationId };
    const outsider = await registerUser(app.api);
    const attempts = [
      await app.api.get('/organizations/current', bInA),
      await app.api.patch('/organizations/current', { name: 'Taken over' }, bInA),
      await app.api.get('/organizations/members', bInA),
      await app.api.post('/organizations/invite', { email: outsider.email, role: 'TENANT_OWNER' }, bInA),
    ];
    for (const res of attempts) {
      expect(res.status, res.text).to.equal(403);
      expect(res.body.error.code).to.equal('FORBIDDEN');
    }
    const current = await app.api.get('/organizations/current', a.auth);
    expect(current.body.data.name).to.equal('Org tenant-a');
    expect(current.body.data.members.map((m: { id: string }) => m.id)).to.deep.equal([a.userId]);
  });

  it('answers 403 FORBIDDEN for an organization id that does not exist (not a member)', async () => {
    const owner = await registerTenant(app.api, 'unknown-org');
    const res = await app.api.get('/organizations/current', { token: owner.token, organizationId: randomUUID() });
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('FORBIDDEN');
  });
});
