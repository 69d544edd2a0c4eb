import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { DeliveryReport, ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import {
  asNumber, asRecord, asString, callVendor, httpFailure, internationalDigits, isSuccess, pollError, unhealthy, vendorFailure, vendorText,
  vendorTime, type VendorAnswer, type VendorCall, type VendorFailure,
} from './ghana-sms-http.ts';

export const MNOTIFY_BASE_URL = 'https://api.mnotify.com/api';
const LABEL = 'mNotify';

export interface MnotifySmsOptions {
  credentials: { apiKey: string };
  /** Registered sender id (<= 11 characters); a message's own sender id wins. */
  senderId: string;
  baseUrl?: string;
  timeoutMs?: number;
  /** Provider instance name; defaults to the vendor key. */
  name?: string;
}

/** Report status words: DELIVERED is confirmed, the rest are the likely ones; unknown words give no report. */
const STATUSES: Record<string, Pick<DeliveryReport, 'status' | 'errorCode'>> = {
  DELIVERED: { status: 'DELIVERED', errorCode: null },
  SUBMITTED: { status: 'SENT', errorCode: null },
  SENT: { status: 'SENT', errorCode: null },
  UNDELIVERED: { status: 'FAILED', errorCode: 'UNDELIVERED' },
  NOT_DELIVERED: { status: 'FAILED', errorCode: 'UNDELIVERED' },
  FAILED: { status: 'FAILED', errorCode: 'UNDELIVERED' },
  REJECTED: { status: 'FAILED', errorCode: 'REJECTED' },
  EXPIRED: { status: 'FAILED', errorCode: 'EXPIRED' },
};

/**
 * mNotify BMS API v2 (Ghana): `POST /sms/quick?key=...` with `{ recipient: [...], sender, message,
 * is_schedule, schedule_date }`, success code "2000". Each message is its own campaign; the
 * campaign id (`summary._id`) is the provider message id, polled with `GET /campaign/{id}`. The key
 * travels in the query string, so no URL ever reaches an error message.
 */
export class MnotifySmsProvider implements VendorAdapter {
  readonly vendor = 'mnotify-sms';
  readonly channel = 'SMS' as const;
  readonly name: string;
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #senderId: string;
  readonly #timeoutMs: number;

  constructor(options: MnotifySmsOptions) {
    this.name = options.name ?? this.vendor;
    this.#baseUrl = (options.baseUrl ?? MNOTIFY_BASE_URL).replace(/\/+$/, '');
    this.#apiKey = options.credentials.apiKey;
    this.#senderId = options.senderId;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const body = { recipient: [internationalDigits(message.to)], sender: message.senderId ?? this.#senderId, message: message.body, is_schedule: false, schedule_date: '' };
    const call = await this.#call('POST', '/sms/quick', JSON.stringify(body));
    if (!call.ok) return call.failure;
    const { answer } = call;
    const top = asRecord(answer.json);
    if (!isSuccess(answer) || !succeeded(top)) return this.#failure(answer, top);
    const summary = asRecord(top['summary']);
    const campaignId = asString(summary['_id']);
    if ((asNumber(summary['total_sent']) ?? 1) === 0 && (asNumber(summary['total_rejected']) ?? 0) > 0) {
      return vendorFailure(false, 'RECIPIENT_REJECTED', `${LABEL}: recipient rejected (total_rejected ${asNumber(summary['total_rejected'])})`);
    }
    if (campaignId) return { accepted: true, providerMessageId: campaignId, delivered: false };
    // mNotify may have queued it: resubmitting could send twice, so this is not retryable.
    return vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: success answer without a campaign id (HTTP ${answer.status})`);
  }

  /** `GET /balance/sms`: authenticated, reports the SMS credit balance. */
  async checkHealth(): Promise<ProviderHealth> {
    const call = await this.#call('GET', '/balance/sms');
    if (!call.ok) return unhealthy(call.latencyMs, call.failure.errorMessage);
    const { answer } = call;
    const top = asRecord(answer.json);
    if (!isSuccess(answer) || top['status'] !== 'success') return unhealthy(answer.latencyMs, this.#failure(answer, top).errorMessage);
    const balance = asNumber(top['balance']);
    const bonus = asNumber(top['bonus']);
    return { ok: true, latencyMs: answer.latencyMs, detail: `${LABEL}: SMS balance ${balance ?? 'unknown'}${bonus === null ? '' : `, bonus ${bonus}`}`, balance };
  }

  /** `GET /campaign/{id}`: the status of the message's campaign, or null when unknown. */
  async fetchStatus(providerMessageId: string): Promise<DeliveryReport | null> {
    const call = await this.#call('GET', `/campaign/${encodeURIComponent(providerMessageId)}`);
    if (!call.ok) throw pollError(call.failure);
    const { answer } = call;
    if (answer.status === 404) return null;
    const top = asRecord(answer.json);
    if (!isSuccess(answer) || top['status'] !== 'success') throw pollError(this.#failure(answer, top));
    const entry = asRecord(Array.isArray(top['report']) ? top['report'][0] : undefined);
    const word = asString(entry['status']);
    const mapped = word ? STATUSES[word.trim().toUpperCase().replace(/[\s-]+/g, '_')] : undefined;
    if (!word || !mapped) return null;
    return { providerMessageId, ...mapped, vendorStatus: word, occurredAt: vendorTime(entry['date_sent']) };
  }

  /** mNotify's error codes are undocumented beyond "4001" (invalid key): HTTP status, then code, then text. */
  #failure(answer: VendorAnswer, top: Record<string, unknown>): VendorFailure {
    const code = asString(top['code']);
    const specific = code === '4001' ? 'AUTH_FAILED' : null;
    const detail = vendorText(top['message'], [this.#apiKey]);
    return httpFailure(LABEL, answer, code ? `${detail} (code ${vendorText(code, [this.#apiKey])})` : detail, specific);
  }

  #call(method: 'GET' | 'POST', path: string, body?: string): Promise<VendorCall> {
    const url = new URL(`${this.#baseUrl}${path}`);
    url.searchParams.set('key', this.#apiKey);
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    return callVendor(LABEL, url, body === undefined ? { method, headers } : { method, headers, body }, this.#timeoutMs);
  }
}

function succeeded(top: Record<string, unknown>): boolean {
  return top['status'] === 'success' || asString(top['code']) === '2000';
}
