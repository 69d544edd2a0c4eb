import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { expect } from 'chai';
import { INFRA } from '../../hosts/tokens.ts';
import { startLocalOidcProvider, type LocalOidcProvider } from '../support/local-oidc-provider.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, type TestTenant } from '../support/tenants.ts';
import { startTinyDnsServer, type TinyDnsServer } from '../support/tiny-dns-server.ts';

/**
 * Issue 34, "Single sign-on" (docs/security.md): OpenID Connect per organization against a real provider
 * (oidc-provider, in process), email domains verified through a real DNS lookup (a local DNS server the
 * app's node:dns adapter asks, DNS_SERVERS), just-in-time membership, "SSO only".
 */
describe('HTTP: single sign-on with OpenID Connect and verified domains', function () {
  this.timeout(60_000);
  let app: TestApp;
  let idp: LocalOidcProvider;
  let dns: TinyDnsServer;
  let owner: TestTenant;
  const domain = `acme-${randomUUID().slice(0, 8)}.test`;
  const slug = `acme-${randomUUID().slice(0, 8)}`;

  before(async () => {
    dns = await startTinyDnsServer();
    idp = await startLocalOidcProvider(['http://localhost:3000/sso/callback']);
    app = await startTestApp({ config: { dnsServers: [dns.address], ssoTimeoutMs: 1_500 } });
    owner = await registerTenant(app.api, 'sso-owner');
  });
  after(async () => { await app?.close(); await idp?.close(); await dns?.close(); });

  const configure = (tenant: TestTenant, body: Record<string, unknown>) => app.api.put('/organizations/sso', body, tenant.auth);
  const start = (body: Record<string, unknown>) => app.api.post('/auth/sso/start', body);
  const cookieOf = (response: { headers: Headers }) => response.headers.getSetCookie().find((c) => c.startsWith('nkra_sso='))!.split(';')[0]!;
  /** Start, sign in at the provider as `login`, and post the parameters it sent the browser back with. */
  async function ssoSignIn(login: string, options: { tamper?: (url: URL) => void; params?: (p: Record<string, string>) => Record<string, string>; cookie?: string | null } = {}) {
    const started = await start({ email: login.includes('@') ? `someone@${domain}` : login });
    expect(started.status, started.text).to.equal(200);
    const authorizationUrl = new URL(started.body.data.authorizationUrl);
    options.tamper?.(authorizationUrl);
    const back = await idp.signIn(authorizationUrl.href, login);
    let params = Object.fromEntries(back.searchParams);
    if (options.params) params = options.params(params);
    const cookie = options.cookie === undefined ? cookieOf(started) : options.cookie;
    return app.api.post('/auth/sso/callback', params, {}, cookie ? { cookie } : {});
  }
  async function verifiedDomain(tenant: TestTenant, name: string) {
    const added = await app.api.post('/organizations/sso/domains', { domain: name }, tenant.auth);
    expect(added.status, added.text).to.equal(201);
    dns.txt.set(added.body.data.txtRecord.name, [added.body.data.txtRecord.value]);
    const verified = await app.api.post(`/organizations/sso/domains/${added.body.data.id}/verify`, {}, tenant.auth);
    expect(verified.status, verified.text).to.equal(200);
    return verified.body.data;
  }

  it('saves the connection with a write-only sealed secret; refuses a private issuer and a first save without a secret', async () => {
    expect((await configure(owner, { issuerUrl: idp.issuer, clientId: idp.clientId })).body.error.code).to.equal('VALIDATION_ERROR');
    const privateIssuer = await configure(owner, { issuerUrl: 'http://10.1.2.3/realms/acme', clientId: idp.clientId, clientSecret: 'x' });
    expect(privateIssuer.status).to.equal(400);
    expect(privateIssuer.body.error.details.fieldErrors.issuerUrl[0]).to.match(/private|reserved|not a public/i);

    const saved = await configure(owner, { issuerUrl: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, slug, defaultRole: 'CAMPAIGN_MANAGER' });
    expect(saved.status, saved.text).to.equal(200);
    expect(saved.body.data).to.include({ issuerUrl: idp.issuer, clientId: idp.clientId, clientSecretSet: true, defaultRole: 'CAMPAIGN_MANAGER', ssoOnly: false, slug });
    expect(saved.body.data.scopes).to.include.members(['openid', 'email', 'profile']);
    const settings = await app.api.get('/organizations/sso', owner.auth);
    expect(settings.body.data.redirectUri).to.equal('http://localhost:3000/sso/callback');
    expect(settings.text).not.to.include(idp.clientSecret);
    const stored = await app.container.get(INFRA.storage).sso.findConnection(owner.organizationId);
    expect(stored!.clientSecretCiphertext).not.to.include(idp.clientSecret);
    // Saving again without a secret keeps it (sign-in below still works); an owner's role cannot be the default.
    expect((await configure(owner, { issuerUrl: idp.issuer, clientId: idp.clientId, slug, defaultRole: 'CAMPAIGN_MANAGER' })).status).to.equal(200);
    expect((await configure(owner, { issuerUrl: idp.issuer, clientId: idp.clientId, defaultRole: 'TENANT_OWNER' })).body.error.code).to.equal('VALIDATION_ERROR');
  });

  it('verifies a domain by its DNS TXT record (DOMAIN_NOT_VERIFIED until then), for one organization only (DOMAIN_TAKEN)', async () => {
    expect((await app.api.post('/organizations/sso/domains', { domain: 'not a domain' }, owner.auth)).body.error.code).to.equal('VALIDATION_ERROR');
    const added = await app.api.post('/organizations/sso/domains', { domain: domain.toUpperCase() }, owner.auth);
    expect(added.status, added.text).to.equal(201);
    expect(added.body.data).to.include({ domain, verified: false });
    expect(added.body.data.txtRecord.name).to.equal(`_nkra-verification.${domain}`);
    expect((await app.api.post('/organizations/sso/domains', { domain }, owner.auth)).body.error.code).to.equal('DOMAIN_TAKEN');

    const rival = await registerTenant(app.api, 'sso-rival');
    const rivalClaim = await app.api.post('/organizations/sso/domains', { domain }, rival.auth);
    expect(rivalClaim.status).to.equal(201); // a claim is not a verification

    const verify = (tenant: TestTenant, id: string) => app.api.post(`/organizations/sso/domains/${id}/verify`, {}, tenant.auth);
    const missing = await verify(owner, added.body.data.id);
    expect(missing.status).to.equal(422);
    expect(missing.body.error).to.deep.include({ code: 'DOMAIN_NOT_VERIFIED' });
    expect(missing.body.error.details).to.include({ recordName: `_nkra-verification.${domain}`, reason: 'no TXT record found' });
    dns.txt.set(added.body.data.txtRecord.name, ['v=spf1 -all', rivalClaim.body.data.txtRecord.value]);
    expect((await verify(owner, added.body.data.id)).body.error.details.reason).to.equal('the TXT record does not carry this token');

    dns.txt.set(added.body.data.txtRecord.name, ['v=spf1 -all', added.body.data.txtRecord.value]);
    const verified = await verify(owner, added.body.data.id);
    expect(verified.status, verified.text).to.equal(200);
    expect(verified.body.data.verified).to.equal(true);

    dns.txt.set(rivalClaim.body.data.txtRecord.name, [rivalClaim.body.data.txtRecord.value]);
    const taken = await verify(rival, rivalClaim.body.data.id);
    expect(taken.status).to.equal(409);
    expect(taken.body.error.code).to.equal('DOMAIN_TAKEN');
    expect((await app.api.post('/organizations/sso/domains', { domain: `other-${domain}` }, rival.auth)).status).to.equal(201);
    expect((await verify(rival, added.body.data.id)).status).to.equal(404); // another tenant's claim
    expect((await app.api.delete(`/organizations/sso/domains/${rivalClaim.body.data.id}`, rival.auth)).status).to.equal(200);
    expect((await app.api.delete(`/organizations/sso/domains/${rivalClaim.body.data.id}`, rival.auth)).status).to.equal(404);
  });

  it('signs a new user in just in time with the default role, and the same user again without a second membership', async () => {
    const email = `ama.${randomUUID().slice(0, 6)}@${domain}`;
    idp.accounts.set(email, { email, givenName: 'Ama', familyName: 'Owusu' });
    const first = await ssoSignIn(email);
    expect(first.status, first.text).to.equal(200);
    expect(first.body.data.user).to.include({ email, firstName: 'Ama', lastName: 'Owusu' });
    expect(first.body.data.organizationId).to.equal(owner.organizationId);
    expect(first.body.data.organizations).to.deep.equal([{ id: owner.organizationId, name: 'Org sso-owner', role: 'CAMPAIGN_MANAGER' }]);
    const me = await app.api.get('/auth/me', { token: first.body.data.token });
    expect(me.status).to.equal(200);
    expect((await app.api.get('/organizations/current', { token: first.body.data.token, organizationId: owner.organizationId })).status).to.equal(200);
    // The default role is not an admin's: SSO settings stay with owners and admins.
    expect((await app.api.get('/organizations/sso', { token: first.body.data.token, organizationId: owner.organizationId })).body.error.code).to.equal('FORBIDDEN');

    const again = await ssoSignIn(email);
    expect(again.status, again.text).to.equal(200);
    expect(again.body.data.user.id).to.equal(first.body.data.user.id);
    const members = await app.api.get('/organizations/members', owner.auth);
    expect(members.text.split(email).length - 1).to.equal(1);
    // The new membership is in the organization's audit log once, with the member as actor and the default role.
    const audit = await app.api.get('/audit-log?action=sso.member_provisioned', owner.auth);
    expect(audit.status, audit.text).to.equal(200);
    const provisioned = audit.body.data.items.filter((e: { target: { id: string } }) => e.target.id === first.body.data.user.id);
    expect(provisioned).to.have.length(1);
    expect(JSON.stringify(provisioned[0])).to.include('CAMPAIGN_MANAGER').and.include(email);
    // Started by the organization's slug instead of an email: the same provider.
    const bySlug = await start({ organization: slug.toUpperCase() });
    expect(new URL(bySlug.body.data.authorizationUrl).origin).to.equal(idp.issuer);
    expect(bySlug.headers.getSetCookie()[0]).to.match(/^nkra_sso=.+; path=\/auth\/sso; .*httponly/i);
  });

  it('refuses a password sign-in with SSO_REQUIRED once "SSO only" is on, except for a platform administrator', async () => {
    const password = 'correct-horse-battery';
    const member = `kofi.${randomUUID().slice(0, 6)}@${domain}`;
    const admin = `root.${randomUUID().slice(0, 6)}@${domain}`;
    for (const email of [member, admin]) expect((await app.api.post('/auth/register', { email, password, firstName: 'K', lastName: 'B' })).status).to.equal(201);
    const storage = app.container.get(INFRA.storage);
    await storage.users.setPlatformRole((await storage.users.findByEmail(admin))!.id, 'PLATFORM_SUPER_ADMIN');
    expect((await app.api.post('/auth/login', { email: member, password })).status).to.equal(200);

    expect((await configure(owner, { issuerUrl: idp.issuer, clientId: idp.clientId, slug, defaultRole: 'CAMPAIGN_MANAGER', ssoOnly: true })).status).to.equal(200);
    const refused = await app.api.post('/auth/login', { email: member, password });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('SSO_REQUIRED');
    expect(refused.body.error.details).to.deep.equal({ organizationId: owner.organizationId, domain });
    expect((await app.api.post('/auth/login', { email: member, password: 'wrong-password-1' })).body.error.code).to.equal('INVALID_CREDENTIALS');
    expect((await app.api.post('/auth/login', { email: admin, password })).status).to.equal(200);
    const registration = await app.api.post('/auth/register', { email: `new.${randomUUID().slice(0, 6)}@${domain}`, password, firstName: 'N', lastName: 'U' });
    expect(registration.body.error.code).to.equal('SSO_REQUIRED');
    // Single sign-on itself still works for the refused member, who becomes a member just in time.
    idp.accounts.set(member, { email: member });
    expect((await ssoSignIn(member)).body.data.organizations.map((o: { id: string }) => o.id)).to.deep.equal([owner.organizationId]);
    expect((await configure(owner, { issuerUrl: idp.issuer, clientId: idp.clientId, slug, defaultRole: 'CAMPAIGN_MANAGER', ssoOnly: false })).status).to.equal(200);
  });

  it('refuses a callback with the wrong state, without the sign-in cookie, or with an ID token for another nonce (SSO_STATE_MISMATCH)', async () => {
    const email = `yaw.${randomUUID().slice(0, 6)}@${domain}`;
    idp.accounts.set(email, { email });
    const wrongState = await ssoSignIn(email, { params: (p) => ({ ...p, state: 'forged-state' }) });
    expect([wrongState.status, wrongState.body.error.code, wrongState.body.error.details.reason]).to.deep.equal([400, 'SSO_STATE_MISMATCH', 'state mismatch']);
    const noCookie = await ssoSignIn(email, { cookie: null });
    expect([noCookie.status, noCookie.body.error.code]).to.deep.equal([400, 'SSO_STATE_MISMATCH']);
    const forgedCookie = await ssoSignIn(email, { cookie: 'nkra_sso=bm90LXNlYWxlZA' });
    expect(forgedCookie.body.error.details.reason).to.equal('sign-in state not readable');
    const otherNonce = await ssoSignIn(email, { tamper: (url) => url.searchParams.set('nonce', 'a-nonce-this-browser-never-got') });
    expect([otherNonce.status, otherNonce.body.error.code]).to.deep.equal([400, 'SSO_STATE_MISMATCH']);
    expect(otherNonce.body.error.message).to.include('nonce');
    expect(await app.container.get(INFRA.storage).users.findByEmail(email)).to.equal(null);
  });

  it('refuses an identity outside the organization\'s verified domains (SSO_DOMAIN_MISMATCH) and creates nobody', async () => {
    const outsider = `esi.${randomUUID().slice(0, 6)}@elsewhere-${randomUUID().slice(0, 6)}.test`;
    idp.accounts.set(outsider, { email: outsider });
    const answer = await ssoSignIn(outsider, { });
    expect([answer.status, answer.body.error.code]).to.deep.equal([403, 'SSO_DOMAIN_MISMATCH']);
    expect(await app.container.get(INFRA.storage).users.findByEmail(outsider)).to.equal(null);
  });

  it('answers SSO_LOGIN_FAILED when the provider returns an error or an unverified email', async () => {
    const kwame = `kwame.${randomUUID().slice(0, 6)}@${domain}`;
    idp.accounts.set(kwame, { email: kwame });
    const denied = await ssoSignIn(kwame, { params: (p) => ({ state: p['state']!, error: 'access_denied' }) });
    expect([denied.status, denied.body.error.code, denied.body.error.details.error]).to.deep.equal([401, 'SSO_LOGIN_FAILED', 'access_denied']);
    const unverified = `abena.${randomUUID().slice(0, 6)}@${domain}`;
    idp.accounts.set(unverified, { email: unverified, emailVerified: false });
    const answer = await ssoSignIn(unverified);
    expect([answer.status, answer.body.error.code, answer.body.error.details.error]).to.deep.equal([401, 'SSO_LOGIN_FAILED', 'email_not_verified']);
    // A code used once is refused by the provider the second time.
    const started = await start({ email: kwame });
    const back = await idp.signIn(started.body.data.authorizationUrl, kwame);
    const params = Object.fromEntries(back.searchParams);
    expect((await app.api.post('/auth/sso/callback', params, {}, { cookie: cookieOf(started) })).status).to.equal(200);
    const replay = await app.api.post('/auth/sso/callback', params, {}, { cookie: cookieOf(started) });
    expect([replay.status, replay.body.error.code, replay.body.error.details.error]).to.deep.equal([401, 'SSO_LOGIN_FAILED', 'invalid_grant']);
  });

  it('answers SSO_NOT_CONFIGURED for a domain or slug without SSO, and SSO_PROVIDER_UNAVAILABLE for an unreachable or refused issuer', async () => {
    expect((await start({ email: `a@nobody-${randomUUID().slice(0, 6)}.test` })).body.error.code).to.equal('SSO_NOT_CONFIGURED');
    expect((await start({ organization: 'no-such-slug' })).status).to.equal(404);
    expect((await start({})).body.error.code).to.equal('VALIDATION_ERROR');

    const down = await registerTenant(app.api, 'sso-down');
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const downSlug = `down-${randomUUID().slice(0, 8)}`;
    expect((await configure(down, { issuerUrl: `http://127.0.0.1:${port}`, clientId: 'c', clientSecret: 's', slug: downSlug })).status).to.equal(200);
    const unreachable = await start({ organization: downSlug });
    expect([unreachable.status, unreachable.body.error.code]).to.deep.equal([502, 'SSO_PROVIDER_UNAVAILABLE']);
    expect(unreachable.body.error.details.reason).to.match(/network error/);

    // An issuer that accepts the connection and never answers: bounded by SSO_TIMEOUT_MS.
    const silent = net.createServer(() => { /* never answers */ });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      expect((await configure(down, { issuerUrl: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, clientId: 'c', slug: downSlug })).status).to.equal(200);
      const began = Date.now();
      const hung = await start({ organization: downSlug });
      expect([hung.status, hung.body.error.code]).to.deep.equal([502, 'SSO_PROVIDER_UNAVAILABLE']);
      expect(hung.body.error.details.reason).to.match(/no answer within 1500 ms|timed out/);
      expect(Date.now() - began).to.be.below(4_000);
    } finally {
      silent.close();
    }

    // A connection whose issuer became a private address (stored before, or DNS changed): the egress policy refuses the call.
    const storage = app.container.get(INFRA.storage);
    const saved = (await storage.sso.findConnection(down.organizationId))!;
    await storage.sso.saveConnection({ ...saved, issuerUrl: 'http://10.255.255.1' });
    const refused = await start({ organization: downSlug });
    expect([refused.status, refused.body.error.code]).to.deep.equal([502, 'SSO_PROVIDER_UNAVAILABLE']);
    expect(refused.body.error.details.reason).to.match(/egress policy/);
  });
});
