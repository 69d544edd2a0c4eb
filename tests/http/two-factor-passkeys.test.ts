import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import type { Storage } from '../../core/ports/storage.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser } from '../support/tenants.ts';

const ORIGIN = 'http://localhost:3000'; // the test configuration's WebAuthn origin (rpId localhost)

/**
 * Passkeys as a second factor over HTTP (docs/security.md, "Passkeys"): ceremonies answered by a software
 * authenticator and verified by @simplewebauthn/server. In a real browser: tests/e2e/two-factor.test.ts.
 */
describe('HTTP: two-factor with passkeys', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => { app = await startTestApp(); });
  after(async () => { await app?.close(); });

  async function register(token: string, authenticator: SoftAuthenticator, name = 'Laptop') {
    const options = await app.api.post('/auth/two-factor/passkeys/options', undefined, { token });
    expect(options.status, options.text).to.equal(200);
    expect(options.body.data.options).to.deep.include({ rp: { id: 'localhost', name: 'Nkra' } });
    return app.api.post('/auth/two-factor/passkeys', { name, response: authenticator.create(options.body.data.options) }, { token });
  }

  async function challengeFor(user: { email: string; password: string }): Promise<string> {
    const login = await app.api.post('/auth/login', { email: user.email, password: user.password });
    expect(login.body.data).to.not.have.property('token');
    return login.body.data.twoFactor.challengeToken as string;
  }

  it('registers a passkey (recovery codes with the first factor), signs in with it, refuses replays and forgeries, and removes it', async () => {
    const user = await registerUser(app.api, 'passkey');
    const authenticator = new SoftAuthenticator(ORIGIN);
    const created = await register(user.token, authenticator);
    expect(created.status, created.text).to.equal(201);
    expect(created.body.data.passkey).to.deep.include({ id: authenticator.id, name: 'Laptop', lastUsedAt: null });
    expect(created.body.data.recoveryCodes).to.have.length(10);
    // The registration challenge is single use; the same credential cannot be registered twice.
    const again = await app.api.post('/auth/two-factor/passkeys', { response: authenticator.create({ challenge: 'AAAA', rp: { id: 'localhost' } }) }, { token: user.token });
    expect(again.body.error.code).to.equal('INVALID_SECOND_FACTOR');
    expect((await register(user.token, authenticator)).body.error.code).to.equal('CONFLICT');
    // An answer from another origin does not verify.
    const elsewhere = await register(user.token, new SoftAuthenticator('https://evil.example'));
    expect(elsewhere.body.error.code).to.equal('INVALID_SECOND_FACTOR');

    const challengeToken = await challengeFor(user);
    const login = await app.api.post('/auth/login', { email: user.email, password: user.password });
    expect(login.body.data.twoFactor.methods).to.deep.equal(['passkey', 'recovery_code']);
    const options = await app.api.post('/auth/login/two-factor/passkey-options', { challengeToken });
    expect(options.status, options.text).to.equal(200);
    expect(options.body.data.options.allowCredentials.map((c: { id: string }) => c.id)).to.deep.equal([authenticator.id]);
    const assertion = authenticator.get(options.body.data.options);

    // Signed by another key: refused (and counted).
    const forgedKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const forged = await app.api.post('/auth/login/two-factor', { challengeToken, passkey: authenticator.get(options.body.data.options, forgedKey) });
    expect(forged.status).to.equal(401);
    expect(forged.body.error.code).to.equal('INVALID_SECOND_FACTOR');

    const signedIn = await app.api.post('/auth/login/two-factor', { challengeToken, passkey: assertion });
    expect(signedIn.status, signedIn.text).to.equal(200);
    expect(signedIn.body.data).to.include.keys('token', 'deviceToken', 'user', 'organizations');
    const stored = await app.container.get<Storage>(INFRA.storage).secondFactors.findPasskey(user.userId, authenticator.id);
    expect(stored!.counter).to.be.greaterThan(0);
    expect(stored!.lastUsedAt).to.be.an.instanceOf(Date);

    // The same assertion against a new sign-in: its challenge is another one.
    const next = await challengeFor(user);
    const replayed = await app.api.post('/auth/login/two-factor', { challengeToken: next, passkey: assertion });
    expect(replayed.body.error.code).to.equal('INVALID_SECOND_FACTOR');

    expect((await app.api.post(`/auth/two-factor/passkeys/${authenticator.id}/remove`, {}, { token: user.token })).body.error.code).to.equal('VALIDATION_ERROR');
    expect((await app.api.post('/auth/two-factor/passkeys/unknown/remove', { password: user.password }, { token: user.token })).status).to.equal(404);
    const removed = await app.api.post(`/auth/two-factor/passkeys/${authenticator.id}/remove`, { password: user.password }, { token: user.token });
    expect(removed.status, removed.text).to.equal(200);
    expect(removed.body.data).to.deep.equal({ removed: true, enabled: false });
    expect((await app.api.get('/auth/two-factor', { token: user.token })).body.data).to.deep.include({ enabled: false, recoveryCodesLeft: 0 });
    expect((await app.api.post('/auth/login', { email: user.email, password: user.password })).body.data.token).to.be.a('string');
  });

  it('enrols a passkey during a sign-in the organization requires, and answers the session with it', async () => {
    const owner = await registerTenant(app.api, 'passkey-owner');
    await register(owner.token, new SoftAuthenticator(ORIGIN));
    expect((await app.api.put('/organizations/current/two-factor', { required: true }, owner.auth)).status).to.equal(200);
    const member = await registerUser(app.api, 'passkey-member');
    await app.api.post('/organizations/invite', { email: member.email, role: 'DEVELOPER' }, owner.auth);

    const challengeToken = await challengeFor(member);
    const options = await app.api.post('/auth/login/two-factor/enrol/passkey-options', { challengeToken });
    expect(options.status, options.text).to.equal(200);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const enrolled = await app.api.post('/auth/login/two-factor/enrol/passkey', { challengeToken, name: 'Phone', response: authenticator.create(options.body.data.options) });
    expect(enrolled.status, enrolled.text).to.equal(200);
    expect(enrolled.body.data.recoveryCodes).to.have.length(10);
    expect(enrolled.body.data.passkey.name).to.equal('Phone');
    const me = await app.api.get('/auth/me', { token: enrolled.body.data.token });
    expect(me.status).to.equal(200);
    // The enrolment challenge is used up.
    expect((await app.api.post('/auth/login/two-factor/enrol/passkey-options', { challengeToken })).body.error.code).to.equal('INVALID_CHALLENGE_TOKEN');
  });
});
