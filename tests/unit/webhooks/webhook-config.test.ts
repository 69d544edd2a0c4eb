import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../hosts/config.ts';

describe('EGRESS_ALLOW_PRIVATE_HOSTS (and the deprecated WEBHOOK_ALLOW_PRIVATE_ADDRESSES)', () => {
  const secrets = { JWT_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) };
  const dir = () => mkdtemp(path.join(os.tmpdir(), 'nkra-webhook-config-'));

  it('is empty (strict) by default and can list hosts for development', async () => {
    expect((await loadConfig({ DATA_DIR: await dir() })).egressAllowPrivateHosts).to.deep.equal([]);
    expect((await loadConfig({ DATA_DIR: await dir(), EGRESS_ALLOW_PRIVATE_HOSTS: '127.0.0.1, localhost' })).egressAllowPrivateHosts).to.deep.equal(['127.0.0.1', 'localhost']);
    expect((await loadConfig({ DATA_DIR: await dir(), WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' })).egressAllowPrivateHosts).to.deep.equal(['*']);
  });

  it('refuses to start in production with either set, and refuses malformed values', async () => {
    for (const [env, problem] of [
      [{ NODE_ENV: 'production', ...secrets, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' }, /must not be true in production/],
      [{ NODE_ENV: 'production', ...secrets, EGRESS_ALLOW_PRIVATE_HOSTS: 'localhost' }, /EGRESS_ALLOW_PRIVATE_HOSTS: must be empty in production/],
      [{ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'yes' }, /WEBHOOK_ALLOW_PRIVATE_ADDRESSES: must be true or false/],
      [{ EGRESS_ALLOW_PRIVATE_HOSTS: 'http://x/' }, /EGRESS_ALLOW_PRIVATE_HOSTS: must be \* or comma-separated/],
    ] as const) {
      const error = await loadConfig({ DATA_DIR: await dir(), ...env }).then(() => null, (e: unknown) => e);
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).to.match(problem);
    }
    expect((await loadConfig({ DATA_DIR: await dir(), NODE_ENV: 'production', ...secrets })).egressAllowPrivateHosts).to.deep.equal([]);
  });
});
