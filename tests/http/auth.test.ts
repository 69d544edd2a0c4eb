import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, uniqueEmail } from '../support/tenants.ts';

describe('HTTP: /auth register, login, me', () => {
  let app: TestApp;
  before(async () => { app = await startTestApp(); });
  after(async () => { await app.close(); });

  it('registers a user with an organization, a GHS wallet at 0 and the TENANT_OWNER role', async () => {
    const email = uniqueEmail('reg');
    const res = await app.api.post('/auth/register', { email, password: 'a-good-passphrase', firstName: 'Ama', lastName: 'Owusu', organizationName: 'Kente Ltd' });
    expect(res.status).to.equal(201);
    expect(res.body.success).to.equal(true);
    expect(res.body.data.token).to.be.a('string');
    expect(res.body.data.user).to.include({ email, firstName: 'Ama' });
    expect(res.body.data.user).to.not.have.property('passwordHash');
    expect(res.body.data.organizations).to.deep.equal([{ id: res.body.data.organizations[0].id, name: 'Kente Ltd', role: 'TENANT_OWNER' }]);
  });

  it('rejects a second registration of the same email (any case) with 409 EMAIL_EXISTS', async () => {
    const tenant = await registerTenant(app.api);
    const res = await app.api.post('/auth/register', { email: tenant.email.toUpperCase(), password: 'another-passphrase', firstName: 'X', lastName: 'Y' });
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.include({ success: false });
    expect(res.body.error.code).to.equal('EMAIL_EXISTS');
  });

  it('answers 400 VALIDATION_ERROR with fieldErrors for a short password and a bad email', async () => {
    const res = await app.api.post('/auth/register', { email: 'not-an-email', password: 'short', firstName: 'A', lastName: 'B' });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('VALIDATION_ERROR');
    expect(res.body.error.details.fieldErrors).to.have.keys('email', 'password');
    expect(res.body.error.details.formErrors).to.deep.equal([]);
  });

  it('ignores unknown fields instead of mass-assigning them (no way to become a platform admin)', async () => {
    const email = uniqueEmail('mass');
    const res = await app.api.post('/auth/register', { email, password: 'a-good-passphrase', firstName: 'A', lastName: 'B', platformRole: 'PLATFORM_SUPER_ADMIN', id: 'chosen-id' });
    expect(res.status).to.equal(201);
    expect(res.body.data.user.platformRole).to.equal(null);
    expect(res.body.data.user.id).to.not.equal('chosen-id');
  });

  it('logs in with the right password and lists the organizations', async () => {
    const tenant = await registerTenant(app.api);
    const res = await app.api.post('/auth/login', { email: tenant.email, password: tenant.password });
    expect(res.status).to.equal(200);
    expect(res.body.data.organizations[0]).to.include({ id: tenant.organizationId, role: 'TENANT_OWNER' });
  });

  it('answers 401 INVALID_CREDENTIALS for a wrong password and for an unknown email alike', async () => {
    const tenant = await registerTenant(app.api);
    const wrong = await app.api.post('/auth/login', { email: tenant.email, password: 'wrong-password' });
    const unknown = await app.api.post('/auth/login', { email: uniqueEmail('nobody'), password: 'whatever-password' });
    expect(wrong.status).to.equal(401);
    expect(unknown.status).to.equal(401);
    expect(wrong.body.error.code).to.equal('INVALID_CREDENTIALS');
    expect(unknown.body.error).to.deep.equal(wrong.body.error);
  });

  it('returns the profile with memberships on /auth/me, and 401 UNAUTHORIZED without or with a bad token', async () => {
    const tenant = await registerTenant(app.api);
    const me = await app.api.get('/auth/me', { token: tenant.token });
    expect(me.status).to.equal(200);
    expect(me.body.data.email).to.equal(tenant.email);
    expect(me.body.data.organizations).to.have.length(1);
    const none = await app.api.get('/auth/me');
    expect(none.status).to.equal(401);
    expect(none.body.error.code).to.equal('UNAUTHORIZED');
    const bad = await app.api.get('/auth/me', { token: `${tenant.token}x` });
    expect(bad.status).to.equal(401);
  });
});
