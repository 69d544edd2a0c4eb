import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { expect } from 'chai';
import { DirectoryArchiveTarget } from '../../adapters/archive/directory-archive-target.ts';
import { S3ArchiveTarget, type S3ArchiveSettings } from '../../adapters/archive/s3-archive-target.ts';
import { startFakeS3, type FakeS3 } from '../support/fake-vendors/fake-s3.ts';
import { describeArchiveTargetContract } from './archive-target.contract.ts';

const MIB = 1024 * 1024;

describeArchiveTargetContract('directory (ARCHIVE_DIR)', async () => {
  const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'nkra-archive-target-')), 'archive');
  return {
    target: new DirectoryArchiveTarget(dir),
    // A file where the directory should be: nothing can be written under it.
    async refuseWrites() { await rm(dir, { recursive: true, force: true }); await writeFile(dir, 'not a directory'); },
    stall: null,
    async heal() { await rm(dir, { force: true }); await mkdir(dir, { recursive: true }); },
    async leftovers() { return (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.partial')).length; },
  };
});

/** An S3 target on the fake store: 5 MiB parts (S3's minimum, so 11 MiB is a multipart upload), short timeouts. */
function s3Target(fake: FakeS3, overrides: Partial<S3ArchiveSettings> = {}): S3ArchiveTarget {
  return new S3ArchiveTarget({
    bucket: fake.bucket, prefix: 'nkra-archive/', region: fake.region, endpoint: fake.url, forcePathStyle: true,
    credentials: { accessKeyId: fake.accessKeyId, secretAccessKey: fake.secretAccessKey },
    timeoutMs: 1_000, maxAttempts: 2, partSizeBytes: 5 * MIB, ...overrides,
  });
}

describeArchiveTargetContract('S3-compatible (local fake S3, path-style, Signature V4)', async () => {
  const fake = await startFakeS3();
  const target = s3Target(fake);
  return {
    target,
    async refuseWrites() { fake.fail({ status: 500, code: 'InternalError' }); },
    stall: () => fake.stall(),
    async heal() { fake.heal(); },
    async leftovers() { return fake.openUploads(); },
    async close() { target.close(); await fake.close(); },
  };
});

describe('S3ArchiveTarget against the local fake S3', function () {
  this.timeout(60_000);
  let fake: FakeS3;
  let target: S3ArchiveTarget;
  beforeEach(async () => { fake = await startFakeS3({ listPageSize: 2 }); target = s3Target(fake); });
  afterEach(async () => { target.close(); await fake.close(); });

  const body = (bytes: Buffer) => Readable.from([bytes], { objectMode: false });

  it('puts a small object under the prefix with one signed PUT, then checks it with a HEAD', async () => {
    const receipt = await target.write('messages_p202511.csv.gz', body(Buffer.from('rows')));
    expect(receipt.location).to.equal(`s3://${fake.bucket}/nkra-archive/messages_p202511.csv.gz`);
    expect([...fake.objects.keys()]).to.deep.equal(['nkra-archive/messages_p202511.csv.gz']);
    expect(fake.objects.get('nkra-archive/messages_p202511.csv.gz')?.contentType).to.equal('application/gzip');
    expect(fake.requests).to.deep.equal([{ operation: 'PutObject', status: 200 }, { operation: 'HeadObject', status: 200 }]);
  });

  it('sends a large object as a multipart upload of 5 MiB parts and completes it', async () => {
    await target.write('big.bin', body(randomBytes(11 * MIB)));
    expect(fake.requests.map((r) => `${r.operation} ${r.status}`)).to.deep.equal([
      'CreateMultipartUpload 200', 'UploadPart 200', 'UploadPart 200', 'UploadPart 200', 'CompleteMultipartUpload 200', 'HeadObject 200']);
    expect(fake.objects.get('nkra-archive/big.bin')?.etag).to.match(/-3"$/);
  });

  it('aborts the multipart upload when its completion fails: no object, no open upload', async () => {
    fake.fail({ operation: 'CompleteMultipartUpload' });
    const error = await target.write('big.bin', body(randomBytes(11 * MIB))).then(() => null, (e: Error) => e);
    expect(error?.message).to.match(/big\.bin not written: InternalError \(HTTP 500\)/);
    expect(fake.objects.size).to.equal(0);
    expect(fake.openUploads()).to.equal(0);
    expect(fake.requests.some((r) => r.operation === 'AbortMultipartUpload' && r.status === 204)).to.equal(true);
  });

  it('fails the size check of an object the store kept short, and deletes that object', async () => {
    fake.truncate({ operation: 'PutObject' });
    const error = await target.write('short.csv.gz', body(Buffer.from('0123456789'))).then(() => null, (e: Error) => e);
    expect(error?.message).to.include('the store holds 5 bytes after the upload, 10 were sent');
    expect(fake.objects.size).to.equal(0);
  });

  it('fails with SignatureDoesNotMatch under a wrong secret, and never shows the secret', async () => {
    const secret = `wrong-${randomBytes(20).toString('base64url')}`;
    const wrong = s3Target(fake, { credentials: { accessKeyId: fake.accessKeyId, secretAccessKey: secret } });
    try {
      const error = await wrong.write('denied.csv.gz', body(Buffer.from('rows'))).then(() => null, (e: Error) => e);
      expect(error?.message).to.include('SignatureDoesNotMatch (HTTP 403)').and.to.include('check the S3 access key');
      expect(`${error?.message} ${error?.stack} ${JSON.stringify(error)} ${String(error?.cause)}`).to.not.include(secret);
      expect(fake.objects.size).to.equal(0);
    } finally {
      wrong.close();
    }
  });

  it('names an unknown access key and a wrong region', async () => {
    const unknownKey = s3Target(fake, { credentials: { accessKeyId: 'AKIAUNKNOWN', secretAccessKey: fake.secretAccessKey } });
    const otherRegion = s3Target(fake, { region: 'eu-west-1' });
    try {
      expect((await unknownKey.write('x.csv.gz', body(Buffer.from('x'))).then(() => null, (e: Error) => e))?.message).to.include('InvalidAccessKeyId (HTTP 403)');
      expect((await otherRegion.write('x.csv.gz', body(Buffer.from('x'))).then(() => null, (e: Error) => e))?.message).to.include('AuthorizationHeaderMalformed (HTTP 400)');
    } finally {
      unknownKey.close();
      otherRegion.close();
    }
  });

  it('sends no checksum headers, which S3-compatible stores such as the fake (and Backblaze B2 in 2025) refuse: the SDK default does', async () => {
    await target.write('plain.csv.gz', body(Buffer.from('rows')));
    expect(await target.read('plain.csv.gz')).to.not.equal(null);
    expect(fake.requests.every((r) => r.status < 300)).to.equal(true);
    const defaults = new S3Client({ region: fake.region, endpoint: fake.url, forcePathStyle: true, credentials: { accessKeyId: fake.accessKeyId, secretAccessKey: fake.secretAccessKey } });
    try {
      const error = await defaults.send(new PutObjectCommand({ Bucket: fake.bucket, Key: 'x', Body: 'rows' })).then(() => null, (e: Error) => e);
      expect(error?.name).to.equal('InvalidArgument');
      expect(error?.message).to.match(/Unsupported header 'x-amz-(sdk-)?checksum/);
    } finally {
      defaults.destroy();
    }
  });

  it('lists every object under its prefix across pages, and none outside it', async () => {
    for (const name of ['a.csv.gz', 'b.csv.gz', 'c.csv.gz']) await target.write(name, body(Buffer.from(name)));
    fake.objects.set('elsewhere/d.csv.gz', { ...fake.objects.get('nkra-archive/a.csv.gz')! });
    expect((await target.list()).map((o) => o.name)).to.deep.equal(['a.csv.gz', 'b.csv.gz', 'c.csv.gz']);
    expect(fake.requests.filter((r) => r.operation === 'ListObjectsV2')).to.have.length(2);
  });
});
