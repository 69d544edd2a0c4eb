import { expect } from 'chai';
import { generate } from 'otplib';
import type { Storage } from '../../core/ports/storage.ts';
import { INFRA } from '../../hosts/tokens.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerTenant, registerUser } from '../support/tenants.ts';

/** A code of the authenticator app `stepsAhead` 30-second steps from now, by otplib's own generator. */
const codeAt = (secret: string, stepsAhead = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/**
 * Two-factor sign-in (issue 34; docs/security.md, "Two-factor sign-in"; ADR 0038): TOTP enrolment, the challenge
 * token of the password step, the second step with a code or a recovery code, replay protection, lockout, disabling,
 * the organization's requirement and the platform administrators' one. Passkeys: tests/e2e/two-factor.test.ts.
 */
describe('HTTP: two-factor sign-in', function () {
  this.timeout(60_000);
  let app: TestApp;
  let adminApp: TestApp;
  const storage = () => app.container.get<Storage>(INFRA.storage);
  before(async () => {
    app = await startTestApp({ config: { loginLimitPerEmail: 4 } });
    adminApp = await startTestApp({ config: { twoFactor: { rpId: 'localhost', rpName: 'Nkra', issuer: 'Nkra', origins: ['http://localhost:3000'], challengeTtlSeconds: 300, requiredForPlatformAdmins: true } } });
  });
  after(async () => { await app?.close(); await adminApp?.close(); });

  /** Enrols an authenticator for a signed-in user: answers the secret and the recovery codes. */
  async function enrol(token: string): Promise<{ secret: string; recoveryCodes: string[]; confirmCode: string }> {
    const started = await app.api.post('/auth/two-factor/totp', undefined, { token });
    expect(started.status, started.text).to.equal(200);
    const { secret, otpauthUri } = started.body.data as { secret: string; otpauthUri: string };
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    expect(otpauthUri).to.match(/^otpauth:\/\/totp\/Nkra:.+\?.*secret=/);
    const confirmCode = await codeAt(secret);
    const confirmed = await app.api.post('/auth/two-factor/totp/confirm', { code: confirmCode }, { token });
    expect(confirmed.status, confirmed.text).to.equal(200);
    return { secret, recoveryCodes: confirmed.body.data.recoveryCodes, confirmCode };
  }

  async function passwordStep(user: { email: string; password: string }, target = app) {
    const res = await target.api.post('/auth/login', { email: user.email, password: user.password });
    expect(res.status, res.text).to.equal(200);
    return res.body.data as { token?: string; twoFactor?: { status: string; challengeToken: string; expiresAt: string; methods: string[]; reason?: string } };
  }

  it('enrols an authenticator app, then sign-in answers a challenge (no session) that a code completes; a code works once', async () => {
    const user = await registerUser(app.api, 'totp');
    const plain = await passwordStep(user);
    expect(plain.token).to.be.a('string'); // no two-factor yet: the spec's login answer
    expect(plain).to.not.have.property('twoFactor');

    const { secret, recoveryCodes, confirmCode } = await enrol(user.token);
    expect(recoveryCodes).to.have.length(10);
    expect(new Set(recoveryCodes).size).to.equal(10);
    recoveryCodes.forEach((c) => expect(c).to.match(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/));

    const status = await app.api.get('/auth/two-factor', { token: user.token });
    expect(status.body.data).to.deep.include({ enabled: true, recoveryCodesLeft: 10, passkeys: [] });
    expect(status.text).to.not.include(secret);
    // Sealed at rest: the stored secret is ciphertext, never the Base32 secret.
    const stored = await storage().secondFactors.findTotp(user.userId);
    expect(stored!.sealedSecret).to.match(/^v1\./).and.not.include(secret);
    // Starting again while confirmed: CONFLICT, and the secret is never shown again.
    expect((await app.api.post('/auth/two-factor/totp', undefined, { token: user.token })).body.error.code).to.equal('CONFLICT');

    const step = await passwordStep(user);
    expect(step).to.not.have.property('token');
    expect(step.twoFactor).to.deep.include({ status: 'required', methods: ['totp', 'recovery_code'] });
    expect(Date.parse(step.twoFactor!.expiresAt) - Date.now()).to.be.within(200_000, 300_000);
    // The challenge token opens nothing else.
    expect((await app.api.get('/auth/me', { token: step.twoFactor!.challengeToken })).status).to.equal(401);

    // The confirming code's time step is spent: the same code is refused (replay), and so is the step before.
    const replay = await app.api.post('/auth/login/two-factor', { challengeToken: step.twoFactor!.challengeToken, code: confirmCode });
    expect(replay.status).to.equal(401);
    expect(replay.body.error.code).to.equal('INVALID_SECOND_FACTOR');
    const earlier = await app.api.post('/auth/login/two-factor', { challengeToken: step.twoFactor!.challengeToken, code: await codeAt(secret, -1) });
    expect(earlier.body.error.code).to.equal('INVALID_SECOND_FACTOR');
    const wrong = await app.api.post('/auth/login/two-factor', { challengeToken: step.twoFactor!.challengeToken, code: '000000' === (await codeAt(secret, 1)) ? '111111' : '000000' });
    expect(wrong.body.error.code).to.equal('INVALID_SECOND_FACTOR');

    const next = await codeAt(secret, 1); // the next step (one step of drift is accepted)
    const done = await app.api.post('/auth/login/two-factor', { challengeToken: step.twoFactor!.challengeToken, code: next });
    expect(done.status, done.text).to.equal(200);
    expect(done.body.data).to.include.keys('token', 'expiresAt', 'deviceToken', 'user', 'organizations');
    expect((await app.api.get('/auth/me', { token: done.body.data.token })).status).to.equal(200);

    // The challenge is single use, and the same code cannot open a second sign-in.
    const again = await app.api.post('/auth/login/two-factor', { challengeToken: step.twoFactor!.challengeToken, code: next });
    expect(again.body.error.code).to.equal('INVALID_CHALLENGE_TOKEN');
    const second = await passwordStep(user);
    const reused = await app.api.post('/auth/login/two-factor', { challengeToken: second.twoFactor!.challengeToken, code: next });
    expect(reused.body.error.code).to.equal('INVALID_SECOND_FACTOR');
  });

  it('accepts each recovery code once', async () => {
    const user = await registerUser(app.api, 'recovery');
    const { recoveryCodes } = await enrol(user.token);
    const first = await passwordStep(user);
    const used = await app.api.post('/auth/login/two-factor', { challengeToken: first.twoFactor!.challengeToken, recoveryCode: recoveryCodes[0]!.toLowerCase() });
    expect(used.status, used.text).to.equal(200);
    const second = await passwordStep(user);
    const reused = await app.api.post('/auth/login/two-factor', { challengeToken: second.twoFactor!.challengeToken, recoveryCode: recoveryCodes[0] });
    expect(reused.status).to.equal(401);
    expect(reused.body.error.code).to.equal('INVALID_SECOND_FACTOR');
    expect((await app.api.get('/auth/two-factor', { token: used.body.data.token })).body.data.recoveryCodesLeft).to.equal(9);
    const other = await app.api.post('/auth/login/two-factor', { challengeToken: second.twoFactor!.challengeToken, recoveryCode: recoveryCodes[1] });
    expect(other.status).to.equal(200);
  });

  it('refuses forged, expired and wrong-kind challenge tokens, and bad bodies, with clear codes', async () => {
    const user = await registerUser(app.api, 'challenge');
    const { secret } = await enrol(user.token);
    const forged = await app.api.post('/auth/login/two-factor', { challengeToken: 'A'.repeat(43), code: await codeAt(secret, 1) });
    expect(forged.status).to.equal(401);
    expect(forged.body.error.code).to.equal('INVALID_CHALLENGE_TOKEN');
    // A real token whose challenge expired (dated in the past in the store).
    const step = await passwordStep(user);
    const { createHash } = await import('node:crypto');
    const id = createHash('sha256').update(`sign-in-challenge:${step.twoFactor!.challengeToken}`).digest('hex');
    const challenge = await storage().signInChallenges.find(id);
    await storage().signInChallenges.save({ ...challenge!, expiresAt: new Date(Date.now() - 1000) });
    const expired = await app.api.post('/auth/login/two-factor', { challengeToken: step.twoFactor!.challengeToken, code: await codeAt(secret, 1) });
    expect(expired.body.error.code).to.equal('INVALID_CHALLENGE_TOKEN');
    // A session token is no challenge token.
    expect((await app.api.post('/auth/login/two-factor', { challengeToken: user.token, code: '123456' })).body.error.code).to.equal('INVALID_CHALLENGE_TOKEN');
    const both = await app.api.post('/auth/login/two-factor', { challengeToken: step.twoFactor!.challengeToken, code: '123456', recoveryCode: 'AAAA-BBBB-CCCC-DDDD' });
    expect(both.status).to.equal(400);
    expect(both.body.error.code).to.equal('VALIDATION_ERROR');
    // A second-step token cannot enrol.
    const fresh = await passwordStep(user);
    expect((await app.api.post('/auth/login/two-factor/enrol/totp', { challengeToken: fresh.twoFactor!.challengeToken })).body.error.code).to.equal('INVALID_CHALLENGE_TOKEN');
    // No passkey registered: passkey options are refused.
    expect((await app.api.post('/auth/login/two-factor/passkey-options', { challengeToken: fresh.twoFactor!.challengeToken })).status).to.equal(404);
  });

  it('locks the second step after repeated wrong codes (RATE_LIMITED with the wait), even with a fresh challenge', async () => {
    const user = await registerUser(app.api, 'lockout');
    const { secret } = await enrol(user.token);
    const step = await passwordStep(user);
    for (let i = 0; i < 4; i += 1) {
      const res = await app.api.post('/auth/login/two-factor', { challengeToken: step.twoFactor!.challengeToken, recoveryCode: `WRNG-CODE-${i}AAA-AAAA` });
      expect(res.body.error.code).to.equal('INVALID_SECOND_FACTOR');
    }
    const locked = await app.api.post('/auth/login/two-factor', { challengeToken: step.twoFactor!.challengeToken, code: await codeAt(secret, 1) });
    expect(locked.status).to.equal(429);
    expect(locked.body.error.code).to.equal('RATE_LIMITED');
    expect(locked.body.error.details.retryAfterSeconds).to.be.within(1, 900);
    expect(Number(locked.headers.get('retry-after'))).to.be.within(1, 900);
    const fresh = await passwordStep(user);
    expect((await app.api.post('/auth/login/two-factor', { challengeToken: fresh.twoFactor!.challengeToken, code: await codeAt(secret, 1) })).status).to.equal(429);
  });

  it('turns two-factor off with the password or a current code only, and regenerates recovery codes', async () => {
    const user = await registerUser(app.api, 'disable');
    const { secret, recoveryCodes } = await enrol(user.token);
    expect((await app.api.post('/auth/two-factor/disable', {}, { token: user.token })).body.error.code).to.equal('VALIDATION_ERROR');
    expect((await app.api.post('/auth/two-factor/disable', { password: 'not-the-password' }, { token: user.token })).body.error.code).to.equal('INVALID_CREDENTIALS');
    expect((await app.api.post('/auth/two-factor/disable', { code: '12345' }, { token: user.token })).body.error.code).to.equal('INVALID_SECOND_FACTOR');
    const regenerated = await app.api.post('/auth/two-factor/recovery-codes', { code: recoveryCodes[0] }, { token: user.token });
    expect(regenerated.status, regenerated.text).to.equal(200);
    expect(regenerated.body.data.recoveryCodes).to.have.length(10).and.not.include(recoveryCodes[1]);
    const off = await app.api.post('/auth/two-factor/disable', { code: await codeAt(secret, 1) }, { token: user.token });
    expect(off.status, off.text).to.equal(200);
    expect(off.body.data).to.deep.equal({ enabled: false });
    const login = await passwordStep(user);
    expect(login.token).to.be.a('string');
    expect(await storage().secondFactors.findTotp(user.userId)).to.equal(null);
    // Turned off: no recovery codes to regenerate.
    expect((await app.api.post('/auth/two-factor/recovery-codes', { password: user.password }, { token: user.token })).body.error.code).to.equal('CONFLICT');
  });

  it('lets an owner require two-factor (after enrolling), and walks a member without it through enrolment at sign-in', async () => {
    const owner = await registerTenant(app.api, 'policy-owner');
    const member = await registerUser(app.api, 'policy-member');
    await app.api.post('/organizations/invite', { email: member.email, role: 'TENANT_ADMIN' }, owner.auth);
    const viewer = await registerUser(app.api, 'policy-viewer');
    await app.api.post('/organizations/invite', { email: viewer.email, role: 'VIEWER' }, owner.auth);

    const early = await app.api.put('/organizations/current/two-factor', { required: true }, owner.auth);
    expect(early.status).to.equal(403);
    expect(early.body.error.code).to.equal('TWO_FACTOR_ENROLMENT_REQUIRED');
    await enrol(owner.token);
    const viewerAuth = { token: viewer.token, organizationId: owner.organizationId };
    expect((await app.api.put('/organizations/current/two-factor', { required: true }, viewerAuth)).body.error.code).to.equal('FORBIDDEN');
    expect((await app.api.put('/organizations/current/two-factor', { required: 'yes' }, owner.auth)).body.error.code).to.equal('VALIDATION_ERROR');
    const on = await app.api.put('/organizations/current/two-factor', { required: true }, owner.auth);
    expect(on.status, on.text).to.equal(200);
    expect((await app.api.get('/organizations/current/two-factor', viewerAuth)).body.data).to.deep.equal({ required: true });

    const step = await passwordStep(member);
    expect(step).to.not.have.property('token');
    expect(step.twoFactor).to.deep.include({ status: 'enrolment_required', reason: 'organization', methods: ['totp', 'passkey'] });
    const challengeToken = step.twoFactor!.challengeToken;
    // The enrolment token is not a second step, and opens nothing else.
    const notYet = await app.api.post('/auth/login/two-factor', { challengeToken, code: '123456' });
    expect(notYet.status).to.equal(403);
    expect(notYet.body.error.code).to.equal('TWO_FACTOR_ENROLMENT_REQUIRED');
    expect((await app.api.get('/auth/two-factor', { token: challengeToken })).status).to.equal(401);

    const started = await app.api.post('/auth/login/two-factor/enrol/totp', { challengeToken });
    expect(started.status, started.text).to.equal(200);
    const secret = started.body.data.secret as string;
    expect((await app.api.post('/auth/login/two-factor/enrol/totp/confirm', { challengeToken, code: '000000' === (await codeAt(secret)) ? '111111' : '000000' })).body.error.code).to.equal('INVALID_SECOND_FACTOR');
    const confirmed = await app.api.post('/auth/login/two-factor/enrol/totp/confirm', { challengeToken, code: await codeAt(secret) });
    expect(confirmed.status, confirmed.text).to.equal(200);
    expect(confirmed.body.data.recoveryCodes).to.have.length(10);
    expect((await app.api.get('/auth/me', { token: confirmed.body.data.token })).status).to.equal(200);
    // Next sign-in: the normal second step.
    expect((await passwordStep(member)).twoFactor!.status).to.equal('required');
    // Turned off again: a member without two-factor signs in directly.
    await app.api.put('/organizations/current/two-factor', { required: false }, owner.auth);
    expect((await passwordStep(viewer)).token).to.be.a('string');
  });

  it('requires two-factor of platform administrators when configured (always in production)', async () => {
    const admin = await registerUser(adminApp.api, 'platform-2fa');
    await adminApp.container.get<Storage>(INFRA.storage).users.setPlatformRole(admin.userId, 'PLATFORM_SUPER_ADMIN');
    const step = await passwordStep(admin, adminApp);
    expect(step).to.not.have.property('token');
    expect(step.twoFactor).to.deep.include({ status: 'enrolment_required', reason: 'platform' });
    const status = await adminApp.api.get('/auth/two-factor', { token: admin.token });
    expect(status.body.data.required).to.deep.equal({ byOrganization: false, byPlatform: true });
    // Other users of the same server are not affected.
    const plain = await registerUser(adminApp.api, 'platform-plain');
    expect((await passwordStep(plain, adminApp)).token).to.be.a('string');
    // An impersonation session (issued before the requirement: sessions run until they end) cannot change factors.
    const tenant = await registerTenant(adminApp.api, 'platform-impersonated');
    const impersonation = await adminApp.api.post(`/admin/tenants/${tenant.organizationId}/impersonate`, undefined, { token: admin.token });
    expect(impersonation.status, impersonation.text).to.equal(200);
    const refused = await adminApp.api.post('/auth/two-factor/totp', undefined, { token: impersonation.body.data.token, organizationId: tenant.organizationId });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('FORBIDDEN');
  });
});
