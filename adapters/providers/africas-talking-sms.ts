import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { DeliveryReport, InboundCallback, InboundReport, ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import {
  asNumber, asRecord, asString, callVendor, codeFromText, httpFailure, isSuccess, unhealthy, vendorFailure, vendorText,
  type VendorAnswer,
} from './ghana-sms-http.ts';
import { AT_STATUSES, atAccepted, atFailureCode, atStatusCode, atStatusName } from './africas-talking-codes.ts';
import { classifiedFailure } from './vendor-codes.ts';

export const AFRICAS_TALKING_API_URL = 'https://api.africastalking.com';
export const AFRICAS_TALKING_SANDBOX_API_URL = 'https://api.sandbox.africastalking.com';
const LABEL = "Africa's Talking";

export interface AfricasTalkingCredentials {
  /** The app username ('sandbox' for the sandbox app). */
  username: string;
  apiKey: string;
}

export interface AfricasTalkingSmsOptions {
  credentials: AfricasTalkingCredentials;
  /** Registered alphanumeric sender or short code; without one AT uses its shared sender. A message's own sender id wins. */
  senderId?: string;
  /** Talk to AT's sandbox host (default false); `baseUrl` wins. */
  sandbox?: boolean;
  baseUrl?: string;
  timeoutMs?: number;
  /** Provider instance name; defaults to the vendor key. */
  name?: string;
  /**
   * AT does not sign callbacks. When set, a delivery report is only believed if its URL carries
   * `?token=<callbackToken>` (configure the callback URL with it in the AT dashboard).
   */
  callbackToken?: string;
}

/**
 * Africa's Talking SMS: `POST /version1/messaging`, form-encoded, `apiKey` header, `username` in the
 * body, recipients in E.164 with '+'. Success is HTTP 201 with one entry per recipient whose
 * `statusCode` 100-102 means accepted. Delivery reports arrive as unsigned form POSTs (`id`, `status`,
 * `failureReason`) to the URL configured in the AT dashboard.
 */
export class AfricasTalkingSmsProvider implements VendorAdapter {
  readonly vendor = 'africas-talking-sms';
  readonly channel = 'SMS' as const;
  readonly name: string;
  readonly #baseUrl: string;
  readonly #credentials: AfricasTalkingCredentials;
  readonly #senderId: string | null;
  readonly #timeoutMs: number;
  readonly #callbackToken: string | null;
  /** Without a callback token, nothing in a callback can be checked (AT does not sign). */
  get verifiesCallbacks(): boolean { return this.#callbackToken !== null; }

  constructor(options: AfricasTalkingSmsOptions) {
    this.name = options.name ?? this.vendor;
    this.#baseUrl = trimSlash(options.baseUrl ?? (options.sandbox ? AFRICAS_TALKING_SANDBOX_API_URL : AFRICAS_TALKING_API_URL));
    this.#credentials = options.credentials;
    this.#senderId = options.senderId ?? null;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#callbackToken = options.callbackToken ?? null;
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const to = e164(message.to);
    const form = new URLSearchParams({ username: this.#credentials.username, to, message: message.body, bulkSMSMode: '1' });
    const from = message.senderId ?? this.#senderId;
    if (from) form.set('from', from);
    const call = await callVendor(LABEL, new URL(`${this.#baseUrl}/version1/messaging`), { method: 'POST', headers: africasTalkingHeaders(this.#credentials), body: form.toString() }, this.#timeoutMs);
    return call.ok ? this.#readSend(call.answer, to) : call.failure;
  }

  checkHealth(): Promise<ProviderHealth> {
    return africasTalkingHealth(this.#baseUrl, this.#credentials, this.#timeoutMs);
  }

  /**
   * A delivery report (form POST; JSON read too). Throws INVALID_SIGNATURE when a callback token is
   * configured and the URL does not carry it, VALIDATION_ERROR without `id` or `status`; an unknown
   * status word yields no report.
   */
  parseCallback(callback: InboundCallback): DeliveryReport[] {
    checkCallbackToken(callback, this.#callbackToken);
    const fields = callbackFields(callback);
    const id = fields['id'];
    const status = fields['status'];
    if (!id || !status) {
      if (isIncomingMessage(fields)) return []; // an incoming message: parseInbound reads it
      throw new AppError('VALIDATION_ERROR', "Africa's Talking delivery report without id or status");
    }
    const mapped = AT_STATUSES[status.trim().toLowerCase()];
    if (!mapped) return [];
    const errorCode = mapped.status === 'FAILED' ? atFailureCode(status, fields['failureReason']) : null;
    return [{ providerMessageId: id, status: mapped.status, errorCode, vendorStatus: status, occurredAt: null, ...(fields['networkCode'] ? { networkCode: fields['networkCode'] } : {}) }];
  }

  /**
   * An incoming message (form POST `from`, `to`, `text`, `id`, `date`, `linkId` to the "Incoming
   * messages" callback URL). AT does not sign callbacks, so an incoming message is only believed with a
   * configured `callbackToken` carried by the URL (INVALID_SIGNATURE otherwise: a forged STOP must not
   * unsubscribe anyone). A delivery report yields none.
   */
  parseInbound(callback: InboundCallback): InboundReport[] {
    const fields = callbackFields(callback);
    if (!isIncomingMessage(fields)) return [];
    if (this.#callbackToken === null) throw new AppError('INVALID_SIGNATURE', "Africa's Talking incoming messages need a callbackToken in the callback URL");
    checkCallbackToken(callback, this.#callbackToken);
    const date = fields['date'] ? new Date(fields['date'].replace(' ', 'T')) : null;
    return [{ providerMessageId: fields['id']!, channel: 'SMS', from: fields['from']!, to: fields['to'] ?? '', body: fields['text'] ?? '',
      receivedAt: date && !Number.isNaN(date.getTime()) ? date : null, profileName: null }];
  }

  #readSend(answer: VendorAnswer, to: string): ProviderResult {
    const secrets = [this.#credentials.apiKey];
    if (!isSuccess(answer)) return httpFailure(LABEL, answer, vendorText(asRecord(answer.json)['errorMessage'], secrets));
    const data = asRecord(asRecord(answer.json)['SMSMessageData']);
    const recipients = Array.isArray(data['Recipients']) ? data['Recipients'].map(asRecord) : [];
    const mine = recipients.find((r) => r['number'] === to) ?? recipients[0];
    if (!mine) {
      // AT answers a refused request (bad sender id ...) with 201, no recipients and the reason in Message.
      if (answer.json === null) return vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: answer is not JSON (HTTP ${answer.status})`);
      const reason = vendorText(data['Message'], secrets);
      // AT names the reason with its status names (InvalidSenderId, InsufficientBalance, RiskHold ...): the same table.
      const named = atStatusName(reason);
      if (named) return classifiedFailure(LABEL, named, null, '', `request refused: ${reason}`);
      return vendorFailure(false, codeFromText(reason) ?? 'VENDOR_REJECTED', `${LABEL}: request refused: ${reason || 'no reason given'}`);
    }
    const statusCode = asNumber(mine['statusCode']) ?? 0;
    const messageId = asString(mine['messageId']);
    const word = vendorText(mine['status'], secrets);
    if (atAccepted(statusCode) && messageId && messageId !== 'None') return { accepted: true, providerMessageId: messageId, delivered: false };
    if (atAccepted(statusCode)) {
      // Accepted without an id: resubmitting could send twice, so this is not retryable.
      return vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: recipient accepted (${statusCode}) without a message id`);
    }
    // AT's statusCode first (402 InvalidSenderId and 405 InsufficientBalance are our account's: they fail over).
    return classifiedFailure(LABEL, atStatusCode(statusCode), null, `recipient statusCode ${statusCode} ${word}`.trim(), '');
  }
}

/** The headers of every AT call; without `Accept: application/json` AT answers XML. */
export function africasTalkingHeaders(credentials: AfricasTalkingCredentials): Record<string, string> {
  return { apikey: credentials.apiKey, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
}

/** `GET /version1/user?username=`: authenticated application data with the balance ("GHS 1,204.50"). */
export async function africasTalkingHealth(apiBaseUrl: string, credentials: AfricasTalkingCredentials, timeoutMs: number): Promise<ProviderHealth> {
  const url = new URL(`${trimSlash(apiBaseUrl)}/version1/user`);
  url.searchParams.set('username', credentials.username);
  const call = await callVendor(LABEL, url, { method: 'GET', headers: africasTalkingHeaders(credentials) }, timeoutMs);
  if (!call.ok) return unhealthy(call.latencyMs, call.failure.errorMessage);
  const { answer } = call;
  const secrets = [credentials.apiKey];
  if (!isSuccess(answer)) return unhealthy(answer.latencyMs, httpFailure(LABEL, answer, vendorText(asRecord(answer.json)['errorMessage'], secrets)).errorMessage);
  const balanceText = vendorText(asRecord(asRecord(answer.json)['UserData'])['balance'], secrets);
  if (!balanceText) return unhealthy(answer.latencyMs, `${LABEL}: account answer without a balance (HTTP ${answer.status})`);
  return { ok: true, latencyMs: answer.latencyMs, detail: `${LABEL}: balance ${balanceText}`, balance: asNumber(balanceText) };
}

/** Throws INVALID_SIGNATURE unless the callback URL carries `token=<expected>` (no check when none is configured). */
export function checkCallbackToken(callback: InboundCallback, expected: string | null): void {
  if (expected === null) return;
  let given = '';
  try { given = new URL(callback.url).searchParams.get('token') ?? ''; } catch { given = ''; }
  if (!sameSecret(given, expected)) throw new AppError('INVALID_SIGNATURE', "Africa's Talking callback token is missing or wrong");
}

/** An incoming-message callback: sender, message id and text, no delivery status. */
function isIncomingMessage(fields: Record<string, string>): boolean {
  return fields['status'] === undefined && fields['text'] !== undefined && Boolean(fields['from']) && Boolean(fields['id']);
}

/** The fields of an AT callback: a form body (AT's format), or a JSON object. */
export function callbackFields(callback: InboundCallback): Record<string, string> {
  const text = callback.rawBody.toString('utf8').trim();
  if (!callback.contentType.includes('json')) return Object.fromEntries(new URLSearchParams(text));
  let body: Record<string, unknown>;
  try { body = asRecord(JSON.parse(text)); } catch { throw new AppError('VALIDATION_ERROR', "Africa's Talking callback body is not JSON"); }
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    const string = asString(value);
    if (string !== null) fields[key] = string;
  }
  return fields;
}

/** AT wants E.164 with the '+'. */
export function e164(number: string): string {
  const trimmed = number.trim();
  return trimmed.startsWith('+') ? trimmed : `+${trimmed}`;
}

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Constant-time comparison of two secrets of any length (compares their digests). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length > 0;
}
