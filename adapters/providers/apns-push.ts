import { importPKCS8, SignJWT, type CryptoKey } from 'jose';
import { pushDataMap } from '../../core/domain/push-content.ts';
import { pushTokenKind, pushTokenLabel } from '../../core/domain/recipient.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import { asRecord, asString, httpFailure, isSuccess, unhealthy, vendorFailure, vendorText, type VendorAnswer, type VendorFailure } from './ghana-sms-http.ts';
import { apnsMeaning } from './apns-codes.ts';
import { classifiedFailure } from './vendor-codes.ts';
import { Http2VendorSession } from './http2-vendor-session.ts';

export const APNS_PRODUCTION_URL = 'https://api.push.apple.com';
export const APNS_SANDBOX_URL = 'https://api.sandbox.push.apple.com';
const LABEL = 'APNs';
/** Apple accepts a provider token for an hour and refuses refreshes more often than every 20 minutes: we sign one every 50. */
const TOKEN_REUSE_MS = 50 * 60_000;
/** How long APNs stores a notification for an offline device. */
const EXPIRATION_SECONDS = 24 * 3600;
/** A well-formed device token no device has: the health check's probe (APNs answers 400 BadDeviceToken once it accepted our JWT). */
const PROBE_TOKEN = '0'.repeat(64);

export interface ApnsPushOptions {
  /** The .p8 signing key (PKCS#8 EC P-256 PEM), its 10-character key id and the team id. */
  credentials: { privateKey: string; keyId: string; teamId: string };
  /** The app's bundle id (apns-topic). */
  topic: string;
  environment?: 'production' | 'sandbox';
  /** Overrides the environment's host (local fakes: `http://127.0.0.1:PORT`, cleartext HTTP/2). */
  baseUrl?: string;
  timeoutMs?: number;
  name?: string;
  /** Alert title for messages without a subject; none when unset. */
  defaultTitle?: string;
  /** Clock for the provider token cache and its iat (ms since epoch). */
  now?: () => number;
}

interface ProviderToken { value: string; signedAt: number }
type TokenResult = { ok: true; token: string } | { ok: false; failure: VendorFailure };

/**
 * Apple Push Notification service, provider API over HTTP/2 with token-based authentication, without
 * an SDK. Written from Apple's developer documentation: "Sending notification requests to APNs"
 * (POST /3/device/{token}; apns-topic, apns-push-type, apns-priority, apns-expiration headers),
 * "Establishing a token-based connection to APNs" (ES256 JWT, header kid = key id, claims iss = team
 * id and iat; reuse a token up to an hour, refresh no more than every 20 minutes) and "Handling
 * notification responses from APNs" (200 with apns-id; errors as JSON `{ reason }`).
 *
 * One HTTP/2 connection per provider, reopened when APNs closes it. BadDeviceToken, Unregistered (410)
 * and ExpiredToken fail permanently with errorCode UNREGISTERED (note that a sandbox token sent to
 * production, or the reverse, is a BadDeviceToken too). 403 ExpiredProviderToken: a new JWT is signed
 * and the send retried once. 429 and 5xx are retryable. APNs has no delivery reports.
 */
export class ApnsPushProvider implements VendorAdapter {
  readonly vendor = 'apns-push';
  readonly channel = 'PUSH' as const;
  readonly name: string;
  readonly #options: ApnsPushOptions;
  readonly #session: Http2VendorSession;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  #signingKey: Promise<CryptoKey> | null = null;
  #token: ProviderToken | null = null;
  #pending: Promise<TokenResult> | null = null;

  constructor(options: ApnsPushOptions) {
    this.name = options.name ?? this.vendor;
    this.#options = options;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#now = options.now ?? Date.now;
    const origin = options.baseUrl ?? (options.environment === 'sandbox' ? APNS_SANDBOX_URL : APNS_PRODUCTION_URL);
    this.#session = new Http2VendorSession(origin.replace(/\/+$/, ''), LABEL);
  }

  /** Only APNs device tokens (routing sends FCM and Expo tokens to their own providers). */
  accepts(to: string): boolean {
    return pushTokenKind(to) === 'apns';
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const kind = pushTokenKind(message.to);
    if (kind !== 'apns') return vendorFailure(false, 'TOKEN_NOT_APNS', `${LABEL}: the device token is ${kind === null ? 'not a push token' : `a ${pushTokenLabel(kind)} token`}; configure a provider for it`);
    const title = message.subject ?? this.#options.defaultTitle ?? null;
    const payload = JSON.stringify(apnsPayload(message, title));
    const headers = {
      'apns-push-type': 'alert', 'apns-priority': '10', 'apns-expiration': String(Math.floor(this.#now() / 1000) + EXPIRATION_SECONDS),
    };
    const token = message.to.toLowerCase();
    let result = await this.#post(token, headers, payload, true);
    if (result === 'expired-token') result = await this.#post(token, headers, payload, false);
    return result === 'expired-token' ? vendorFailure(false, 'AUTH_FAILED', `${LABEL}: provider token refused twice (HTTP 403 ExpiredProviderToken); check the server clock`) : result;
  }

  /**
   * A real authenticated call: a silent background notification to a device token no device has. 400
   * BadDeviceToken proves APNs accepted our JWT and topic (healthy); 403 means the key, key id or team
   * id is wrong, and another 400 (BadTopic, TopicDisallowed) a topic the key may not send to.
   */
  async checkHealth(): Promise<ProviderHealth> {
    const started = performance.now();
    const headers = { 'apns-push-type': 'background', 'apns-priority': '5', 'apns-expiration': '0' };
    const result = await this.#post(PROBE_TOKEN, headers, JSON.stringify({ aps: { 'content-available': 1 } }), false);
    const latencyMs = Math.round(performance.now() - started);
    if (result === 'expired-token') return unhealthy(latencyMs, `${LABEL}: provider token refused (HTTP 403 ExpiredProviderToken)`);
    if (result.accepted || result.errorCode === 'UNREGISTERED') {
      return { ok: true, latencyMs, detail: `${LABEL}: provider token accepted for ${this.#options.topic} (${this.#options.environment ?? 'production'})`, balance: null };
    }
    return unhealthy(latencyMs, result.errorMessage);
  }

  /** Closes the HTTP/2 connection. */
  close(): Promise<void> {
    return this.#session.close();
  }

  async #post(deviceToken: string, extra: Record<string, string>, payload: string, firstTry: boolean): Promise<ProviderResult | 'expired-token'> {
    // A retry after ExpiredProviderToken finds the refused token dropped (below): it signs a new one, or takes
    // the one a concurrent send just signed, so a burst of refusals costs one signature (Apple throttles them).
    const jwt = await this.#providerToken();
    if (!jwt.ok) return jwt.failure;
    const call = await this.#session.request({
      ':method': 'POST', ':path': `/3/device/${deviceToken}`, authorization: `bearer ${jwt.token}`, 'apns-topic': this.#options.topic,
      'content-type': 'application/json', ...extra,
    }, payload, this.#timeoutMs);
    if (!call.ok) return call.failure;
    const { answer } = call;
    if (isSuccess(answer)) {
      const id = answer.headers.get('apns-id');
      return id ? { accepted: true, providerMessageId: id, delivered: false } : vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: success answer without an apns-id (HTTP ${answer.status})`);
    }
    const reason = vendorText(asString(asRecord(answer.json)['reason']), this.#secrets());
    if (answer.status === 403 && reason === 'ExpiredProviderToken') {
      if (this.#token?.value === jwt.token) this.#token = null;
      if (firstTry) return 'expired-token';
    }
    return this.#failure(answer, reason);
  }

  #failure(answer: VendorAnswer, reason: string): VendorFailure {
    // APNs' reason first (apns-codes.ts), then the HTTP status.
    const meaning = apnsMeaning(reason, answer.status);
    if (meaning) return classifiedFailure(LABEL, meaning, answer, '', reason);
    const specific = answer.status === 400 || answer.status === 413 ? 'INVALID_REQUEST' : null;
    return httpFailure(LABEL, answer, reason, specific);
  }

  /** The cached provider token, or a newly signed one (one signature shared by concurrent callers). */
  async #providerToken(): Promise<TokenResult> {
    const cached = this.#token;
    if (cached && this.#now() - cached.signedAt < TOKEN_REUSE_MS) return { ok: true, token: cached.value };
    if (this.#pending) return this.#pending;
    this.#pending = this.#sign().finally(() => { this.#pending = null; });
    return this.#pending;
  }

  async #sign(): Promise<TokenResult> {
    const { privateKey, keyId, teamId } = this.#options.credentials;
    try {
      this.#signingKey ??= importPKCS8(privateKey, 'ES256');
      const signedAt = this.#now();
      const value = await new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: keyId }).setIssuer(teamId).setIssuedAt(Math.floor(signedAt / 1000))
        .sign(await this.#signingKey);
      this.#token = { value, signedAt };
      return { ok: true, token: value };
    } catch {
      this.#signingKey = null;
      return { ok: false, failure: vendorFailure(false, 'CONFIG_INVALID', `${LABEL}: the private key cannot sign (not an EC P-256 PKCS#8 PEM .p8 key)`) };
    }
  }

  #secrets(): string[] {
    return [this.#options.credentials.privateKey, this.#token?.value ?? ''];
  }
}

/**
 * The notification: aps.alert {title, body}, mutable-content 1 when there is an image (the app's
 * notification service extension downloads it from the `image` key), the custom data, message_id and
 * link as top-level custom keys (Apple: custom keys go outside aps).
 */
export function apnsPayload(message: OutboundMessage, title: string | null) {
  const image = message.push?.imageUrl ?? null;
  return {
    aps: { alert: { ...(title ? { title } : {}), body: message.body }, sound: 'default', ...(image ? { 'mutable-content': 1 } : {}) },
    ...pushDataMap(message.messageId, message.push),
    ...(image ? { image } : {}),
  };
}
