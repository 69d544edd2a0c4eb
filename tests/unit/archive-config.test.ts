import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { DirectoryArchiveTarget } from '../../adapters/archive/directory-archive-target.ts';
import { openArchiveTarget } from '../../adapters/archive/open-archive-target.ts';
import { S3ArchiveTarget } from '../../adapters/archive/s3-archive-target.ts';
import { ConfigError, loadConfig } from '../../hosts/config.ts';
import { createLogger } from '../../hosts/logger.ts';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

async function load(env: Record<string, string>) {
  return loadConfig({ DATA_DIR: await mkdtemp(path.join(os.tmpdir(), 'nkra-config-')), ...env });
}

async function problemsOf(env: Record<string, string>): Promise<string[]> {
  try {
    await load(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration: the archive target (ARCHIVE_DIR, ARCHIVE_S3_*; docs/operations.md)', () => {
  it('reads an S3 bucket with the defaults: prefix nkra-archive/, us-east-1, virtual-hosted, 60 s, the default credential chain', async () => {
    const config = await load({ ARCHIVE_S3_BUCKET: 'acme-nkra-archive' });
    expect(config.archive).to.deep.equal({
      kind: 's3',
      s3: { bucket: 'acme-nkra-archive', prefix: 'nkra-archive/', region: 'us-east-1', endpoint: null, forcePathStyle: false, credentials: null, timeoutMs: 60_000 },
    });
  });

  it('reads every ARCHIVE_S3_* setting of an S3-compatible store (MinIO, Ceph, Garage, R2)', async () => {
    const config = await load({
      ARCHIVE_S3_BUCKET: 'nkra', ARCHIVE_S3_PREFIX: 'prod/partitions/', ARCHIVE_S3_ENDPOINT: 'https://minio.internal:9000/', ARCHIVE_S3_REGION: 'auto',
      ARCHIVE_S3_ACCESS_KEY_ID: 'nkra-archiver', ARCHIVE_S3_SECRET_ACCESS_KEY: SECRET, ARCHIVE_S3_FORCE_PATH_STYLE: 'true', ARCHIVE_S3_TIMEOUT_MS: '15000',
    });
    expect(config.archive).to.deep.equal({
      kind: 's3',
      s3: {
        bucket: 'nkra', prefix: 'prod/partitions/', region: 'auto', endpoint: 'https://minio.internal:9000', forcePathStyle: true,
        credentials: { accessKeyId: 'nkra-archiver', secretAccessKey: SECRET }, timeoutMs: 15_000,
      },
    });
  });

  it('opens the target the settings name: none, a directory or an S3 bucket', async () => {
    expect(openArchiveTarget((await load({})).archive)).to.equal(null);
    expect(openArchiveTarget((await load({ ARCHIVE_DIR: 'archive' })).archive)).to.be.instanceOf(DirectoryArchiveTarget);
    const s3 = openArchiveTarget((await load({ ARCHIVE_S3_BUCKET: 'nkra' })).archive);
    expect(s3).to.be.instanceOf(S3ArchiveTarget);
    (s3 as S3ArchiveTarget).close();
  });

  it('refuses ARCHIVE_DIR and ARCHIVE_S3_BUCKET together', async () => {
    expect(await problemsOf({ ARCHIVE_DIR: 'archive', ARCHIVE_S3_BUCKET: 'nkra' })).to.deep.equal([
      'ARCHIVE_DIR, ARCHIVE_S3_BUCKET: set one archive target, a directory or an S3 bucket, not both']);
  });

  it('refuses half a key pair, and ARCHIVE_S3_* settings without a bucket', async () => {
    expect((await problemsOf({ ARCHIVE_S3_BUCKET: 'nkra', ARCHIVE_S3_ACCESS_KEY_ID: 'nkra-archiver' })).join('\n'))
      .to.include('ARCHIVE_S3_ACCESS_KEY_ID, ARCHIVE_S3_SECRET_ACCESS_KEY: set both');
    const stray = await problemsOf({ ARCHIVE_S3_ENDPOINT: 'http://127.0.0.1:9000', ARCHIVE_S3_SECRET_ACCESS_KEY: SECRET });
    expect(stray).to.deep.equal(['ARCHIVE_S3_ENDPOINT, ARCHIVE_S3_SECRET_ACCESS_KEY: have no effect without ARCHIVE_S3_BUCKET']);
  });

  it('refuses invalid values, naming each variable and never showing the secret', async () => {
    const badSecret = 'has a space in it';
    const problems = await problemsOf({
      ARCHIVE_S3_BUCKET: 'Not_A_Bucket', ARCHIVE_S3_PREFIX: '/leading-slash', ARCHIVE_S3_ENDPOINT: 'ftp://store', ARCHIVE_S3_REGION: 'US East',
      ARCHIVE_S3_ACCESS_KEY_ID: 'nkra-archiver', ARCHIVE_S3_SECRET_ACCESS_KEY: badSecret, ARCHIVE_S3_FORCE_PATH_STYLE: 'yes', ARCHIVE_S3_TIMEOUT_MS: '10',
    });
    const text = problems.join('\n');
    for (const name of ['ARCHIVE_S3_BUCKET', 'ARCHIVE_S3_PREFIX', 'ARCHIVE_S3_ENDPOINT', 'ARCHIVE_S3_REGION', 'ARCHIVE_S3_SECRET_ACCESS_KEY', 'ARCHIVE_S3_FORCE_PATH_STYLE']) {
      expect(text).to.include(`${name}: `);
    }
    expect(text).to.include('ARCHIVE_S3_TIMEOUT_MS: must be at least 1000');
    expect(text).to.not.include(badSecret);
  });

  it('keeps the secret out of the logs when the configuration is logged', async () => {
    const config = await load({ ARCHIVE_S3_BUCKET: 'nkra', ARCHIVE_S3_ACCESS_KEY_ID: 'nkra-archiver', ARCHIVE_S3_SECRET_ACCESS_KEY: SECRET });
    const lines: string[] = [];
    const logger = createLogger('info', new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } }));
    logger.info({ archive: config.archive }, 'archive');
    logger.info({ config }, 'config');
    logger.info(config, 'config itself');
    logger.info(config.archive!, 'settings');
    expect(lines).to.have.length(4);
    expect(lines.join('')).to.include('nkra-archiver');
    expect(lines.join('')).to.not.include(SECRET);
  });
});
