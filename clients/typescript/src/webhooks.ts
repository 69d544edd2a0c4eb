import { NkraError } from './errors.js';
import { webCrypto } from './random.js';
import type { WebhookEvent } from './types.js';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_HEADER = 'X-Service-Event';
/** X-Service-Signature with the previous secret, during the 24 h after a rotation. */
export const PREVIOUS_SIGNATURE_HEADER = 'X-Service-Signature-Previous';
/** Standard Webhooks (https://www.standardwebhooks.com) headers, sent next to the X-Service-* ones. */
export const STANDARD_WEBHOOK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;
/** How far webhook-timestamp may be from the receiver's clock (either way) by default: 5 minutes, as the reference libraries. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

function bytesOf(body: string | Uint8Array | ArrayBuffer): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return encoder.encode(body) as Uint8Array<ArrayBuffer>;
  return (body instanceof Uint8Array ? body : new Uint8Array(body)) as Uint8Array<ArrayBuffer>;
}

/**
 * True when `signature` (the X-Service-Signature header: lowercase hex HMAC-SHA256 of the raw body,
 * keyed with the endpoint's signing secret) matches `rawBody`. Pass the body exactly as received
 * (bytes or the undecoded text), never re-serialized JSON. The comparison is constant time
 * (Web Crypto's HMAC verify).
 */
export async function verifyWebhookSignature(rawBody: string | Uint8Array | ArrayBuffer, signature: string | null | undefined, secret: string): Promise<boolean> {
  if (!secret || typeof signature !== 'string') return false;
  const hex = signature.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hex)) return false;
  const mac = new Uint8Array(32);
  for (let i = 0; i < 32; i++) mac[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  const { subtle } = await webCrypto();
  const key = await subtle!.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  return subtle!.verify('HMAC', key, mac, bytesOf(rawBody));
}

/** Computes the X-Service-Signature of a body (for tests and local tooling). */
export async function signWebhookBody(rawBody: string | Uint8Array | ArrayBuffer, secret: string): Promise<string> {
  const { subtle } = await webCrypto();
  const key = await subtle!.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await subtle!.sign('HMAC', key, bytesOf(rawBody)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The HMAC key of a `whsec_` secret for Standard Webhooks: the base64 after the prefix (standard or URL-safe alphabet, padding optional). */
export function standardWebhookKey(secret: string): Uint8Array<ArrayBuffer> {
  const encoded = (secret.startsWith('whsec_') ? secret.slice(6) : secret).replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(encoded + '='.repeat((4 - (encoded.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0)) as Uint8Array<ArrayBuffer>;
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** The Standard Webhooks signature entry `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` (for tests and local tooling). */
export async function signStandardWebhook(id: string, timestamp: number | string, rawBody: string | Uint8Array | ArrayBuffer, secret: string): Promise<string> {
  const { subtle } = await webCrypto();
  const key = await subtle!.importKey('raw', standardWebhookKey(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await subtle!.sign('HMAC', key, concat(encoder.encode(`${id}.${timestamp}.`), bytesOf(rawBody))));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

/**
 * True when one of the space-separated `v1,<base64>` entries of a webhook-signature header is the
 * Standard Webhooks signature of id, timestamp and body with `secret` (constant-time HMAC verify).
 * Entries of other versions are ignored.
 */
export async function verifyStandardWebhookSignature(id: string, timestamp: string, rawBody: string | Uint8Array | ArrayBuffer, signatureHeader: string | null | undefined,
  secret: string): Promise<boolean> {
  if (!secret || typeof signatureHeader !== 'string' || !id || !/^[0-9]{1,15}$/.test(timestamp)) return false;
  let keyBytes: Uint8Array<ArrayBuffer>;
  try { keyBytes = standardWebhookKey(secret); } catch { return false; }
  const { subtle } = await webCrypto();
  const key = await subtle!.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const signed = concat(encoder.encode(`${id}.${timestamp}.`), bytesOf(rawBody));
  for (const entry of signatureHeader.trim().split(/\s+/)) {
    const [version, encoded] = entry.split(',', 2);
    if (version !== 'v1' || !encoded || !/^[A-Za-z0-9+/]{43}=$/.test(encoded)) continue;
    const mac = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
    if (await subtle!.verify('HMAC', key, mac, signed)) return true;
  }
  return false;
}

export interface VerifyWebhookOptions {
  /** Largest accepted distance between webhook-timestamp and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The receiver's clock (tests); default Date.now(). */
  now?: Date | number;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function headerReader(headers: HeaderSource): (name: string) => string | null {
  return (name: string): string | null => {
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
    const found = Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
    return Array.isArray(found) ? found[0] ?? null : found ?? null;
  };
}

/**
 * Verifies a delivery by both of its signatures, then parses the event:
 * X-Service-Signature (or X-Service-Signature-Previous) must match the body, and webhook-signature
 * (Standard Webhooks) must match webhook-id, webhook-timestamp and the body, with any of `secrets`
 * (your current secret, plus the previous one while you rotate). A webhook-timestamp more than
 * `toleranceSeconds` (300) away from now is refused, so a captured delivery cannot be replayed later;
 * still drop duplicates by webhook-id (= the event id). Throws NkraError INVALID_SIGNATURE (401) on a
 * missing or wrong signature, WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE (401) on a stale or future
 * timestamp, VALIDATION_ERROR when the body is not a JSON object.
 */
export async function verifyWebhook(rawBody: string | Uint8Array | ArrayBuffer, headers: HeaderSource, secrets: string | readonly string[],
  options: VerifyWebhookOptions = {}): Promise<WebhookEvent> {
  const header = headerReader(headers);
  const keys = (typeof secrets === 'string' ? [secrets] : [...secrets]).filter(Boolean);
  const id = header(STANDARD_WEBHOOK_HEADERS.id);
  const timestamp = header(STANDARD_WEBHOOK_HEADERS.timestamp);
  if (!id || !timestamp || !/^[0-9]{1,15}$/.test(timestamp.trim())) {
    throw new NkraError('INVALID_SIGNATURE', 'The webhook-id or webhook-timestamp header is missing or malformed', { status: 401 });
  }
  const now = options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  if (Math.abs(Math.floor(now / 1000) - Number(timestamp.trim())) > tolerance) {
    throw new NkraError('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE', `The webhook-timestamp is more than ${tolerance} s away from now (a replay or a wrong clock)`, { status: 401 });
  }
  const signatures = [header(SIGNATURE_HEADER), header(PREVIOUS_SIGNATURE_HEADER)].filter((s): s is string => Boolean(s));
  let legacy = false;
  let standard = false;
  for (const secret of keys) {
    for (const signature of signatures) legacy ||= await verifyWebhookSignature(rawBody, signature, secret);
    standard ||= await verifyStandardWebhookSignature(id, timestamp.trim(), rawBody, header(STANDARD_WEBHOOK_HEADERS.signature), secret);
  }
  if (!legacy) throw new NkraError('INVALID_SIGNATURE', `The ${SIGNATURE_HEADER} header does not match the body`, { status: 401 });
  if (!standard) throw new NkraError('INVALID_SIGNATURE', 'The webhook-signature header does not match', { status: 401 });
  return parseEvent(rawBody, header);
}

/**
 * Verifies the signature, then parses the event. Throws NkraError INVALID_SIGNATURE (status 401)
 * when the signature does not match, VALIDATION_ERROR when the body is not a JSON object.
 * `headers` may be a Headers object or a plain record (any letter case).
 */
export async function parseWebhook(rawBody: string | Uint8Array | ArrayBuffer, headers: HeaderSource,
  secret: string): Promise<WebhookEvent> {
  const header = headerReader(headers);
  if (!await verifyWebhookSignature(rawBody, header(SIGNATURE_HEADER), secret)) {
    throw new NkraError('INVALID_SIGNATURE', `The ${SIGNATURE_HEADER} header does not match the body`, { status: 401 });
  }
  return parseEvent(rawBody, header);
}

function parseEvent(rawBody: string | Uint8Array | ArrayBuffer, header: (name: string) => string | null): WebhookEvent {
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(bytesOf(rawBody)));
  } catch {
    payload = null;
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new NkraError('VALIDATION_ERROR', 'The webhook body is not a JSON object', { details: { fieldErrors: {}, formErrors: ['body must be a JSON object'] } });
  }
  const p = payload as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const data = p['data'] && typeof p['data'] === 'object' && !Array.isArray(p['data']) ? p['data'] as Record<string, unknown> : p;
  return {
    kind: header(EVENT_HEADER) ?? str(p['kind']) ?? str(p['event']) ?? str(p['type']) ?? 'unknown',
    id: str(p['id']), occurredAt: str(p['occurredAt']) ?? str(p['createdAt']), data, payload: p,
  };
}
