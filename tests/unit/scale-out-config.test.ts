import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../hosts/config.ts';

const dataDir = () => mkdtemp(path.join(os.tmpdir(), 'nkra-config-'));

async function problemsOf(env: Record<string, string>): Promise<string> {
  try {
    await loadConfig({ DATA_DIR: await dataDir(), ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join('\n');
    throw error;
  }
  return '';
}

describe('configuration: several processes (docs/operations.md)', () => {
  it('defaults: the inbox listens on DATABASE_URL, and an open circuit waits 30 s', async () => {
    const config = await loadConfig({ DATA_DIR: await dataDir() });
    expect(config.databaseListenUrl).to.equal(undefined);
    expect(config.providerCircuitCooldownMs).to.equal(30_000);
    expect(config.databasePreparedStatements).to.equal(true);
  });

  it('turns named prepared statements off for a pooler that cannot route them (DATABASE_PREPARED_STATEMENTS=false), and refuses other values', async () => {
    expect((await loadConfig({ DATA_DIR: await dataDir(), DATABASE_PREPARED_STATEMENTS: 'false' })).databasePreparedStatements).to.equal(false);
    expect(await problemsOf({ DATABASE_PREPARED_STATEMENTS: 'no' })).to.match(/DATABASE_PREPARED_STATEMENTS: must be true or false/);
  });

  it('reads DATABASE_LISTEN_URL and PROVIDER_CIRCUIT_COOLDOWN_MS', async () => {
    const config = await loadConfig({ DATA_DIR: await dataDir(), DATABASE_LISTEN_URL: 'postgres://nkra@db:5432/nkra', PROVIDER_CIRCUIT_COOLDOWN_MS: '5000' });
    expect(config.databaseListenUrl).to.equal('postgres://nkra@db:5432/nkra');
    expect(config.providerCircuitCooldownMs).to.equal(5_000);
  });

  it('refuses a listen URL that is not postgres:// and a cooldown under 1 s, naming each', async () => {
    const problems = await problemsOf({ DATABASE_LISTEN_URL: 'mysql://db/nkra', PROVIDER_CIRCUIT_COOLDOWN_MS: '10' });
    expect(problems).to.match(/DATABASE_LISTEN_URL/).and.to.match(/PROVIDER_CIRCUIT_COOLDOWN_MS/);
  });
});
