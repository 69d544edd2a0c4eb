import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { registerUser, uniqueEmail } from '../support/tenants.ts';
import { testDatabaseUrl } from '../support/test-database.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STRONG_PASSWORD = 'a-strong-admin-passphrase';

interface CliRun { code: number | null; stdout: string; stderr: string }

/** Runs `node hosts/cli/create-admin.ts ...args` (what `npm run admin:create --` runs) to completion. */
function runCreateAdmin(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['hosts/cli/create-admin.ts', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

describe('CLI: npm run admin:create (first platform administrator)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let dataDir: string;
  let env: Record<string, string>;

  before(async function () {
    const databaseUrl = await testDatabaseUrl();
    if (!databaseUrl) this.skip();
    // The app first: opening the shared test database wipes it once per run, which must not happen
    // after the CLI has written to it.
    app = await startTestApp();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'nkra-admin-cli-'));
    const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] =>
      entry[1] !== undefined && !['NKRA_ADMIN_PASSWORD', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'JWT_SECRET', 'ENCRYPTION_KEY'].includes(entry[0])));
    env = { ...inherited, DATABASE_URL: databaseUrl!, DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  });
  after(async () => {
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function platformRoleAfterLogin(email: string, password: string): Promise<unknown> {
    const login = await app.api.post('/auth/login', { email, password });
    expect(login.status, login.text).to.equal(200);
    const me = await app.api.get('/auth/me', { token: login.body.data.token });
    expect(me.status).to.equal(200);
    return me.body.data.platformRole;
  }

  it('creates a PLATFORM_SUPER_ADMIN who can log in', async () => {
    const email = uniqueEmail('ops');

    const run = await runCreateAdmin(['--email', email, '--password', STRONG_PASSWORD], env);

    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include(`created platform administrator ${email}`);
    expect(await platformRoleAfterLogin(email, STRONG_PASSWORD)).to.equal('PLATFORM_SUPER_ADMIN');
  });

  it('promotes an existing registered user, keeping their password', async () => {
    const user = await registerUser(app.api, 'promoted');
    expect(await platformRoleAfterLogin(user.email, user.password)).to.equal(null);

    const run = await runCreateAdmin(['--email', user.email], env);

    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.include(`promoted platform administrator ${user.email}`);
    expect(await platformRoleAfterLogin(user.email, user.password)).to.equal('PLATFORM_SUPER_ADMIN');
  });

  it('takes the password from NKRA_ADMIN_PASSWORD so it stays out of shell history', async () => {
    const email = uniqueEmail('ops-env');

    const run = await runCreateAdmin(['--email', email], { ...env, NKRA_ADMIN_PASSWORD: STRONG_PASSWORD });

    expect(run.code, run.stderr).to.equal(0);
    expect(await platformRoleAfterLogin(email, STRONG_PASSWORD)).to.equal('PLATFORM_SUPER_ADMIN');
  });

  it('exits non-zero and creates nothing for a weak password', async () => {
    const email = uniqueEmail('ops-weak');

    const run = await runCreateAdmin(['--email', email, '--password', 'password123'], env);

    expect(run.code).to.not.equal(0);
    expect(run.stderr).to.include('VALIDATION_ERROR');
    const login = await app.api.post('/auth/login', { email, password: 'password123' });
    expect(login.status).to.equal(401);
  });
});

describe('CLI: npm run admin:create without arguments', () => {
  it('exits non-zero with a usage message when --email is missing (before touching any database)', async () => {
    const run = await runCreateAdmin(['--password', STRONG_PASSWORD], { PATH: process.env['PATH'] ?? '', NODE_ENV: 'test' });
    expect(run.code).to.not.equal(0);
    expect(run.stderr).to.include('usage').and.to.include('--email');
  });
});
