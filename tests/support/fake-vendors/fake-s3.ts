import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from './fake-s3-signature.ts';
import { completeMultipart, escapeXml, listObjectsV2, s3Error, xml, type FakeS3Object, type FakeS3Reply, type MultipartUpload } from './fake-s3-operations.ts';

export type { FakeS3Object } from './fake-s3-operations.ts';

export type S3Operation = 'PutObject' | 'CreateMultipartUpload' | 'UploadPart' | 'CompleteMultipartUpload' | 'AbortMultipartUpload'
  | 'HeadObject' | 'GetObject' | 'DeleteObject' | 'ListObjectsV2';

/** What the next matching requests get instead of the store's answer. */
type Fault =
  | { kind: 'error'; status: number; code: string }
  /** Read, then never answered (until `heal` or `close` hangs up). */
  | { kind: 'stall' }
  /** PutObject / UploadPart store only the first half of the body and answer success: a broken store or proxy. */
  | { kind: 'truncate' };

interface FaultRule { fault: Fault; operation: S3Operation | undefined; remaining: number }

export interface FakeS3 {
  url: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The complete objects of the bucket, by key. */
  objects: Map<string, FakeS3Object>;
  /** Multipart uploads started and neither completed nor aborted. */
  openUploads(): number;
  /** Every request in order: its operation and the status answered (0: stalled). */
  requests: Array<{ operation: S3Operation | 'Unknown'; status: number }>;
  /** The next `times` (default: every) requests of `operation` (default: any) answer an S3 error (default 500 InternalError). */
  fail(options?: { operation?: S3Operation; status?: number; code?: string; times?: number }): void;
  /** The next `times` (default: every) requests of `operation` (default: any) are never answered. */
  stall(options?: { operation?: S3Operation; times?: number }): void;
  /** The next `times` (default: every) uploads of `operation` (default: PutObject and UploadPart) keep half their bytes. */
  truncate(options?: { operation?: 'PutObject' | 'UploadPart'; times?: number }): void;
  /** Forgets every fault and hangs up the stalled requests. */
  heal(): void;
  close(): Promise<void>;
}

const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

/** Which S3 operation a path-style request is (`/bucket` or `/bucket/key`). */
function operationOf(method: string, key: string, query: URLSearchParams): S3Operation | 'Unknown' {
  if (!key) return method === 'GET' && query.get('list-type') === '2' ? 'ListObjectsV2' : 'Unknown';
  if (method === 'PUT') return query.has('uploadId') && query.has('partNumber') ? 'UploadPart' : 'PutObject';
  if (method === 'POST') return query.has('uploads') ? 'CreateMultipartUpload' : query.has('uploadId') ? 'CompleteMultipartUpload' : 'Unknown';
  if (method === 'DELETE') return query.has('uploadId') ? 'AbortMultipartUpload' : 'DeleteObject';
  if (method === 'HEAD') return 'HeadObject';
  if (method === 'GET') return 'GetObject';
  return 'Unknown';
}

/**
 * A local S3-compatible store on 127.0.0.1 (path-style addressing, one bucket) speaking the S3 REST
 * protocol the SDK uses for archives: PutObject, the multipart upload calls, HeadObject, GetObject,
 * DeleteObject, ListObjectsV2. Every request must carry a valid Signature V4 of its one key pair
 * (403 SignatureDoesNotMatch otherwise). Like several S3-compatible stores when the SDKs turned
 * flexible checksums on by default (Backblaze B2 in January 2025: "Unsupported header
 * 'x-amz-sdk-checksum-algorithm'"), it refuses checksum headers (400) and aws-chunked bodies (501).
 */
export async function startFakeS3(options: { bucket?: string; region?: string; accessKeyId?: string; secretAccessKey?: string; listPageSize?: number } = {}): Promise<FakeS3> {
  const bucket = options.bucket ?? 'nkra-test-archive';
  const pageSize = options.listPageSize ?? 1000;
  const region = options.region ?? 'us-east-1';
  const keys = { accessKeyId: options.accessKeyId ?? `AKIAFAKE${randomBytes(6).toString('hex').toUpperCase()}`, secretAccessKey: options.secretAccessKey ?? randomBytes(30).toString('base64') };
  const objects = new Map<string, FakeS3Object>();
  const uploads = new Map<string, MultipartUpload>();
  const requests: FakeS3['requests'] = [];
  let rules: FaultRule[] = [];
  const stalled = new Set<http.ServerResponse>();

  const takeFault = (operation: S3Operation | 'Unknown'): Fault | null => {
    const rule = rules.find((r) => r.remaining > 0 && (r.operation === undefined ? (r.fault.kind !== 'truncate' || operation === 'PutObject' || operation === 'UploadPart') : r.operation === operation));
    if (!rule) return null;
    rule.remaining -= 1;
    return rule.fault;
  };

  const answer = (operation: S3Operation, key: string, query: URLSearchParams, req: http.IncomingMessage, body: Buffer, truncate: boolean): FakeS3Reply => {
    const stored = truncate ? body.subarray(0, Math.floor(body.length / 2)) : body;
    switch (operation) {
      case 'PutObject': {
        const object = { body: Buffer.from(stored), etag: `"${md5(stored)}"`, lastModified: new Date(), contentType: req.headers['content-type'] ?? 'binary/octet-stream' };
        objects.set(key, object);
        return { status: 200, headers: { etag: object.etag } };
      }
      case 'CreateMultipartUpload': {
        const uploadId = randomBytes(16).toString('hex');
        uploads.set(uploadId, { key, parts: new Map(), contentType: req.headers['content-type'] ?? 'binary/octet-stream' });
        return xml(200, `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`);
      }
      case 'UploadPart': {
        const upload = uploads.get(query.get('uploadId') ?? '');
        const partNumber = Number(query.get('partNumber'));
        if (!upload || upload.key !== key) return s3Error(404, 'NoSuchUpload', 'The specified upload does not exist.');
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) return s3Error(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000.');
        const etag = `"${md5(stored)}"`;
        upload.parts.set(partNumber, { body: Buffer.from(stored), etag });
        return { status: 200, headers: { etag } };
      }
      case 'CompleteMultipartUpload': {
        const uploadId = query.get('uploadId') ?? '';
        const upload = uploads.get(uploadId);
        if (!upload || upload.key !== key) return s3Error(404, 'NoSuchUpload', 'The specified upload does not exist.');
        const done = completeMultipart(upload, body.toString('utf8'));
        if ('status' in done) return done;
        uploads.delete(uploadId);
        objects.set(key, done);
        return xml(200, `<CompleteMultipartUploadResult><Location>/${bucket}/${escapeXml(key)}</Location><Bucket>${bucket}</Bucket><Key>${escapeXml(key)}</Key><ETag>&quot;${done.etag.slice(1, -1)}&quot;</ETag></CompleteMultipartUploadResult>`);
      }
      case 'AbortMultipartUpload':
        return uploads.delete(query.get('uploadId') ?? '') ? { status: 204 } : s3Error(404, 'NoSuchUpload', 'The specified upload does not exist.');
      case 'DeleteObject':
        objects.delete(key);
        return { status: 204 };
      case 'HeadObject':
      case 'GetObject': {
        const object = objects.get(key);
        if (!object) return operation === 'HeadObject' ? { status: 404 } : s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
        const headers = { etag: object.etag, 'last-modified': object.lastModified.toUTCString(), 'content-type': object.contentType, 'content-length': String(object.body.length) };
        return { status: 200, headers, ...(operation === 'GetObject' ? { body: object.body } : {}) };
      }
      case 'ListObjectsV2':
        return listObjectsV2(bucket, objects, query, pageSize);
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const rawUrl = req.url ?? '/';
      const [rawPath = '/', rawQuery = ''] = rawUrl.split('?', 2) as [string, string?];
      const query = new URLSearchParams(rawQuery);
      let bucketName: string;
      let key: string;
      try {
        const [, first = '', ...rest] = rawPath.split('/');
        bucketName = decodeURIComponent(first);
        key = rest.map(decodeURIComponent).join('/');
      } catch {
        return send(res, s3Error(400, 'InvalidURI', 'Could not parse the specified URI.'));
      }
      const operation = operationOf(req.method ?? 'GET', key, query);
      const log = { operation, status: 0 };
      requests.push(log);
      const reply = (answer: FakeS3Reply) => { log.status = answer.status; send(res, answer); };
      const verdict = verifySignature({ method: req.method ?? 'GET', rawPath, rawQuery, headers: req.headers, body }, keys, region, new Date());
      if (!verdict.ok) return reply(s3Error(verdict.status, verdict.code, verdict.message, req.method === 'HEAD'));
      if (bucketName !== bucket) return reply(s3Error(404, 'NoSuchBucket', 'The specified bucket does not exist.', req.method === 'HEAD'));
      if (operation === 'Unknown') return reply(s3Error(501, 'NotImplemented', 'The fake store does not implement this request.'));
      const payload = String(req.headers['x-amz-content-sha256'] ?? '');
      if (payload.startsWith('STREAMING-') || String(req.headers['content-encoding'] ?? '').includes('aws-chunked')) {
        return reply(s3Error(501, 'NotImplemented', 'aws-chunked request bodies (streaming signatures, trailing checksums) are not supported by this store.'));
      }
      const checksumHeader = Object.keys(req.headers).find((h) => h === 'x-amz-sdk-checksum-algorithm' || h.startsWith('x-amz-checksum-'));
      if (checksumHeader) return reply(s3Error(400, 'InvalidArgument', `Unsupported header '${checksumHeader}' received for this API call.`, req.method === 'HEAD'));
      const fault = takeFault(operation);
      if (fault?.kind === 'stall') { stalled.add(res); res.on('close', () => stalled.delete(res)); return; }
      if (fault?.kind === 'error') return reply(s3Error(fault.status, fault.code, `Injected fault: ${fault.code}`, req.method === 'HEAD'));
      reply(answer(operation, key, query, req, body, fault?.kind === 'truncate'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const hangUp = () => { for (const res of stalled) res.socket?.destroy(); stalled.clear(); };
  const addRule = (fault: Fault, operation: S3Operation | undefined, times: number | undefined) => { rules.push({ fault, operation, remaining: times ?? Infinity }); };
  return {
    url: `http://127.0.0.1:${port}`, region, bucket, ...keys, objects, requests,
    openUploads: () => uploads.size,
    fail: (o = {}) => addRule({ kind: 'error', status: o.status ?? 500, code: o.code ?? 'InternalError' }, o.operation, o.times),
    stall: (o = {}) => addRule({ kind: 'stall' }, o.operation, o.times),
    truncate: (o = {}) => addRule({ kind: 'truncate' }, o.operation, o.times),
    heal: () => { rules = []; hangUp(); },
    close: async () => {
      hangUp();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: http.ServerResponse, answer: FakeS3Reply): void {
  if (res.destroyed) return;
  const body = answer.body ?? Buffer.alloc(0);
  res.writeHead(answer.status, { 'x-amz-request-id': randomBytes(8).toString('hex').toUpperCase(), ...(answer.body ? { 'content-length': String(body.length) } : {}), ...answer.headers });
  res.end(answer.body);
}
