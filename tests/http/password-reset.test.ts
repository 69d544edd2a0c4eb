import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerUser, uniqueEmail } from '../support/tenants.ts';

const NEW_PASSWORD = 'a-brand-new-passphrase';

/** The token of the last reset link the app emailed to `email`. */
function tokenFor(app: TestApp, email: string): string {
  const text = app.email.lastTo(email)?.text ?? '';
  const match = /http:\/\/localhost:3000\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no reset link emailed to ${email}`);
  return match[1];
}

describe('HTTP: /auth forgot-password and reset-password', () => {
  let app: TestApp;
  before(async () => { app = await startTestApp(); });
  after(async () => { await app.close(); });

  it('resets a password end to end: the old one stops working, the new one logs in', async () => {
    const user = await registerUser(app.api, 'reset');

    const forgot = await app.api.post('/auth/forgot-password', { email: user.email });
    expect(forgot.status).to.equal(200);
    expect(forgot.body).to.deep.equal({ success: true, data: { message: forgot.body.data.message } });
    expect(forgot.body.data.message).to.be.a('string').and.not.be.empty;

    const reset = await app.api.post('/auth/reset-password', { token: tokenFor(app, user.email), password: NEW_PASSWORD });
    expect(reset.status).to.equal(200);
    expect(reset.body.success).to.equal(true);

    const oldLogin = await app.api.post('/auth/login', { email: user.email, password: user.password });
    expect(oldLogin.status).to.equal(401);
    expect(oldLogin.body.error.code).to.equal('INVALID_CREDENTIALS');
    const newLogin = await app.api.post('/auth/login', { email: user.email, password: NEW_PASSWORD });
    expect(newLogin.status).to.equal(200);
    expect(newLogin.body.data.user.id).to.equal(user.userId);
  });

  it('ends every existing session of the user on reset (a stolen token stops working), while a new login works', async () => {
    const user = await registerUser(app.api, 'reset-sessions');
    const second = (await app.api.post('/auth/login', { email: user.email, password: user.password })).body.data.token as string;
    expect((await app.api.get('/auth/me', { token: user.token })).status).to.equal(200);
    await app.api.post('/auth/forgot-password', { email: user.email });
    expect((await app.api.post('/auth/reset-password', { token: tokenFor(app, user.email), password: NEW_PASSWORD })).status).to.equal(200);
    for (const stale of [user.token, second]) {
      const res = await app.api.get('/auth/me', { token: stale });
      expect(res.status).to.equal(401);
      expect(res.body.error.code).to.equal('UNAUTHORIZED');
    }
    const fresh = (await app.api.post('/auth/login', { email: user.email, password: NEW_PASSWORD })).body.data.token as string;
    expect((await app.api.get('/auth/me', { token: fresh })).status).to.equal(200);
  });

  it('POST /auth/logout ends this session only: its token answers 401, another session of the user stays signed in', async () => {
    const user = await registerUser(app.api, 'logout');
    const other = (await app.api.post('/auth/login', { email: user.email, password: user.password })).body.data.token as string;
    const out = await app.api.post('/auth/logout', undefined, { token: user.token });
    expect(out.status, out.text).to.equal(200);
    expect(out.body.data).to.deep.equal({ loggedOut: true });
    expect((await app.api.get('/auth/me', { token: user.token })).status).to.equal(401);
    expect((await app.api.post('/auth/logout', undefined, { token: user.token })).status).to.equal(401);
    expect((await app.api.get('/auth/me', { token: other })).status).to.equal(200);
    expect((await app.api.post('/auth/logout')).status).to.equal(401);
  });

  it('answers an unknown email exactly like a known one, and emails nobody', async () => {
    const user = await registerUser(app.api, 'known');
    const sentBefore = app.email.sent.length;
    const known = await app.api.post('/auth/forgot-password', { email: user.email });
    const nobody = uniqueEmail('nobody');
    const unknown = await app.api.post('/auth/forgot-password', { email: nobody });

    expect(unknown.status).to.equal(200);
    expect(unknown.body).to.deep.equal(known.body);
    expect(app.email.sent.slice(sentBefore).map((e) => e.to)).to.deep.equal([user.email]);
    expect(app.email.lastTo(nobody)).to.equal(undefined);
  });

  it('answers 400 EMAIL_REQUIRED without an email, and VALIDATION_ERROR for a malformed one', async () => {
    const missing = await app.api.post('/auth/forgot-password', {});
    expect(missing.status).to.equal(400);
    expect(missing.body.success).to.equal(false);
    expect(missing.body.error.code).to.equal('EMAIL_REQUIRED');
    const blank = await app.api.post('/auth/forgot-password', { email: '' });
    expect(blank.body.error.code).to.equal('EMAIL_REQUIRED');
    const malformed = await app.api.post('/auth/forgot-password', { email: 'not-an-email' });
    expect(malformed.status).to.equal(400);
    expect(malformed.body.error.code).to.equal('VALIDATION_ERROR');
    expect(malformed.body.error.details.fieldErrors).to.have.keys('email');
  });

  it('keeps answering 200 past the per-email limit but stops emailing that address', async () => {
    const user = await registerUser(app.api, 'bombed');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await app.api.post('/auth/forgot-password', { email: user.email })).status);

    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 200, 200]);
    expect(app.email.sent.filter((e) => e.to === user.email)).to.have.length(5);
  });

  it('refuses a reused token with 400 INVALID_RESET_TOKEN', async () => {
    const user = await registerUser(app.api, 'reuse');
    await app.api.post('/auth/forgot-password', { email: user.email });
    const token = tokenFor(app, user.email);
    expect((await app.api.post('/auth/reset-password', { token, password: NEW_PASSWORD })).status).to.equal(200);

    const again = await app.api.post('/auth/reset-password', { token, password: 'yet-another-passphrase' });

    expect(again.status).to.equal(400);
    expect(again.body.error.code).to.equal('INVALID_RESET_TOKEN');
    expect((await app.api.post('/auth/login', { email: user.email, password: NEW_PASSWORD })).status).to.equal(200);
  });

  it('lets exactly one of two simultaneous resets with the same token win', async () => {
    const user = await registerUser(app.api, 'race');
    await app.api.post('/auth/forgot-password', { email: user.email });
    const token = tokenFor(app, user.email);

    const [a, b] = await Promise.all([
      app.api.post('/auth/reset-password', { token, password: 'first-racing-passphrase' }),
      app.api.post('/auth/reset-password', { token, password: 'second-racing-passphrase' }),
    ]);

    expect([a.status, b.status].sort()).to.deep.equal([200, 400]);
    const winner = a.status === 200 ? 'first-racing-passphrase' : 'second-racing-passphrase';
    expect((await app.api.post('/auth/login', { email: user.email, password: winner })).status).to.equal(200);
  });

  it('refuses an unknown token with 400 INVALID_RESET_TOKEN', async () => {
    const res = await app.api.post('/auth/reset-password', { token: 'no-such-token-anywhere', password: NEW_PASSWORD });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('INVALID_RESET_TOKEN');
  });

  it('refuses a weak password with 400 WEAK_PASSWORD and keeps the token usable', async () => {
    const user = await registerUser(app.api, 'weak');
    await app.api.post('/auth/forgot-password', { email: user.email });
    const token = tokenFor(app, user.email);

    const weak = await app.api.post('/auth/reset-password', { token, password: 'password123' });
    expect(weak.status).to.equal(400);
    expect(weak.body.error.code).to.equal('WEAK_PASSWORD');

    expect((await app.api.post('/auth/reset-password', { token, password: NEW_PASSWORD })).status).to.equal(200);
  });

  it('answers 400 VALIDATION_ERROR for a password under 8 characters or a missing token', async () => {
    const short = await app.api.post('/auth/reset-password', { token: 'some-token', password: 'short' });
    expect(short.status).to.equal(400);
    expect(short.body.error.code).to.equal('VALIDATION_ERROR');
    expect(short.body.error.details.fieldErrors).to.have.keys('password');
    const noToken = await app.api.post('/auth/reset-password', { password: NEW_PASSWORD });
    expect(noToken.body.error.code).to.equal('VALIDATION_ERROR');
    expect(noToken.body.error.details.fieldErrors).to.have.keys('token');
  });
});

describe('HTTP: rate limits on login and forgot-password', () => {
  let app: TestApp;
  before(async () => { app = await startTestApp({ config: { loginLimitPerEmail: 3, passwordResetLimitPerIp: 3 } }); });
  after(async () => { await app.close(); });

  it('answers the 4th login attempt for one email with 429 RATE_LIMITED and a Retry-After header', async () => {
    const user = await registerUser(app.api, 'brute');
    for (let i = 0; i < 3; i += 1) {
      expect((await app.api.post('/auth/login', { email: user.email, password: `wrong-guess-${i}` })).status).to.equal(401);
    }

    const blocked = await app.api.post('/auth/login', { email: user.email, password: user.password });

    expect(blocked.status).to.equal(429);
    expect(blocked.body.error.code).to.equal('RATE_LIMITED');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).to.be.within(1, 15 * 60);
    expect(blocked.body.error.details.retryAfterSeconds).to.equal(retryAfter);
  });

  it('answers forgot-password with 429 RATE_LIMITED and Retry-After once one IP passes its limit', async () => {
    // The IP counter is shared with every test in this run (all requests come from 127.0.0.1), so
    // the limit may be reached earlier than the 4th request but never later.
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i += 1) {
      last = await app.api.post('/auth/forgot-password', { email: uniqueEmail('flood') });
      statuses.push(last.status);
    }

    expect(statuses.every((s) => s === 200 || s === 429)).to.equal(true);
    expect(last!.status).to.equal(429);
    expect(last!.body.error.code).to.equal('RATE_LIMITED');
    expect(Number(last!.headers.get('retry-after'))).to.be.within(1, 3600);
  });
});
