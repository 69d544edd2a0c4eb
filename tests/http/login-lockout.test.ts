import { expect } from 'chai';
import { request } from 'node:http';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerUser } from '../support/tenants.ts';

interface Answer { status: number; retryAfter: string | undefined; body: { success: boolean; data?: Record<string, unknown>; error?: { code: string; message: string; details: Record<string, unknown> } } }

/** A JSON POST from one loopback address (the whole 127/8 reaches the server): one distinct client address each. */
function postFrom(app: TestApp, localAddress: string, path: string, body: unknown): Promise<Answer> {
  const url = new URL(path, app.url);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress, timeout: 10_000,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body: JSON.parse(text) }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Lockout denial of service (issue 28 item 5, docs/permissions.md "Login throttling"): failures spread over
 * many addresses must not keep out an owner who proves control (a known device or address, or a completed
 * reset), while guessing stays throttled. Counted in the database (rate_limit_windows).
 */
describe('HTTP: /auth/login lockout cannot keep the owner out', function () {
  this.timeout(120_000);
  let app: TestApp;
  let block = 0;
  /** A fresh /24 of loopback addresses per test: no counter carries over between tests. */
  const net = () => `127.${10 + (block += 1)}.${Math.floor(Math.random() * 200)}`;
  before(async () => { app = await startTestApp(); });
  after(async () => { await app?.close(); });

  /** ~110 failed logins from 11 addresses, 10 each (concurrently per address). */
  async function attack(email: string, prefix: string): Promise<void> {
    for (let a = 1; a <= 11; a += 1) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => postFrom(app, `${prefix}.${a}`, '/auth/login', { email, password: `guess-${a}-${i}` })));
      expect(answers.map((r) => r.status).every((s) => s === 401 || s === 429)).to.equal(true);
    }
  }

  it('refuses a fresh address with the wait shown, but lets the owner in from a known device or a known address', async () => {
    const user = await registerUser(app.api, 'lockout');
    const prefix = net();
    const first = await postFrom(app, `${prefix}.100`, '/auth/login', { email: user.email, password: user.password });
    expect(first.status).to.equal(200);
    const deviceToken = first.body.data!['deviceToken'] as string;
    expect(deviceToken).to.match(/^[A-Za-z0-9_-]{43}$/);

    await attack(user.email, prefix);

    const fresh = await postFrom(app, `${prefix}.150`, '/auth/login', { email: user.email, password: user.password });
    expect(fresh.status).to.equal(429);
    expect(fresh.body.error!.code).to.equal('RATE_LIMITED');
    expect(Number(fresh.retryAfter)).to.be.within(1, 900);
    expect(fresh.body.error!.details['retryAfterSeconds']).to.equal(Number(fresh.retryAfter));
    expect(fresh.body.error!.message).to.match(/try again in \d+ minutes?/);

    const byDevice = await postFrom(app, `${prefix}.151`, '/auth/login', { email: user.email, password: user.password, deviceToken });
    expect(byDevice.status).to.equal(200);
    expect(byDevice.body.data!['deviceToken']).to.equal(deviceToken);
    expect((await postFrom(app, `${prefix}.100`, '/auth/login', { email: user.email, password: user.password })).status).to.equal(200);

    // A made-up device token is no key, and an attacker's address stays blocked even with the right password.
    const forged = await postFrom(app, `${prefix}.152`, '/auth/login', { email: user.email, password: user.password, deviceToken: 'A'.repeat(43) });
    expect(forged.status).to.equal(429);
    expect((await postFrom(app, `${prefix}.1`, '/auth/login', { email: user.email, password: user.password, deviceToken })).status).to.equal(429);
  });

  it('lifts the lock on a completed password reset: the owner signs in from a fresh address at once', async () => {
    const user = await registerUser(app.api, 'lockout-reset');
    const prefix = net();
    await attack(user.email, prefix);
    expect((await postFrom(app, `${prefix}.150`, '/auth/login', { email: user.email, password: user.password })).status).to.equal(429);

    expect((await postFrom(app, `${prefix}.150`, '/auth/forgot-password', { email: user.email })).status).to.equal(200);
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(app.email.lastTo(user.email)?.text ?? '')![1]!;
    expect((await postFrom(app, `${prefix}.150`, '/auth/reset-password', { token, password: 'a-brand-new-passphrase' })).status).to.equal(200);
    expect((await postFrom(app, `${prefix}.150`, '/auth/login', { email: user.email, password: 'a-brand-new-passphrase' })).status).to.equal(200);
  });

  it('knows the registering browser and address from the start', async () => {
    const prefix = net();
    const email = `lockout-register-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    const registered = await postFrom(app, `${prefix}.100`, '/auth/register', { email, password: 'correct-horse-battery', firstName: 'Ama', lastName: 'Owusu' });
    expect(registered.status).to.equal(201);
    const deviceToken = registered.body.data!['deviceToken'] as string;
    expect(deviceToken).to.match(/^[A-Za-z0-9_-]{43}$/);
    await attack(email, prefix);
    expect((await postFrom(app, `${prefix}.150`, '/auth/login', { email, password: 'correct-horse-battery' })).status).to.equal(429);
    expect((await postFrom(app, `${prefix}.100`, '/auth/login', { email, password: 'correct-horse-battery' })).status).to.equal(200);
    expect((await postFrom(app, `${prefix}.151`, '/auth/login', { email, password: 'correct-horse-battery', deviceToken })).status).to.equal(200);
  });

  it('still stops guessing from a known device: 10 failures with its token block it on every address', async () => {
    const user = await registerUser(app.api, 'lockout-device');
    const prefix = net();
    const deviceToken = (await postFrom(app, `${prefix}.100`, '/auth/login', { email: user.email, password: user.password })).body.data!['deviceToken'] as string;
    for (let a = 1; a <= 10; a += 1) {
      expect((await postFrom(app, `${prefix}.${a}`, '/auth/login', { email: user.email, password: `guess-${a}`, deviceToken })).status).to.equal(401);
    }
    const again = await postFrom(app, `${prefix}.50`, '/auth/login', { email: user.email, password: user.password, deviceToken });
    expect(again.status).to.equal(429);
  });
});
