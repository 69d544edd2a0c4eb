import { Readable } from 'node:stream';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { assertArchiveName, type ArchiveReceipt, type ArchiveTarget, type ArchivedObject } from './archive-target.ts';
import { describeS3Error } from './s3-error.ts';

export interface S3ArchiveSettings {
  bucket: string;
  /** Key prefix: empty, or ending in `/` (`nkra-archive/`). */
  prefix: string;
  region: string;
  /** A non-AWS store (MinIO, Ceph, Garage, R2): its base URL. Null: AWS S3. */
  endpoint: string | null;
  /** Bucket in the path (`https://host/bucket/key`), as most self-hosted stores need, not in the host name. */
  forcePathStyle: boolean;
  /** Static keys; null: the SDK's default credential chain (environment, profile, instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** The longest one request may take (connect, send, first byte back) and the longest silence while reading. */
  timeoutMs: number;
  /** Multipart part size in bytes, at least 5 MiB (S3's minimum); default 16 MiB, which allows objects up to 160 GB. */
  partSizeBytes?: number;
  /** Attempts per request, with the SDK's backoff between them; default 3. */
  maxAttempts?: number;
}

const DEFAULT_PART_SIZE = 16 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2; // memory: about (2 + 1) x part size per upload
const CONNECT_TIMEOUT_CAP_MS = 10_000;

/** The SDK, loaded on first use: a worker without an S3 archive never pays for loading it (about 150 ms). */
interface Connection { client: S3Client; s3: typeof import('@aws-sdk/client-s3'); Upload: typeof import('@aws-sdk/lib-storage').Upload }

/**
 * ARCHIVE_S3_*: each object goes to `<prefix><name>` in the bucket by a streaming upload (one PUT
 * for a small object, a multipart upload otherwise, aborted on any failure), then a HEAD must show
 * the size that was sent. Every request has connection and request timeouts.
 */
export class S3ArchiveTarget implements ArchiveTarget {
  readonly #settings: S3ArchiveSettings;
  #connection: Promise<Connection> | null = null;
  constructor(settings: S3ArchiveSettings) {
    this.#settings = settings;
  }

  #connect(): Promise<Connection> {
    this.#connection ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')])
      .then(([s3, storage]) => ({ client: new s3.S3Client(clientConfig(this.#settings)), s3, Upload: storage.Upload }));
    return this.#connection;
  }

  async write(name: string, body: Readable): Promise<ArchiveReceipt> {
    assertArchiveName(name);
    const { bucket } = this.#settings;
    const key = `${this.#settings.prefix}${name}`;
    const location = `s3://${bucket}/${key}`;
    let bytes = 0;
    const counted = Readable.from((async function* () {
      for await (const chunk of body as AsyncIterable<Buffer>) { bytes += chunk.length; yield chunk; }
    })(), { objectMode: false });
    try {
      const { client, s3, Upload } = await this.#connect();
      await new Upload({
        client, params: { Bucket: bucket, Key: key, Body: counted, ContentType: name.endsWith('.gz') ? 'application/gzip' : 'application/octet-stream' },
        partSize: this.#settings.partSizeBytes ?? DEFAULT_PART_SIZE, queueSize: PARTS_IN_FLIGHT, leavePartsOnError: false,
      }).done();
      const head = await client.send(new s3.HeadObjectCommand({ Bucket: bucket, Key: key }));
      if (head.ContentLength !== bytes) {
        await client.send(new s3.DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => undefined);
        throw new Error(`the store holds ${head.ContentLength ?? 'an unknown number of'} bytes after the upload, ${bytes} were sent (the object was deleted)`);
      }
      return { name, bytes, location };
    } catch (error) {
      counted.destroy();
      body.destroy();
      throw this.#failure(`archive object ${location} not written`, error);
    }
  }

  async read(name: string): Promise<Readable | null> {
    assertArchiveName(name);
    const key = `${this.#settings.prefix}${name}`;
    try {
      const { client, s3 } = await this.#connect();
      const object = await client.send(new s3.GetObjectCommand({ Bucket: this.#settings.bucket, Key: key }));
      return object.Body as Readable;
    } catch (error) {
      if ((error as Error).name === 'NoSuchKey') return null;
      throw this.#failure(`reading s3://${this.#settings.bucket}/${key} failed`, error);
    }
  }

  async list(): Promise<ArchivedObject[]> {
    const { bucket, prefix } = this.#settings;
    const objects: ArchivedObject[] = [];
    let token: string | undefined;
    try {
      const { client, s3 } = await this.#connect();
      do {
        const page = await client.send(new s3.ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
        for (const item of page.Contents ?? []) {
          const name = item.Key?.slice(prefix.length);
          if (name && !name.includes('/')) objects.push({ name, bytes: item.Size ?? 0 });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (error) {
      throw this.#failure(`listing s3://${bucket}/${prefix} failed`, error);
    }
    return objects.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Closes the client's idle connections. */
  close(): void {
    void this.#connection?.then(({ client }) => client.destroy(), () => undefined);
  }

  /** A plain error (no SDK object attached: it carries the request) naming what failed; the secret is scrubbed just in case. */
  #failure(what: string, error: unknown): Error {
    const secret = this.#settings.credentials?.secretAccessKey;
    const detail = describeS3Error(error);
    return new Error(`${what}: ${secret ? detail.split(secret).join('[redacted]') : detail}`);
  }
}

function clientConfig(s: S3ArchiveSettings): S3ClientConfig {
  return {
    region: s.region,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    ...(s.credentials ? { credentials: s.credentials } : {}),
    maxAttempts: s.maxAttempts ?? 3,
    requestHandler: {
      connectionTimeout: Math.min(s.timeoutMs, CONNECT_TIMEOUT_CAP_MS),
      requestTimeout: s.timeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: s.timeoutMs,
    },
    // Checksums only where S3 requires them: many S3-compatible stores refuse the aws-chunked bodies
    // with trailing checksums that the SDK sends by default since early 2025 (docs/adr/0031).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}
