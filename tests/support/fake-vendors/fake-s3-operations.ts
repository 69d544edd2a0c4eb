import { createHash } from 'node:crypto';

/** The S3 bodies of the fake store (fake-s3.ts) that take more than a line: XML, multipart completion, listing. */

export interface FakeS3Object { body: Buffer; etag: string; lastModified: Date; contentType: string }
export interface MultipartUpload { key: string; parts: Map<number, { body: Buffer; etag: string }>; contentType: string }
export interface FakeS3Reply { status: number; headers?: Record<string, string>; body?: Buffer }

const MIN_PART_BYTES = 5 * 1024 * 1024;
const NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';

export const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const unescapeXml = (text: string) => text.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** An XML answer; `element` is the root, which gets S3's namespace. */
export function xml(status: number, element: string): FakeS3Reply {
  const namespaced = element.replace(/^<(\w+)>/, `<$1 xmlns="${NAMESPACE}">`);
  return { status, headers: { 'content-type': 'application/xml' }, body: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${namespaced}`) };
}

/** S3's error document (none for HEAD, which has no body). */
export function s3Error(status: number, code: string, message: string, head = false): FakeS3Reply {
  if (head) return { status };
  return {
    status, headers: { 'content-type': 'application/xml' },
    body: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeXml(message)}</Message><RequestId>FAKE</RequestId></Error>`),
  };
}

/**
 * CompleteMultipartUpload: the listed parts must be in ascending order, each uploaded with the ETag
 * given, each but the last at least 5 MiB. The object's ETag is S3's: the MD5 of the parts' MD5s, `-N`.
 */
export function completeMultipart(upload: MultipartUpload, requestXml: string): FakeS3Object | FakeS3Reply {
  const listed = [...requestXml.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
    partNumber: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1]!)?.[1]),
    etag: unescapeXml(/<ETag>([\s\S]*?)<\/ETag>/.exec(m[1]!)?.[1] ?? ''),
  }));
  if (listed.length === 0) return s3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema.');
  const parts = [];
  for (const [i, p] of listed.entries()) {
    if (i > 0 && p.partNumber <= listed[i - 1]!.partNumber) return s3Error(400, 'InvalidPartOrder', 'The list of parts was not in ascending order.');
    const part = upload.parts.get(p.partNumber);
    if (!part || part.etag !== p.etag) return s3Error(400, 'InvalidPart', 'One or more of the specified parts could not be found.');
    if (i < listed.length - 1 && part.body.length < MIN_PART_BYTES) return s3Error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.');
    parts.push(part);
  }
  const digests = Buffer.concat(parts.map((p) => Buffer.from(p.etag.slice(1, -1), 'hex')));
  return {
    body: Buffer.concat(parts.map((p) => p.body)), lastModified: new Date(), contentType: upload.contentType,
    etag: `"${createHash('md5').update(digests).digest('hex')}-${parts.length}"`,
  };
}

/** ListObjectsV2: keys under `prefix` in byte order, `max-keys` (at most `pageSize`, S3's 1,000) a page, continued after the token's key. */
export function listObjectsV2(bucket: string, objects: Map<string, FakeS3Object>, query: URLSearchParams, pageSize: number): FakeS3Reply {
  const prefix = query.get('prefix') ?? '';
  const maxKeys = Math.min(Number(query.get('max-keys') ?? pageSize) || pageSize, pageSize);
  const token = query.get('continuation-token');
  const after = token ? Buffer.from(token, 'base64url').toString('utf8') : query.get('start-after') ?? '';
  const keys = [...objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const page = keys.slice(0, maxKeys);
  const truncated = keys.length > page.length;
  const contents = page.map((k) => {
    const o = objects.get(k)!;
    return `<Contents><Key>${escapeXml(k)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${escapeXml(o.etag)}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
  }).join('');
  return xml(200, `<ListBucketResult><Name>${escapeXml(bucket)}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys>`
    + `${token ? `<ContinuationToken>${escapeXml(token)}</ContinuationToken>` : ''}<IsTruncated>${truncated}</IsTruncated>`
    + `${truncated ? `<NextContinuationToken>${Buffer.from(page[page.length - 1]!).toString('base64url')}</NextContinuationToken>` : ''}${contents}</ListBucketResult>`);
}
