import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { DeliveryReport, InboundCallback, ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import {
  asNumber, asRecord, asString, callVendor, httpFailure, internationalDigits, isSuccess, unhealthy, vendorFailure, vendorText,
  type VendorAnswer,
} from './ghana-sms-http.ts';
import { arkeselAccepted, arkeselV1Code } from './arkesel-codes.ts';
import { classifiedFailure } from './vendor-codes.ts';

/** The provider message id of a message Arkesel accepted without giving an id: ours, prefixed. */
export const ARKESEL_NO_ID_PREFIX = 'arkesel-noid:';

export const ARKESEL_BASE_URL = 'https://sms.arkesel.com';
const LABEL = 'Arkesel';

export interface ArkeselSmsOptions {
  credentials: { apiKey: string };
  /** Approved sender id (<= 11 characters); a message's own sender id wins. */
  senderId: string;
  baseUrl?: string;
  timeoutMs?: number;
  /** Provider instance name; defaults to the vendor key. */
  name?: string;
  /**
   * Our public callback endpoint (e.g. https://api.example.com/providers/callbacks/arkesel-sms). When
   * set, every send asks Arkesel to report delivery there, with our callback token in the query.
   */
  callbackUrl?: string;
  /** Key of the callback token; defaults to the API key (so each Arkesel account gets its own token). */
  callbackSecret?: string;
  /** Arkesel's `use_case` ('transactional' | 'promotional'), required by Arkesel for Nigerian numbers. */
  useCase?: string;
  /** Arkesel's own test mode: accepted, never sent or charged. */
  sandbox?: boolean;
}

/** Arkesel delivery words (SDK-derived vocabulary) in our terms; unknown words are ignored. */
const STATUSES: Record<string, Pick<DeliveryReport, 'status' | 'errorCode'>> = {
  DELIVERED: { status: 'DELIVERED', errorCode: null },
  SUBMITTED: { status: 'SENT', errorCode: null },
  QUEUED: { status: 'SENT', errorCode: null },
  SENT: { status: 'SENT', errorCode: null },
  NOT_DELIVERED: { status: 'FAILED', errorCode: 'UNDELIVERED' },
  UNDELIVERED: { status: 'FAILED', errorCode: 'UNDELIVERED' },
  FAILED: { status: 'FAILED', errorCode: 'UNDELIVERED' },
  PROHIBITED: { status: 'FAILED', errorCode: 'REJECTED' },
  REJECTED: { status: 'FAILED', errorCode: 'REJECTED' },
  EXPIRED: { status: 'FAILED', errorCode: 'EXPIRED' },
};

/**
 * Arkesel SMS API v2 (Ghana): `POST /api/v2/sms/send` with the `api-key` header, recipients as
 * international digits without '+'. Delivery reports come as callbacks (`sms_id`, `status` in the
 * query). Arkesel does not sign them, so the callback URL we hand over carries a token (an HMAC of
 * the account's key) that parseCallback checks in constant time.
 */
export class ArkeselSmsProvider implements VendorAdapter {
  readonly vendor = 'arkesel-sms';
  readonly channel = 'SMS' as const;
  readonly name: string;
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #senderId: string;
  readonly #timeoutMs: number;
  readonly #callbackUrl: string | null;
  readonly #callbackToken: string;
  readonly #useCase: string | null;
  readonly #sandbox: boolean;

  constructor(options: ArkeselSmsOptions) {
    this.name = options.name ?? this.vendor;
    this.#baseUrl = (options.baseUrl ?? ARKESEL_BASE_URL).replace(/\/+$/, '');
    this.#apiKey = options.credentials.apiKey;
    this.#senderId = options.senderId;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#callbackUrl = options.callbackUrl ?? null;
    this.#callbackToken = createHmac('sha256', options.callbackSecret ?? this.#apiKey).update('nkra:arkesel-sms:callback').digest('base64url');
    this.#useCase = options.useCase ?? null;
    this.#sandbox = options.sandbox ?? false;
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const recipient = internationalDigits(message.to);
    const body: Record<string, unknown> = { sender: message.senderId ?? this.#senderId, message: message.body, recipients: [recipient] };
    if (this.#callbackUrl) body['callback_url'] = this.#callbackUrlForSend(this.#callbackUrl);
    if (this.#useCase) body['use_case'] = this.#useCase;
    if (this.#sandbox) body['sandbox'] = true;
    const call = await callVendor(LABEL, this.#url('/api/v2/sms/send'), { method: 'POST', headers: this.#headers(), body: JSON.stringify(body) }, this.#timeoutMs);
    return call.ok ? this.#readSend(call.answer, recipient, message.messageId) : call.failure;
  }

  /** `GET /api/v2/clients/balance-details`: authenticated, reports the main (GHS) and SMS balances. */
  async checkHealth(): Promise<ProviderHealth> {
    const call = await callVendor(LABEL, this.#url('/api/v2/clients/balance-details'), { method: 'GET', headers: this.#headers() }, this.#timeoutMs);
    if (!call.ok) return unhealthy(call.latencyMs, call.failure.errorMessage);
    const { answer } = call;
    const body = asRecord(answer.json);
    if (!isSuccess(answer)) return unhealthy(answer.latencyMs, httpFailure(LABEL, answer, this.#detail(body)).errorMessage);
    const data = { ...body, ...asRecord(body['data']) };
    const main = asNumber(data['main_balance']);
    const sms = asNumber(data['sms_balance']);
    return { ok: true, latencyMs: answer.latencyMs, detail: `${LABEL}: main balance ${main ?? 'unknown'}, SMS balance ${sms ?? 'unknown'}`, balance: main };
  }

  /**
   * A delivery callback (GET or POST; `sms_id` and `status` in the query or a JSON/form body). Throws
   * INVALID_SIGNATURE without our token, VALIDATION_ERROR without `sms_id` or `status`; an unknown
   * status word yields no report.
   */
  parseCallback(callback: InboundCallback): DeliveryReport[] {
    const fields = callbackFields(callback);
    if (!sameSecret(fields.get('token') ?? '', this.#callbackToken)) throw new AppError('INVALID_SIGNATURE', 'Arkesel callback token is missing or wrong');
    const smsId = fields.get('sms_id');
    const status = fields.get('status');
    if (!smsId || !status) throw new AppError('VALIDATION_ERROR', 'Arkesel callback without sms_id or status');
    const mapped = STATUSES[status.trim().toUpperCase().replace(/[\s-]+/g, '_')];
    return mapped ? [{ providerMessageId: smsId, ...mapped, vendorStatus: status, occurredAt: null }] : [];
  }

  /** The `callback_url` sent with every message: our endpoint plus the account's token. */
  #callbackUrlForSend(callbackUrl: string): string {
    const url = new URL(callbackUrl);
    url.searchParams.set('token', this.#callbackToken);
    return url.toString();
  }

  #readSend(answer: VendorAnswer, recipient: string, messageId: string): ProviderResult {
    const body = asRecord(answer.json);
    if (!isSuccess(answer) || !arkeselAccepted(body)) return this.#failure(answer, body);
    const entries = Array.isArray(body['data']) ? body['data'].map(asRecord) : [];
    const withId = entries.filter((e) => asString(e['id']) !== null);
    const sent = withId.find((e) => e['recipient'] === recipient) ?? withId[0];
    if (sent) return { accepted: true, providerMessageId: asString(sent['id'])!, delivered: false };
    if (entries.some((e) => Array.isArray(e['invalid numbers']) && e['invalid numbers'].length > 0)) {
      return vendorFailure(false, 'INVALID_NUMBER', `${LABEL}: recipient listed under "invalid numbers"`);
    }
    // A documented success without ids (v1 `{ code: "ok" }`, v2 `{ status: "success", message }`): Arkesel took
    // the message and charged for it, so it is SENT (under our own id: no delivery report can name it).
    return { accepted: true, providerMessageId: `${ARKESEL_NO_ID_PREFIX}${messageId}`, delivered: false };
  }

  #failure(answer: VendorAnswer, body: Record<string, unknown>): ProviderResult {
    const v1 = arkeselV1Code(body['code']);
    if (v1) return classifiedFailure(LABEL, v1, answer, `Arkesel code ${vendorText(body['code'], [this.#apiKey])}`, this.#detail(body));
    const errors = Object.keys(asRecord(body['errors']));
    const specific = answer.status === 422 && errors.some((k) => k.startsWith('recipient')) ? 'INVALID_NUMBER'
      : answer.status === 422 && errors.some((k) => k.startsWith('sender')) ? 'INVALID_SENDER' : null;
    return httpFailure(LABEL, answer, this.#detail(body), specific);
  }

  #detail(body: Record<string, unknown>): string {
    return vendorText(body['message'] ?? body['response'], [this.#apiKey, this.#callbackToken]);
  }

  #url(path: string): URL { return new URL(`${this.#baseUrl}${path}`); }

  #headers(): Record<string, string> {
    return { 'api-key': this.#apiKey, 'content-type': 'application/json', accept: 'application/json' };
  }
}

/**
 * The callback's fields: the query (read leniently, since a gateway appending `?sms_id=` to a URL that
 * already has a query makes a second '?'), then a JSON or form body for fields the query lacks.
 */
function callbackFields(callback: InboundCallback): Map<string, string> {
  const fields = new Map<string, string>();
  const query = callback.url.includes('?') ? callback.url.slice(callback.url.indexOf('?') + 1).split('#')[0]! : '';
  for (const [key, value] of new URLSearchParams(query.replaceAll('?', '&'))) if (!fields.has(key)) fields.set(key, value);
  const text = callback.rawBody.toString('utf8').trim();
  if (text === '') return fields;
  let body: Record<string, unknown> = {};
  if (callback.contentType.includes('json')) {
    try { body = asRecord(JSON.parse(text)); } catch { throw new AppError('VALIDATION_ERROR', 'Arkesel callback body is not JSON'); }
  } else {
    body = Object.fromEntries(new URLSearchParams(text));
  }
  for (const [key, value] of Object.entries(body)) {
    const string = asString(value);
    if (string !== null && !fields.has(key)) fields.set(key, string);
  }
  return fields;
}

/** Constant-time comparison of two secrets of any length (compares their digests). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length > 0;
}
