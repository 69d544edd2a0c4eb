import { NkraError } from './errors.js';
import { webCrypto } from './random.js';
import type { WebhookEvent } from './types.js';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_HEADER = 'X-Service-Event';

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

/**
 * Verifies the signature, then parses the event. Throws NkraError INVALID_SIGNATURE (status 401)
 * when the signature does not match, VALIDATION_ERROR when the body is not a JSON object.
 * `headers` may be a Headers object or a plain record (any letter case).
 */
export async function parseWebhook(rawBody: string | Uint8Array | ArrayBuffer, headers: Headers | Record<string, string | string[] | undefined>,
  secret: string): Promise<WebhookEvent> {
  const header = (name: string): string | null => {
    if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
    const found = Object.entries(headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
    return Array.isArray(found) ? found[0] ?? null : found ?? null;
  };
  if (!await verifyWebhookSignature(rawBody, header(SIGNATURE_HEADER), secret)) {
    throw new NkraError('INVALID_SIGNATURE', `The ${SIGNATURE_HEADER} header does not match the body`, { status: 401 });
  }
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
