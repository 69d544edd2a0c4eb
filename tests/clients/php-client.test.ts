import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT, setUpTenant, startDroppingProxy, startRealApi, type ApiTenant, type DroppingProxy, type RealApi } from './real-api.ts';

const PHP_DIR = path.join(ROOT, 'clients/php');

/** Runs a command without blocking the event loop (the proxy in this process must keep forwarding). */
function runAsync(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeout: number }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = ''; let stderr = '';
    child.stdout.on('data', (d) => { stdout += String(d); });
    child.stderr.on('data', (d) => { stderr += String(d); });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout);
    child.on('close', (status) => { clearTimeout(timer); resolve({ status, stdout, stderr }); });
  });
}

const hasPhp = spawnSync('php', ['-r', 'exit(PHP_VERSION_ID >= 80100 ? 0 : 1);'], { encoding: 'utf8' }).status === 0;

/**
 * The PHP client (clients/php) against the real API: `node hosts/main.ts` on the embedded PGlite, a
 * sandbox key, and a TCP proxy that drops the first response after the API acted. Its PHPUnit suite
 * (Debian's phpunit; .ci/run installs php-cli, php-curl, phpunit, the PSR HTTP interfaces, Guzzle and
 * Laravel's notifications, events and config components when missing) runs every test against it, none skipped. Skips only where PHP 8.1+ is absent.
 */
describe('PHP client against the real API (embedded default)', function () {
  this.timeout(180_000);
  let api: RealApi;
  let tenant: ApiTenant;
  let proxy: DroppingProxy;

  before(async function () {
    if (!hasPhp) {
      console.log('    (skipped: PHP 8.1+ is not installed; .ci/run installs Debian\'s php-cli php-curl phpunit)');
      this.skip();
    }
    api = await startRealApi();
    tenant = await setUpTenant(api.url, 'php');
    proxy = await startDroppingProxy(api.url);
  });
  after(async () => {
    await proxy?.close();
    await api?.close();
  });

  it('passes its PHPUnit suite against the real API, nothing skipped (send, bulk, trigger, lookup, Verify, errors, retries, dropped connection, PSR-18, webhooks, Laravel provider and channel)', async () => {
    const phpunit = spawnSync('phpunit', ['--version'], { encoding: 'utf8' });
    expect(phpunit.status, 'phpunit is missing: install Debian\'s phpunit (.ci/run does)').to.equal(0);
    proxy.dropNext(1);
    const result = await runAsync('phpunit', ['--fail-on-skipped', '--fail-on-incomplete', '--colors=never'], {
      cwd: PHP_DIR, timeout: 150_000,
      env: {
        ...process.env, NKRA_BASE_URL: api.url, NKRA_API_KEY: tenant.sandboxKey, NKRA_PROXY_URL: proxy.url,
        NKRA_JWT: tenant.token, NKRA_ORGANIZATION_ID: tenant.organizationId, NKRA_EVENT: tenant.eventSlug,
      },
    });
    expect(result.status, `${result.stdout}\n${result.stderr}`).to.equal(0);
    const tests = Number(/OK \((\d+) tests, \d+ assertions\)/.exec(result.stdout)?.[1] ?? 0);
    expect(tests, result.stdout).to.be.at.least(32);
    expect(proxy.dropped).to.equal(1);
    // The Laravel test above ran the provider and channel inside Laravel's notification sender (Debian's
    // php-illuminate-*); once more with the stand-ins used where Laravel is not installed.
    const fresh = await setUpTenant(api.url, 'php-stand-ins');
    const standIns = await runAsync('phpunit', ['--fail-on-skipped', '--colors=never', '--filter', 'LaravelTest'], {
      cwd: PHP_DIR, timeout: 60_000,
      env: { ...process.env, NKRA_TEST_WITHOUT_LARAVEL: '1', NKRA_BASE_URL: api.url, NKRA_API_KEY: fresh.sandboxKey, NKRA_JWT: fresh.token, NKRA_ORGANIZATION_ID: fresh.organizationId, NKRA_EVENT: fresh.eventSlug },
    });
    expect(standIns.status, `${standIns.stdout}\n${standIns.stderr}`).to.equal(0);
    expect(standIns.stdout).to.match(/OK \(6 tests/);
  });

  it('runs its example', async () => {
    const result = await runAsync('php', [path.join(PHP_DIR, 'examples/send.php')], {
      timeout: 30_000, env: { ...process.env, NKRA_API_KEY: tenant.sandboxKey, NKRA_BASE_URL: api.url, NKRA_TO: '+233246999001' },
    });
    expect(result.status, `${result.stdout}\n${result.stderr}`).to.equal(0);
    expect(result.stdout).to.match(/^DELIVERED /);
  });
});
