import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { DeliveryReport, ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import {
  asNumber, asRecord, asString, callVendor, field, httpFailure, internationalDigits, isSuccess, pollError, unhealthy, vendorFailure, vendorText, vendorTime,
  type VendorAnswer,
} from './ghana-sms-http.ts';

export const HUBTEL_BASE_URL = 'https://sms.hubtel.com';
const LABEL = 'Hubtel';
/** A message id no account has: the health probe's authenticated GET (Hubtel has no SMS balance call). */
const PROBE_ID = '00000000-0000-0000-0000-000000000000';

export interface HubtelSmsOptions {
  credentials: { clientId: string; clientSecret: string };
  /** Approved sender id (<= 11 characters); a message's own sender id wins. */
  from: string;
  baseUrl?: string;
  timeoutMs?: number;
  /** Provider instance name; defaults to the vendor key. */
  name?: string;
}

/** Hubtel's numeric response subcodes (hubtel.readme.io "response-code") in our terms. */
const SUBCODES: Record<number, string> = {
  1: 'INVALID_NUMBER', 2: 'INVALID_SENDER', 3: 'MESSAGE_TOO_LONG', 4: 'NOT_ROUTABLE', 5: 'INVALID_SCHEDULE',
  6: 'CONTENT_REJECTED', 7: 'VENDOR_REJECTED', 8: 'VENDOR_REJECTED', 12: 'VENDOR_BALANCE',
};

/**
 * Status words of `GET /v1/messages/{id}`. Only "Delivered" is confirmed; the rest are the likely
 * ones. Anything else (Pending ...) is unknown: no report.
 */
const STATUSES: Record<string, Pick<DeliveryReport, 'status' | 'errorCode'>> = {
  delivered: { status: 'DELIVERED', errorCode: null },
  sent: { status: 'SENT', errorCode: null },
  submitted: { status: 'SENT', errorCode: null },
  undelivered: { status: 'FAILED', errorCode: 'UNDELIVERED' },
  failed: { status: 'FAILED', errorCode: 'UNDELIVERED' },
  rejected: { status: 'FAILED', errorCode: 'REJECTED' },
  expired: { status: 'FAILED', errorCode: 'EXPIRED' },
};

/**
 * Hubtel SMS (Ghana): `POST /v1/messages/send` with HTTP Basic (client id and secret), JSON
 * `{ From, To, Content }`, `To` as international digits without '+'. Accepts both documented success
 * shapes (flat `messageId`, or `data.messageId`). No delivery callbacks: status is polled with
 * `GET /v1/messages/{messageId}`.
 */
export class HubtelSmsProvider implements VendorAdapter {
  readonly vendor = 'hubtel-sms';
  readonly channel = 'SMS' as const;
  readonly name: string;
  readonly #baseUrl: string;
  readonly #clientId: string;
  readonly #clientSecret: string;
  readonly #authorization: string;
  readonly #from: string;
  readonly #timeoutMs: number;

  constructor(options: HubtelSmsOptions) {
    this.name = options.name ?? this.vendor;
    this.#baseUrl = (options.baseUrl ?? HUBTEL_BASE_URL).replace(/\/+$/, '');
    this.#clientId = options.credentials.clientId;
    this.#clientSecret = options.credentials.clientSecret;
    this.#authorization = `Basic ${Buffer.from(`${this.#clientId}:${this.#clientSecret}`).toString('base64')}`;
    this.#from = options.from;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const body = { From: message.senderId ?? this.#from, To: internationalDigits(message.to), Content: message.body };
    const call = await callVendor(LABEL, this.#url('/v1/messages/send'), { method: 'POST', headers: this.#headers(), body: JSON.stringify(body) }, this.#timeoutMs);
    if (!call.ok) return call.failure;
    const { answer } = call;
    const top = asRecord(answer.json);
    const data = asRecord(field(top, 'data'));
    // Every documented success shape: flat `messageId`, `data.messageId` (docs portal), and the older
    // PascalCase answer `201 {"Status":0,"MessageId":...}` (api.hubtel.com v1, still returned in the wild).
    const messageId = asString(field(data, 'messageId')) ?? asString(field(top, 'messageId'));
    const subcode = subcodeOf(top);
    // `networkId` (MCC+MNC) names the recipient's network as Hubtel routed it: it corrects a ported number (docs/routing.md).
    const networkCode = asString(field(data, 'networkId')) ?? asString(field(top, 'networkId'));
    if (isSuccess(answer) && messageId && (subcode === null || subcode === 0)) return { accepted: true, providerMessageId: messageId, delivered: false, ...(networkCode ? { networkCode } : {}) };
    return this.#failure(answer, top);
  }

  /**
   * Hubtel documents no SMS balance call, so the check is an authenticated GET of a message that does
   * not exist: 404 (or 200) means the credentials were accepted, 401 means they were not.
   */
  async checkHealth(): Promise<ProviderHealth> {
    const call = await callVendor(LABEL, this.#url(`/v1/messages/${PROBE_ID}`), { method: 'GET', headers: this.#headers() }, this.#timeoutMs);
    if (!call.ok) return unhealthy(call.latencyMs, call.failure.errorMessage);
    const { answer } = call;
    if (isSuccess(answer) || answer.status === 404) return { ok: true, latencyMs: answer.latencyMs, detail: `${LABEL}: credentials accepted`, balance: null };
    return unhealthy(answer.latencyMs, httpFailure(LABEL, answer, this.#detail(asRecord(answer.json)), answer.status === 403 ? 'AUTH_FAILED' : null).errorMessage);
  }

  /** `GET /v1/messages/{id}`: the message's status, or null when Hubtel does not know it or the word is unknown. */
  async fetchStatus(providerMessageId: string): Promise<DeliveryReport | null> {
    const call = await callVendor(LABEL, this.#url(`/v1/messages/${encodeURIComponent(providerMessageId)}`), { method: 'GET', headers: this.#headers() }, this.#timeoutMs);
    if (!call.ok) throw pollError(call.failure);
    const { answer } = call;
    if (answer.status === 404) return null;
    const top = asRecord(answer.json);
    if (!isSuccess(answer)) throw pollError(httpFailure(LABEL, answer, this.#detail(top), answer.status === 403 ? 'AUTH_FAILED' : null));
    const record = { ...top, ...asRecord(field(top, 'data')) };
    const word = asString(field(record, 'status'));
    const mapped = word ? STATUSES[word.trim().toLowerCase()] : undefined;
    if (!word || !mapped) return null;
    return { providerMessageId, ...mapped, vendorStatus: word, occurredAt: vendorTime(field(record, 'updateTime')) ?? vendorTime(field(record, 'time')) };
  }

  #failure(answer: VendorAnswer, top: Record<string, unknown>): ProviderResult {
    const subcode = subcodeOf(top);
    if (isSuccess(answer) && (subcode === null || subcode === 0)) {
      // Hubtel may have queued it: resubmitting could send twice, so this is not retryable.
      return vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: success answer without a message id (HTTP ${answer.status})`);
    }
    // On a send, 403 means the recipient has not agreed to receive messages (401 is bad credentials).
    const specific = answer.status === 403 ? 'RECIPIENT_BLOCKED' : subcode !== null ? SUBCODES[subcode] ?? null : null;
    return httpFailure(LABEL, answer, this.#detail(top), specific);
  }

  #detail(top: Record<string, unknown>): string {
    const data = asRecord(field(top, 'data'));
    const text = field(top, 'statusDescription') ?? field(top, 'message') ?? field(data, 'statusDescription') ?? field(top, 'Detail');
    return vendorText(text, [this.#clientSecret, this.#clientId, this.#authorization, this.#authorization.slice('Basic '.length)]);
  }

  #url(path: string): URL { return new URL(`${this.#baseUrl}${path}`); }

  #headers(): Record<string, string> {
    return { authorization: this.#authorization, 'content-type': 'application/json', accept: 'application/json' };
  }
}

/** The numeric subcode in a Hubtel answer (`status`, or the legacy `Status`, or a numeric `responseCode`). */
function subcodeOf(top: Record<string, unknown>): number | null {
  const data = asRecord(field(top, 'data'));
  for (const value of [field(top, 'status'), field(data, 'status')]) {
    if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) return Number(value);
  }
  const responseCode = asString(top['responseCode']);
  return responseCode && /^\d{1,2}$/.test(responseCode) ? asNumber(responseCode) : null;
}
