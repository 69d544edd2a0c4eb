import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../hosts/config.ts';

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'nkra-config-'));
}

async function problemsOf(env: Record<string, string>): Promise<string[]> {
  try {
    await loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration from the environment', () => {
  it('uses documented defaults: port 3000, embedded database in ./data', async () => {
    const dir = await tempDir();
    const config = await loadConfig({ DATA_DIR: dir });
    expect(config.port).to.equal(3000);
    expect(config.databaseUrl).to.equal(undefined);
    expect(config.dataDir).to.equal(dir);
    expect(config.nodeEnv).to.equal('development');
  });

  it('names every bad value with a clear message', async () => {
    const problems = await problemsOf({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', NODE_ENV: 'staging', JWT_SECRET: 'short' });
    expect(problems).to.have.length(5);
    expect(problems.join('\n')).to.include('PORT: must be a whole number')
      .and.to.include('DATABASE_URL: must be a postgres:// or postgresql:// URL')
      .and.to.include('LOG_LEVEL').and.to.include('NODE_ENV').and.to.include('JWT_SECRET: must be at least 32 characters');
  });

  it('reads the number lookup settings (docs/routing.md) and refuses a lookup vendor without its credentials', async () => {
    const dir = await tempDir();
    const config = await loadConfig({ DATA_DIR: dir, NUMBER_LOOKUP_VENDOR: 'termii', NUMBER_LOOKUP_API_KEY: 'k', NUMBER_LOOKUP_PRICE_GHS: '0.04' });
    expect(config.numberLookup).to.include({ vendor: 'termii', price: 4, ttlDays: 30 });
    expect((await loadConfig({ DATA_DIR: dir })).numberLookup.vendor).to.equal(null);
    expect(await problemsOf({ DATA_DIR: dir, NUMBER_LOOKUP_VENDOR: 'twilio' })).to.deep.equal(['NUMBER_LOOKUP_ACCOUNT_SID and NUMBER_LOOKUP_AUTH_TOKEN: required with NUMBER_LOOKUP_VENDOR=twilio']);
    expect((await problemsOf({ DATA_DIR: dir, NUMBER_LOOKUP_VENDOR: 'hlr-r-us' }))[0]).to.match(/^NUMBER_LOOKUP_VENDOR: must be twilio, termii or empty/);
  });

  it('refuses to start in production without an explicit JWT secret and encryption key', async () => {
    const problems = await problemsOf({ NODE_ENV: 'production', DATA_DIR: await tempDir() });
    expect(problems).to.deep.equal(['JWT_SECRET: is required in production', 'ENCRYPTION_KEY: is required in production']);
  });

  it('generates secrets once for the embedded default and keeps them (mode 0600) in the data directory', async () => {
    const dir = await tempDir();
    const first = await loadConfig({ DATA_DIR: dir });
    const second = await loadConfig({ DATA_DIR: dir });
    expect(first.jwtSecret).to.have.length.greaterThan(40);
    expect(first.encryptionKey).to.match(/^[0-9a-f]{64}$/);
    expect(second.jwtSecret).to.equal(first.jwtSecret);
    expect(second.encryptionKey).to.equal(first.encryptionKey);
    const file = path.join(dir, 'secrets.json');
    expect((await stat(file)).mode & 0o777).to.equal(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).to.have.keys('jwtSecret', 'encryptionKey');
  });

  it('gives processes starting together on a new data directory the same secrets, never a half-written file', async function () {
    this.timeout(60_000);
    const script = `import { loadConfig } from ${JSON.stringify(new URL('../../hosts/config.ts', import.meta.url).href)};
      const c = await loadConfig({ DATA_DIR: process.argv[1] }); console.log(c.jwtSecret + '/' + c.encryptionKey);`;
    const start = (dir: string) => new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--input-type=module', '-e', script, dir], { timeout: 30_000 }, (error, stdout, stderr) => (error ? reject(new Error(stderr || String(error))) : resolve(stdout.trim())));
    });
    for (let round = 0; round < 2; round++) {
      const dir = await tempDir();
      const secrets = await Promise.all(Array.from({ length: 6 }, () => start(dir)));
      expect(new Set(secrets).size).to.equal(1);
      expect(await readdir(dir)).to.deep.equal(['secrets.json']); // no temporary file left behind
    }
  });

  it('prefers explicit secrets over kept ones', async () => {
    const config = await loadConfig({ DATA_DIR: await tempDir(), JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) });
    expect(config.jwtSecret).to.equal('x'.repeat(40));
    expect(config.encryptionKey).to.equal('ab'.repeat(32));
  });
});

describe('configuration: billing', () => {
  it('defaults to the sandbox gateway with the spec limits, presets and a GHS 10 alert threshold', async () => {
    const config = await loadConfig({ DATA_DIR: await tempDir() });
    expect(config.paymentGateway).to.equal('sandbox');
    expect(config.topUpLimits).to.deep.equal({ min: 2_500, max: 5_000_000, presets: [2_500, 5_000, 10_000, 25_000, 50_000, 100_000] });
    expect(config.lowBalanceThreshold).to.equal(1_000);
    expect(config.paymentCallbackUrl).to.equal('http://localhost:3000/');
  });

  it('reads configured limits and the Paystack gateway', async () => {
    const config = await loadConfig({
      DATA_DIR: await tempDir(), PAYMENT_GATEWAY: 'paystack', PAYSTACK_SECRET_KEY: 'sk_test_abc', TOP_UP_MIN_GHS: '10', TOP_UP_MAX_GHS: '2000.50',
      TOP_UP_PRESETS_GHS: '10, 20,2000.5', LOW_BALANCE_THRESHOLD_GHS: '0',
    });
    expect(config).to.deep.include({ paymentGateway: 'paystack', paystackSecretKey: 'sk_test_abc', lowBalanceThreshold: 0 });
    expect(config.topUpLimits).to.deep.equal({ min: 1_000, max: 200_050, presets: [1_000, 2_000, 200_050] });
  });

  it('names each bad billing setting', async () => {
    const dir = await tempDir();
    expect(await problemsOf({ DATA_DIR: dir, PAYMENT_GATEWAY: 'paystack' })).to.deep.equal(['PAYSTACK_SECRET_KEY: is required with PAYMENT_GATEWAY=paystack']);
    expect((await problemsOf({ DATA_DIR: dir, PAYSTACK_SECRET_KEY: 'pk_test_public' }))[0]).to.match(/^PAYSTACK_SECRET_KEY: /);
    expect(await problemsOf({ DATA_DIR: dir, TOP_UP_MIN_GHS: '100', TOP_UP_MAX_GHS: '50' })).to.include('TOP_UP_MAX_GHS: must not be below TOP_UP_MIN_GHS');
    expect(await problemsOf({ DATA_DIR: dir, TOP_UP_PRESETS_GHS: '10,25' })).to.include('TOP_UP_PRESETS_GHS: every preset must lie within TOP_UP_MIN_GHS and TOP_UP_MAX_GHS');
    expect((await problemsOf({ DATA_DIR: dir, TOP_UP_MIN_GHS: '25.001' }))[0]).to.match(/^TOP_UP_MIN_GHS: /);
    expect(await problemsOf({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: '0'.repeat(64), PAYMENT_GATEWAY: 'sandbox' }))
      .to.deep.equal(['PAYMENT_GATEWAY: the sandbox gateway credits wallets without payment and is refused in production']);
    expect((await loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: '0'.repeat(64) })).paymentGateway).to.equal('none');
  });
});
