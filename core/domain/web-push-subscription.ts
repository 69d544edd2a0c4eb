import type { PushContent } from './push-content.ts';
import { pushDataMap } from './push-content.ts';

/**
 * A browser's Web Push subscription (W3C Push API `PushSubscription.toJSON()`, RFC 8030/8291), the
 * recipient of a `web-push` PUSH message: the push service endpoint the browser chose and the keys
 * the payload is encrypted to. Sent as a JSON string in `to` (docs/messaging-rules.md, "Web Push").
 */
export interface WebPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** Endpoints seen today are 150-400 characters (FCM, Mozilla autopush, Apple, Microsoft); ours is a bound, not a guess. */
export const WEB_PUSH_ENDPOINT_MAX = 1_024;
/** The whole JSON as given (an `expirationTime` and whitespace included). */
export const WEB_PUSH_SUBSCRIPTION_MAX = 2_048;
/**
 * RFC 8030 push services must accept 4,096 bytes of body; RFC 8291's aes128gcm adds a 86-byte header
 * (salt, record size, the 65-byte sender key), a padding delimiter and a 16-byte tag: 3,993 bytes of JSON.
 */
export const WEB_PUSH_PAYLOAD_MAX_BYTES = 4_096 - 86 - 1 - 16;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
/** Loopback hosts an http endpoint may name (development: reachable only through EGRESS_ALLOW_PRIVATE_HOSTS). */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type SubscriptionResult = { ok: true; subscription: WebPushSubscription; canonical: string } | { ok: false; reason: string };

/**
 * Reads a subscription strictly: a JSON object with an https `endpoint` (at most 1,024 characters, no
 * credentials or fragment; http only for a loopback host) and `keys.p256dh` (base64url of a 65-byte
 * uncompressed P-256 point) and `keys.auth` (base64url of 16 bytes). `canonical` is the one spelling
 * stored, deduplicated and matched on contacts: `{"endpoint":...,"keys":{"p256dh":...,"auth":...}}`,
 * padding removed, `expirationTime` dropped.
 */
export function parseWebPushSubscription(raw: string): SubscriptionResult {
  const text = raw.trim();
  if (!text.startsWith('{')) return { ok: false, reason: 'is not a Web Push subscription (a JSON object)' };
  if (text.length > WEB_PUSH_SUBSCRIPTION_MAX) return { ok: false, reason: `is a Web Push subscription longer than ${WEB_PUSH_SUBSCRIPTION_MAX} characters` };
  let json: unknown;
  try { json = JSON.parse(text); } catch { return { ok: false, reason: 'is not valid JSON (a Web Push subscription)' }; }
  const record = json !== null && typeof json === 'object' && !Array.isArray(json) ? json as Record<string, unknown> : null;
  if (!record) return { ok: false, reason: 'is not a Web Push subscription (a JSON object)' };
  const endpoint = record['endpoint'];
  if (typeof endpoint !== 'string') return { ok: false, reason: 'is a Web Push subscription without an endpoint' };
  const endpointReason = webPushEndpointReason(endpoint);
  if (endpointReason) return { ok: false, reason: `is a Web Push subscription whose endpoint ${endpointReason}` };
  const keys = record['keys'] !== null && typeof record['keys'] === 'object' ? record['keys'] as Record<string, unknown> : {};
  const p256dh = key(keys['p256dh'], 65);
  if (!p256dh || !isP256Point(Buffer.from(p256dh, 'base64url'))) {
    return { ok: false, reason: 'is a Web Push subscription whose keys.p256dh is not base64url of a 65-byte uncompressed P-256 public key (a point on the curve)' };
  }
  const auth = key(keys['auth'], 16);
  if (!auth) return { ok: false, reason: 'is a Web Push subscription whose keys.auth is not base64url of 16 bytes' };
  const subscription = { endpoint: new URL(endpoint).href, keys: { p256dh, auth } };
  return { ok: true, subscription, canonical: JSON.stringify(subscription) };
}

/** Whether `to` is written as a Web Push subscription (a JSON object), valid or not. */
export function looksLikeWebPushSubscription(to: string): boolean {
  return to.trimStart().startsWith('{');
}

/** Why an endpoint is refused, or null. The egress policy checks its addresses again at every send. */
export function webPushEndpointReason(endpoint: string): string | null {
  if (endpoint.length > WEB_PUSH_ENDPOINT_MAX) return `is longer than ${WEB_PUSH_ENDPOINT_MAX} characters`;
  let url: URL;
  try { url = new URL(endpoint); } catch { return 'is not a URL'; }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return 'must be an https URL';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not have a fragment';
  return null;
}

const P256_P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const P256_B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

/** Whether 65 bytes are an uncompressed point on P-256 (0x04, x, y with y^2 = x^3 - 3x + b mod p): the browser's key the payload is encrypted to. */
function isP256Point(bytes: Uint8Array): boolean {
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  const read = (from: number) => BigInt(`0x${Buffer.from(bytes.subarray(from, from + 32)).toString('hex')}`);
  const x = read(1);
  const y = read(33);
  if (x >= P256_P || y >= P256_P) return false;
  const mod = (n: bigint) => ((n % P256_P) + P256_P) % P256_P;
  return mod(y * y) === mod(x * x * x - 3n * x + P256_B);
}

/** The key unpadded when it is base64url of exactly `bytes` bytes, else null. */
function key(value: unknown, bytes: number): string | null {
  if (typeof value !== 'string' || !BASE64URL.test(value)) return null;
  const unpadded = value.replace(/=+$/, '');
  return Buffer.from(unpadded, 'base64url').length === bytes ? unpadded : null;
}

/**
 * The JSON the browser's service worker receives (`event.data.json()`): the title and body, the image,
 * the link as `url` (what `clients.openWindow` takes on click), and `data` with the custom keys, our
 * `message_id` and the link, as FCM, APNs and Expo carry them.
 */
export function webPushPayload(messageId: string, title: string | null, body: string, push: PushContent | null | undefined) {
  return {
    ...(title ? { title } : {}), body,
    ...(push?.imageUrl ? { image: push.imageUrl } : {}),
    ...(push?.link ? { url: push.link } : {}),
    data: pushDataMap(messageId, push),
  };
}

/** The size in bytes of the JSON (with a message id's length) before encryption. */
export function webPushPayloadBytes(title: string | null, body: string, push: PushContent | null): number {
  return new TextEncoder().encode(JSON.stringify(webPushPayload('00000000-0000-0000-0000-000000000000', title, body, push))).length;
}
