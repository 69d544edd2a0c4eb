import { importPKCS8, SignJWT, type CryptoKey } from 'jose';
import { pushDataMap } from '../../core/domain/push-content.ts';
import { pushTokenKind, pushTokenLabel } from '../../core/domain/recipient.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import {
  asRecord, asString, callVendor, httpFailure, isSuccess, unhealthy, vendorFailure, vendorText, type VendorAnswer, type VendorFailure,
} from './ghana-sms-http.ts';
import { fcmMeaning } from './fcm-codes.ts';
import { classifiedFailure } from './vendor-codes.ts';

export const FCM_BASE_URL = 'https://fcm.googleapis.com';
export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const LABEL = 'FCM';
/** Tokens are refreshed this long before they expire (or at half-life for short-lived ones). */
const REFRESH_MARGIN_SECONDS = 300;

export interface FcmPushOptions {
  /** The service account's JSON key file, as text (client_email, private_key, project_id, token_uri ...). */
  credentials: { serviceAccountJson: string };
  baseUrl?: string;
  timeoutMs?: number;
  name?: string;
  /** Notification title for messages without a subject (push messages have none today); none when unset. */
  defaultTitle?: string;
  /** Clock for the token cache and JWT times (ms since epoch). */
  now?: () => number;
}

interface ServiceAccount { clientEmail: string; privateKey: string; privateKeyId: string | null; projectId: string; tokenUri: string }
interface AccessToken { value: string; refreshAt: number }
type TokenResult = { ok: true; token: string } | { ok: false; failure: VendorFailure };

/**
 * Firebase Cloud Messaging HTTP v1, without the SDK: the service account signs a JWT (RS256) that
 * the token URI exchanges for an OAuth access token, cached until shortly before it expires (one
 * exchange at a time); `POST /v1/projects/{project}/messages:send` with it. A dead device token
 * (UNREGISTERED, SENDER_ID_MISMATCH, INVALID_ARGUMENT about `message.token`) fails permanently with
 * errorCode UNREGISTERED so the contact's token can be cleared. An expired access token (401
 * UNAUTHENTICATED) is refreshed and the send retried once. FCM has no delivery reports.
 */
export class FcmPushProvider implements VendorAdapter {
  readonly vendor = 'fcm-push';
  readonly channel = 'PUSH' as const;
  readonly name: string;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #defaultTitle: string | null;
  readonly #now: () => number;
  readonly #account: ServiceAccount | null;
  #signingKey: Promise<CryptoKey> | null = null;
  #token: AccessToken | null = null;
  #pending: Promise<TokenResult> | null = null;

  constructor(options: FcmPushOptions) {
    this.name = options.name ?? this.vendor;
    this.#baseUrl = (options.baseUrl ?? FCM_BASE_URL).replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#defaultTitle = options.defaultTitle ?? null;
    this.#now = options.now ?? Date.now;
    this.#account = parseServiceAccount(options.credentials.serviceAccountJson);
  }

  /** Only FCM registration tokens (routing sends APNs and Expo tokens to their own providers). */
  accepts(to: string): boolean {
    return pushTokenKind(to) === 'fcm';
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    // An APNs or Expo token is not FCM's: refused here, for good, rather than spending a vendor call on it.
    const kind = pushTokenKind(message.to);
    if (kind !== 'fcm') return vendorFailure(false, 'TOKEN_NOT_FCM', `${LABEL}: the device token is ${kind === null ? 'not a push token' : `a ${pushTokenLabel(kind)} token`}; configure a provider for it`);
    const title = message.subject ?? this.#defaultTitle;
    const payload = fcmMessage(message, title);
    let result = await this.#sendWithToken(JSON.stringify(payload), false);
    if (result === 'unauthenticated') result = await this.#sendWithToken(JSON.stringify(payload), true);
    return result === 'unauthenticated' ? vendorFailure(false, 'AUTH_FAILED', `${LABEL}: access token refused (HTTP 401 UNAUTHENTICATED)`) : result;
  }

  /** Obtains a fresh access token (the service account's real authenticated call; FCM has no balance). */
  async checkHealth(): Promise<ProviderHealth> {
    const started = performance.now();
    const result = await this.#accessToken(true);
    const latencyMs = Math.round(performance.now() - started);
    if (!result.ok) return unhealthy(latencyMs, result.failure.errorMessage);
    return { ok: true, latencyMs, detail: `${LABEL}: access token obtained for project ${this.#account?.projectId ?? ''}`, balance: null };
  }

  async #sendWithToken(body: string, fresh: boolean): Promise<ProviderResult | 'unauthenticated'> {
    if (!this.#account) return invalidAccount();
    const token = await this.#accessToken(fresh);
    if (!token.ok) return token.failure;
    const url = new URL(`${this.#baseUrl}/v1/projects/${encodeURIComponent(this.#account.projectId)}/messages:send`);
    const headers = { authorization: `Bearer ${token.token}`, 'content-type': 'application/json', accept: 'application/json' };
    const call = await callVendor(LABEL, url, { method: 'POST', headers, body }, this.#timeoutMs);
    if (!call.ok) return call.failure;
    const { answer } = call;
    if (isSuccess(answer)) {
      const id = asString(asRecord(answer.json)['name']);
      if (!id) return vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: success answer without a message name (HTTP ${answer.status})`);
      return { accepted: true, providerMessageId: id, delivered: false };
    }
    const error = readError(answer);
    if (answer.status === 401 && error.fcmCode !== 'THIRD_PARTY_AUTH_ERROR') {
      this.#token = null;
      if (!fresh) return 'unauthenticated';
    }
    return this.#sendFailure(answer, error);
  }

  #sendFailure(answer: VendorAnswer, error: FcmErrorBody): VendorFailure {
    const detail = [error.fcmCode ?? error.status, vendorText(error.message, this.#secrets())].filter(Boolean).join(' ');
    // FCM's errorCode first, then the RPC status, then the HTTP status (fcm-codes.ts).
    const meaning = fcmMeaning(error.fcmCode, error.status, error.tokenProblem);
    if (meaning) return classifiedFailure(LABEL, meaning, answer, '', detail);
    return httpFailure(LABEL, answer, detail, answer.status === 400 ? 'INVALID_REQUEST' : null);
  }

  /** The cached access token, or a new one (a single exchange shared by concurrent callers). */
  async #accessToken(fresh: boolean): Promise<TokenResult> {
    if (!fresh && this.#token && this.#now() < this.#token.refreshAt) return { ok: true, token: this.#token.value };
    if (this.#pending) return this.#pending;
    this.#pending = this.#exchange().finally(() => { this.#pending = null; });
    return this.#pending;
  }

  async #exchange(): Promise<TokenResult> {
    const account = this.#account;
    if (!account) return { ok: false, failure: invalidAccount() };
    let assertion: string;
    try {
      this.#signingKey ??= importPKCS8(account.privateKey, 'RS256');
      const now = Math.floor(this.#now() / 1000);
      assertion = await new SignJWT({ scope: FCM_SCOPE })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) })
        .setIssuer(account.clientEmail).setAudience(account.tokenUri).setIssuedAt(now).setExpirationTime(now + 3600)
        .sign(await this.#signingKey);
    } catch {
      this.#signingKey = null;
      return { ok: false, failure: vendorFailure(false, 'CONFIG_INVALID', `${LABEL}: the service account's private key cannot sign (not an RSA PKCS#8 PEM key)`) };
    }
    const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const call = await callVendor(`${LABEL} OAuth`, new URL(account.tokenUri), { method: 'POST', headers, body: form }, this.#timeoutMs);
    if (!call.ok) return { ok: false, failure: call.failure };
    const { answer } = call;
    const body = asRecord(answer.json);
    const value = asString(body['access_token']);
    if (!isSuccess(answer) || !value) {
      const detail = [asString(body['error']), vendorText(body['error_description'], [...this.#secrets(), assertion])].filter(Boolean).join(': ');
      const specific = answer.status === 400 || answer.status === 401 ? 'AUTH_FAILED' : null;
      return { ok: false, failure: httpFailure(`${LABEL} OAuth`, answer, detail, isSuccess(answer) ? 'VENDOR_BAD_RESPONSE' : specific) };
    }
    const lifetime = typeof body['expires_in'] === 'number' && body['expires_in'] > 0 ? body['expires_in'] : 3600;
    const usable = Math.max(lifetime - REFRESH_MARGIN_SECONDS, lifetime / 2);
    this.#token = { value, refreshAt: this.#now() + usable * 1000 };
    return { ok: true, token: value };
  }

  #secrets(): string[] {
    return [this.#account?.privateKey ?? '', this.#token?.value ?? ''];
  }
}

interface FcmErrorBody { status: string | null; message: string; fcmCode: string | null; tokenProblem: boolean }

/** `{ error: { code, message, status, details: [FcmError {errorCode}, BadRequest {fieldViolations}] } }`. */
function readError(answer: VendorAnswer): FcmErrorBody {
  const error = asRecord(asRecord(answer.json)['error']);
  const details = Array.isArray(error['details']) ? error['details'].map(asRecord) : [];
  const fcmCode = details.map((d) => (String(d['@type'] ?? '').endsWith('FcmError') ? asString(d['errorCode']) : null)).find((c) => c !== null) ?? null;
  const fields = details.flatMap((d) => (Array.isArray(d['fieldViolations']) ? d['fieldViolations'].map((v) => asString(asRecord(v)['field'])) : []));
  const message = asString(error['message']) ?? '';
  const tokenProblem = fields.includes('message.token') || /registration token/i.test(message);
  return { status: asString(error['status']), message, fcmCode, tokenProblem };
}

/** The service account's fields, or null when the JSON is unreadable (reported at send and health time, never thrown). */
function parseServiceAccount(json: string): ServiceAccount | null {
  let raw: Record<string, unknown>;
  try { raw = asRecord(JSON.parse(json)); } catch { return null; }
  const clientEmail = asString(raw['client_email']);
  const privateKey = asString(raw['private_key']);
  const projectId = asString(raw['project_id']);
  if (!clientEmail || !privateKey || !projectId) return null;
  return { clientEmail, privateKey, projectId, privateKeyId: asString(raw['private_key_id']), tokenUri: asString(raw['token_uri']) ?? GOOGLE_TOKEN_URI };
}

function invalidAccount(): VendorFailure {
  return vendorFailure(false, 'CONFIG_INVALID', `${LABEL}: the service account JSON is unreadable or lacks client_email, private_key or project_id`);
}

/**
 * The HTTP v1 send body: message.notification {title, body, image}, message.data (string to string: the
 * custom data, message_id and link), the image also through APNs (mutable-content, fcm_options.image)
 * and an https link as webpush.fcm_options.link (FCM accepts only https there; apps read data.link).
 */
export function fcmMessage(message: OutboundMessage, title: string | null) {
  const image = message.push?.imageUrl ?? null;
  const link = message.push?.link ?? null;
  return {
    message: {
      token: message.to,
      notification: { ...(title ? { title } : {}), body: message.body, ...(image ? { image } : {}) },
      data: pushDataMap(message.messageId, message.push),
      ...(image ? { apns: { payload: { aps: { 'mutable-content': 1 } }, fcm_options: { image } } } : {}),
      ...(link && /^https:\/\//i.test(link) ? { webpush: { fcm_options: { link } } } : {}),
    },
  };
}
