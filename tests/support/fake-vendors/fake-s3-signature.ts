import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * AWS Signature Version 4 as S3 checks it, written from the specification with node:crypto (not the
 * SDK's signer, so the fake verifies the SDK instead of agreeing with itself):
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
 */

export interface SignedRequest {
  method: string;
  /** The path as it came on the wire (still percent-encoded). */
  rawPath: string;
  /** The query string as it came on the wire, without `?`. */
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Verdict = { ok: true } | { ok: false; status: number; code: string; message: string };

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;
const MAX_SKEW_MS = 15 * 60_000;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding: everything but A-Z a-z 0-9 - _ . ~ is percent-encoded, in upper-case hex. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function canonicalQuery(rawQuery: string): string {
  return rawQuery.split('&').filter(Boolean).map((pair) => {
    const at = pair.indexOf('=');
    const [key, value] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
    return [uriEncode(decodeURIComponent(key)), uriEncode(decodeURIComponent(value))] as const;
  }).sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`).join('&');
}

function headerValue(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value.join(',') : value ?? '').trim().replace(/\s+/g, ' ');
}

/** The lower-case hex signature of a request, as the holder of `secret` computes it. */
export function signatureOf(request: SignedRequest, secret: string, scope: { date: string; region: string; service: string }, signedHeaders: string[]): string {
  const canonicalRequest = [
    request.method,
    request.rawPath.split('/').map((segment) => uriEncode(decodeURIComponent(segment))).join('/'),
    canonicalQuery(request.rawQuery),
    ...signedHeaders.map((name) => `${name}:${headerValue(request.headers, name)}`), '',
    signedHeaders.join(';'),
    headerValue(request.headers, 'x-amz-content-sha256'),
  ].join('\n');
  const credentialScope = `${scope.date}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', headerValue(request.headers, 'x-amz-date'), credentialScope, sha256(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, scope.date), scope.region), scope.service), 'aws4_request');
  return createHmac('sha256', key).update(stringToSign).digest('hex');
}

/** Checks the Authorization header of `request` against the one key pair the store knows, the region and the clock. */
export function verifySignature(request: SignedRequest, keys: { accessKeyId: string; secretAccessKey: string }, region: string, now: Date): Verdict {
  const refuse = (status: number, code: string, message: string): Verdict => ({ ok: false, status, code, message });
  const header = headerValue(request.headers, 'authorization');
  if (!header) return refuse(403, 'AccessDenied', 'Access Denied: the request is not signed');
  const match = AUTHORIZATION.exec(header);
  if (!match) return refuse(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed');
  const [, accessKeyId, date, scopeRegion, service, signed, signature] = match as unknown as string[];
  if (accessKeyId !== keys.accessKeyId) return refuse(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (service !== 's3' || scopeRegion !== region) {
    return refuse(400, 'AuthorizationHeaderMalformed', `The authorization header is malformed; the region '${scopeRegion}' is wrong; expecting '${region}'`);
  }
  const amzDate = headerValue(request.headers, 'x-amz-date');
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!at || amzDate.slice(0, 8) !== date) return refuse(403, 'AccessDenied', 'X-Amz-Date is missing or does not match the credential scope');
  const signedAt = Date.UTC(Number(at[1]), Number(at[2]) - 1, Number(at[3]), Number(at[4]), Number(at[5]), Number(at[6]));
  if (Math.abs(now.getTime() - signedAt) > MAX_SKEW_MS) return refuse(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
  const signedHeaders = signed!.split(';');
  if (!signedHeaders.includes('host') || !signedHeaders.includes('x-amz-content-sha256') || !signedHeaders.includes('x-amz-date')) {
    return refuse(403, 'AccessDenied', 'host, x-amz-content-sha256 and x-amz-date must be signed');
  }
  const expected = signatureOf(request, keys.secretAccessKey, { date: date!, region, service: 's3' }, signedHeaders);
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature!))) {
    return refuse(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');
  }
  const payload = headerValue(request.headers, 'x-amz-content-sha256');
  if (/^[0-9a-f]{64}$/.test(payload) && payload !== sha256(request.body)) {
    return refuse(400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 header does not match what was computed.');
  }
  return { ok: true };
}
