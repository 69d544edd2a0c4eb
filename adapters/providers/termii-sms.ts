import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import { asNumber, asRecord, asString, callVendor, httpFailure, internationalDigits, isSuccess, unhealthy, vendorFailure, vendorText } from './ghana-sms-http.ts';

export const TERMII_BASE_URL = 'https://api.ng.termii.com';
const LABEL = 'Termii';

export interface TermiiSmsOptions {
  credentials: { apiKey: string };
  /** Registered sender id (<= 11 characters); a message's own sender id wins. */
  senderId: string;
  /** Termii's route: `generic` (promotional) or `dnd` (transactional, reaches DND-listed numbers in Nigeria). */
  route?: string;
  baseUrl?: string;
  timeoutMs?: number;
  name?: string;
}

/**
 * Termii SMS (Nigeria and across Africa): `POST /api/sms/send` with a JSON body carrying the API key
 * (`to` in international digits, `from`, `sms`, `type: plain`, `channel`), answering `message_id`.
 * The health check is `GET /api/get-balance?api_key=...` (an authenticated call with the balance).
 */
export class TermiiSmsProvider implements VendorAdapter {
  readonly vendor = 'termii-sms';
  readonly channel = 'SMS' as const;
  readonly name: string;
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #senderId: string;
  readonly #route: string;
  readonly #timeoutMs: number;

  constructor(options: TermiiSmsOptions) {
    this.name = options.name ?? this.vendor;
    this.#baseUrl = (options.baseUrl ?? TERMII_BASE_URL).replace(/\/+$/, '');
    this.#apiKey = options.credentials.apiKey;
    this.#senderId = options.senderId;
    this.#route = options.route ?? 'generic';
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const body = { to: internationalDigits(message.to), from: message.senderId ?? this.#senderId, sms: message.body, type: 'plain', channel: this.#route, api_key: this.#apiKey };
    const call = await callVendor(LABEL, new URL(`${this.#baseUrl}/api/sms/send`), {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body),
    }, this.#timeoutMs);
    if (!call.ok) return call.failure;
    const answer = asRecord(call.answer.json);
    // `message_id_str` first: `message_id` may be a JSON number past 2^53 (Termii's sample 9122821270554876574), which JSON.parse rounds.
    const id = asString(answer['message_id_str']) ?? asString(answer['message_id']);
    if (isSuccess(call.answer) && id) return { accepted: true, providerMessageId: id, delivered: false };
    if (isSuccess(call.answer)) return vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: success answer without a message_id`);
    const detail = vendorText(answer['message'], [this.#apiKey]);
    const specific = /sender/i.test(detail) ? 'INVALID_SENDER' : /phone|number|recipient/i.test(detail) ? 'INVALID_NUMBER' : /balance|insufficient/i.test(detail) ? 'VENDOR_BALANCE' : null;
    return httpFailure(LABEL, call.answer, detail, specific);
  }

  async checkHealth(): Promise<ProviderHealth> {
    const url = new URL(`${this.#baseUrl}/api/get-balance`);
    url.searchParams.set('api_key', this.#apiKey);
    const call = await callVendor(LABEL, url, { method: 'GET', headers: { accept: 'application/json' } }, this.#timeoutMs);
    if (!call.ok) return unhealthy(call.latencyMs, call.failure.errorMessage);
    const body = asRecord(call.answer.json);
    if (!isSuccess(call.answer)) return unhealthy(call.answer.latencyMs, httpFailure(LABEL, call.answer, vendorText(body['message'], [this.#apiKey])).errorMessage);
    const balance = asNumber(body['balance']);
    return { ok: true, latencyMs: call.answer.latencyMs, detail: `${LABEL}: balance ${balance ?? 'unknown'} ${asString(body['currency']) ?? ''}`.trim(), balance };
  }
}
