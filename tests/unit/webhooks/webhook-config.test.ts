import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../hosts/config.ts';

describe('WEBHOOK_ALLOW_PRIVATE_ADDRESSES', () => {
  const secrets = { JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) };
  const dir = () => mkdtemp(path.join(os.tmpdir(), 'nkra-webhook-config-'));

  it('is off by default and can be switched on for development', async () => {
    expect((await loadConfig({ DATA_DIR: await dir() })).webhookAllowPrivateAddresses).to.equal(false);
    expect((await loadConfig({ DATA_DIR: await dir(), WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' })).webhookAllowPrivateAddresses).to.equal(true);
  });

  it('refuses to start in production with it on, and refuses values other than true/false', async () => {
    for (const [env, problem] of [
      [{ NODE_ENV: 'production', ...secrets, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' }, /must not be true in production/],
      [{ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'yes' }, /WEBHOOK_ALLOW_PRIVATE_ADDRESSES: must be true or false/],
    ] as const) {
      const error = await loadConfig({ DATA_DIR: await dir(), ...env }).then(() => null, (e: unknown) => e);
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).to.match(problem);
    }
    expect((await loadConfig({ DATA_DIR: await dir(), NODE_ENV: 'production', ...secrets })).webhookAllowPrivateAddresses).to.equal(false);
  });
});
