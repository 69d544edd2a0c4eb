import { createECDH, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { parseWebPushSubscription, webPushPayload, type WebPushSubscription } from '../../core/domain/web-push-subscription.ts';
import { pushTokenKind, pushTokenLabel } from '../../core/domain/recipient.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import { DnsEgressPolicy } from '../egress/dns-egress-policy.ts';
import { tenantEgress } from '../egress/tenant-egress-scope.ts';
import { httpFailure, vendorFailure, type VendorFailure } from './ghana-sms-http.ts';

const LABEL = 'Web Push';
export const WEB_PUSH_URGENCIES = ['very-low', 'low', 'normal', 'high'] as const;
export type WebPushUrgency = (typeof WEB_PUSH_URGENCIES)[number];
/** A day: a notification the browser could not get within a day is usually stale (web-push's own default is 4 weeks). */
export const WEB_PUSH_DEFAULT_TTL_SECONDS = 86_400;

interface RequestDetails { method: string; headers: Record<string, string | number>; body: Buffer | null; endpoint: string }
interface WebPushLibrary {
  generateRequestDetails(subscription: WebPushSubscription, payload: string, options: {
    vapidDetails: { subject: string; publicKey: string; privateKey: string }; TTL: number; urgency: WebPushUrgency; contentEncoding: 'aes128gcm';
  }): RequestDetails;
}
/** The `web-push` package (CommonJS, no types): only its request building is used, never its own HTTP client. */
const webpush = createRequire(import.meta.url)('web-push') as WebPushLibrary;

export interface WebPushCredentials { publicKey: string; privateKey: string; subject: string }

export interface WebPushOptions {
  /** The VAPID key pair (base64url, as `web-push generate-vapid-keys` prints it) and the contact subject (mailto: or https:). */
  credentials: WebPushCredentials;
  /** Every request goes through it: push service hosts are the subscription's, so the address policy applies to every account. */
  egress?: DnsEgressPolicy;
  timeoutMs?: number;
  name?: string;
  defaultTitle?: string;
  ttlSeconds?: number;
  urgency?: WebPushUrgency;
}

/**
 * Web Push (RFC 8030 delivery, RFC 8291 aes128gcm encryption, RFC 8292 VAPID) to a browser's
 * subscription, the message's `to` (core/domain/web-push-subscription.ts). The `web-push` package
 * encrypts the payload and signs the VAPID JWT (`generateRequestDetails`); the request itself goes
 * through the egress policy (public addresses only, pinned, no redirects, bounded by the timeout) for
 * the platform's accounts as for an organization's own, because the endpoint host is whatever the
 * subscription names.
 *
 * Answers: 201 (or any 2xx) accepted; 404/410 the subscription is gone -> UNREGISTERED (the contact's
 * copy is cleared); 413 -> INVALID_REQUEST (payload too large); 429 and 5xx retryable (Retry-After
 * noted); 400/401/403 -> AUTH_FAILED, account-level (the VAPID JWT or key refused: fails over). Nothing
 * the push service writes back is kept (its host is not ours to trust).
 */
export class WebPushProvider implements VendorAdapter {
  readonly vendor = 'web-push';
  readonly channel = 'PUSH' as const;
  readonly name: string;
  readonly #credentials: WebPushCredentials;
  readonly #egress: DnsEgressPolicy;
  readonly #timeoutMs: number;
  readonly #defaultTitle: string | null;
  readonly #ttl: number;
  readonly #urgency: WebPushUrgency;

  constructor(options: WebPushOptions) {
    const problem = vapidProblem(options.credentials);
    if (problem) throw new Error(`web-push: ${problem}`);
    this.name = options.name ?? this.vendor;
    this.#credentials = options.credentials;
    this.#egress = options.egress ?? new DnsEgressPolicy();
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#defaultTitle = options.defaultTitle ?? null;
    this.#ttl = options.ttlSeconds ?? WEB_PUSH_DEFAULT_TTL_SECONDS;
    this.#urgency = options.urgency ?? 'normal';
  }

  accepts(to: string): boolean {
    return pushTokenKind(to) === 'web';
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const read = parseWebPushSubscription(message.to);
    if (!read.ok) {
      const kind = pushTokenKind(message.to);
      return vendorFailure(false, 'TOKEN_NOT_WEB_PUSH', `${LABEL}: the recipient is ${kind ? `a ${pushTokenLabel(kind)} token` : 'not a Web Push subscription'}; configure a provider for it`);
    }
    const payload = JSON.stringify(webPushPayload(message.messageId, message.subject ?? this.#defaultTitle, message.body, message.push));
    let details: RequestDetails;
    try {
      details = webpush.generateRequestDetails(read.subscription, payload, {
        vapidDetails: this.#credentials, TTL: this.#ttl, urgency: this.#urgency, contentEncoding: 'aes128gcm',
      });
    } catch {
      return vendorFailure(false, 'INVALID_REQUEST', `${LABEL}: the notification could not be encrypted for this subscription`);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers)) if (name.toLowerCase() !== 'content-length') headers[name.toLowerCase()] = String(value);
    const policy = tenantEgress()?.policy ?? this.#egress;
    const outcome = await policy.fetch(read.subscription.endpoint, {
      method: 'POST', headers, body: details.body ?? Buffer.alloc(0), timeoutMs: this.#timeoutMs, keepAlive: true, maxBodyBytes: 16 * 1024,
    }, null);
    if (outcome.kind === 'refused') {
      return outcome.refusal.retryable ? vendorFailure(true, 'VENDOR_UNAVAILABLE', `${LABEL}: ${outcome.refusal.reason}`)
        : vendorFailure(false, 'ENDPOINT_REFUSED', `${LABEL}: endpoint refused by the egress policy (${outcome.refusal.reason})`);
    }
    if (outcome.kind === 'timeout') return vendorFailure(true, 'TIMEOUT', `${LABEL}: no answer within ${this.#timeoutMs} ms`);
    if (outcome.kind === 'network') return vendorFailure(true, 'VENDOR_UNAVAILABLE', `${LABEL}: network error (${outcome.code})`);
    const { status, headers: answerHeaders } = outcome.response;
    if (status >= 200 && status < 300) return { accepted: true, providerMessageId: `webpush-${randomUUID()}`, delivered: false };
    return webPushFailure({ status, headers: answerHeaders });
  }

  /** No vendor-wide endpoint exists (each subscription names its push service): the check proves the VAPID key pair is usable. */
  async checkHealth(): Promise<ProviderHealth> {
    return { ok: true, latencyMs: 0, detail: `${LABEL}: VAPID key pair valid; push services are reached per subscription at each send`, balance: null };
  }
}

/** A push service's refusal (RFC 8030 section 5, RFC 8292 section 4), by status only. */
export function webPushFailure(answer: { status: number; headers: Headers }): VendorFailure {
  const { status } = answer;
  if (status === 404 || status === 410) return vendorFailure(false, 'UNREGISTERED', `${LABEL}: subscription expired or unsubscribed (HTTP ${status})`);
  if (status === 413) return vendorFailure(false, 'INVALID_REQUEST', `${LABEL}: payload too large (HTTP 413)`);
  if (status === 400 || status === 401 || status === 403) {
    return vendorFailure(false, 'AUTH_FAILED', `${LABEL}: auth failed (HTTP ${status}): the push service refused the VAPID signature or key`);
  }
  return httpFailure(LABEL, { status, headers: answer.headers, json: null, latencyMs: 0 }, '', status < 500 && status !== 429 && status !== 408 ? 'VENDOR_REJECTED' : null);
}

/** Why the VAPID credentials cannot sign (RFC 8292): a P-256 key pair in base64url that belong together, a mailto: or https: subject; null when fine. */
export function vapidProblem(credentials: Partial<WebPushCredentials>): string | null {
  const { publicKey = '', privateKey = '', subject = '' } = credentials;
  const b64 = /^[A-Za-z0-9_-]+$/;
  if (!b64.test(publicKey) || Buffer.from(publicKey, 'base64url').length !== 65) return 'credential "publicKey" must be base64url (no padding) of a 65-byte P-256 public key';
  if (!b64.test(privateKey) || Buffer.from(privateKey, 'base64url').length !== 32) return 'credential "privateKey" must be base64url (no padding) of a 32-byte P-256 private key';
  let derived: string;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    derived = ecdh.getPublicKey().toString('base64url');
  } catch { return 'credential "privateKey" is not a valid P-256 private key'; }
  if (derived !== publicKey) return 'credentials "publicKey" and "privateKey" are not one key pair';
  let url: URL;
  try { url = new URL(subject); } catch { return 'credential "subject" must be a mailto: or https: URL'; }
  if (url.protocol !== 'mailto:' && url.protocol !== 'https:') return 'credential "subject" must be a mailto: or https: URL';
  if (url.protocol === 'https:' && url.hostname === 'localhost') return 'credential "subject" must not be localhost (Apple\'s push service refuses it)';
  return null;
}
