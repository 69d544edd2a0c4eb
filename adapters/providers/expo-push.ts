import { pushDataMap } from '../../core/domain/push-content.ts';
import { pushTokenKind, pushTokenLabel } from '../../core/domain/recipient.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import {
  asRecord, asString, callVendor, httpFailure, isSuccess, unhealthy, vendorFailure, vendorText, type VendorAnswer, type VendorFailure,
} from './ghana-sms-http.ts';
import { expoDetailError, expoRequestError } from './expo-codes.ts';
import { classifiedFailure } from './vendor-codes.ts';
import { pollExpoReceipts, type ReceiptPoll } from './expo-receipts.ts';

export const EXPO_BASE_URL = 'https://exp.host';
const LABEL = 'Expo';

export interface ExpoPushOptions {
  /** The access token of a project with "enhanced security for push notifications" on; none otherwise. */
  credentials?: { accessToken?: string };
  baseUrl?: string;
  timeoutMs?: number;
  name?: string;
  /** Notification title for messages without a subject; none when unset. */
  defaultTitle?: string;
}

/**
 * Expo's push service, written from Expo's documentation "Send notifications with the Expo Push
 * Service" (docs.expo.dev/push-notifications/sending-notifications): `POST /--/api/v2/push/send` with
 * a JSON array of messages `{ to, title, body, data }`, answered `{ data: [ticket] }` where a ticket is
 * `{ status: 'ok', id }` or `{ status: 'error', message, details: { error } }`; request-level errors
 * as `{ errors: [{ code, message }] }`; an optional access token as a bearer.
 *
 * Ticket errors: DeviceNotRegistered -> UNREGISTERED (permanent, clear the token), MessageRateExceeded
 * -> RATE_LIMITED (retryable), InvalidCredentials (the app's FCM/APNs credentials held by Expo) ->
 * AUTH_FAILED, MessageTooBig -> INVALID_REQUEST. 401/403 -> AUTH_FAILED; 429 and 5xx retryable.
 * The ticket id is the provider message id. Receipts (`/--/api/v2/push/getReceipts`) are polled by
 * the worker's delivery-status poll through `fetchReceipts` (expo-receipts.ts); the health check calls that endpoint too.
 */
export class ExpoPushProvider implements VendorAdapter {
  readonly vendor = 'expo-push';
  readonly channel = 'PUSH' as const;
  readonly name: string;
  readonly #baseUrl: string;
  readonly #timeoutMs: number;
  readonly #accessToken: string | null;
  readonly #defaultTitle: string | null;

  constructor(options: ExpoPushOptions = {}) {
    this.name = options.name ?? this.vendor;
    this.#baseUrl = (options.baseUrl ?? EXPO_BASE_URL).replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#accessToken = options.credentials?.accessToken || null;
    this.#defaultTitle = options.defaultTitle ?? null;
  }

  /** Only Expo push tokens (routing sends FCM and APNs tokens to their own providers). */
  accepts(to: string): boolean {
    return pushTokenKind(to) === 'expo';
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const kind = pushTokenKind(message.to);
    if (kind !== 'expo') return vendorFailure(false, 'TOKEN_NOT_EXPO', `${LABEL}: the device token is ${kind === null ? 'not a push token' : `a ${pushTokenLabel(kind)} token`}; configure a provider for it`);
    const title = message.subject ?? this.#defaultTitle;
    const body = JSON.stringify([expoMessage(message, title)]);
    const call = await callVendor(LABEL, new URL(`${this.#baseUrl}/--/api/v2/push/send`), { method: 'POST', headers: this.#headers(), body }, this.#timeoutMs);
    if (!call.ok) return call.failure;
    const { answer } = call;
    if (!isSuccess(answer)) return this.#requestFailure(answer);
    const data = asRecord(answer.json)['data'];
    const ticket = asRecord(Array.isArray(data) ? data[0] : data);
    if (ticket['status'] === 'ok') {
      const id = asString(ticket['id']);
      return id ? { accepted: true, providerMessageId: id, delivered: false } : vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: ok ticket without an id`);
    }
    if (ticket['status'] !== 'error') return vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: answer without a ticket (HTTP ${answer.status})`);
    return this.#ticketFailure(ticket);
  }

  /**
   * A real call to the receipts endpoint for one unknown ticket id: 200 proves Expo is reachable and
   * accepts the access token (a project with enhanced push security refuses a wrong one with 401).
   */
  async checkHealth(): Promise<ProviderHealth> {
    const body = JSON.stringify({ ids: ['00000000-0000-0000-0000-000000000000'] });
    const call = await callVendor(LABEL, new URL(`${this.#baseUrl}/--/api/v2/push/getReceipts`), { method: 'POST', headers: this.#headers(), body }, this.#timeoutMs);
    if (!call.ok) return unhealthy(call.latencyMs, call.failure.errorMessage);
    const { answer } = call;
    if (!isSuccess(answer)) return unhealthy(answer.latencyMs, this.#requestFailure(answer).errorMessage);
    return { ok: true, latencyMs: answer.latencyMs, detail: `${LABEL}: receipts endpoint answered${this.#accessToken ? ' with the access token accepted' : ''}`, balance: null };
  }

  /** Receipts of sent tickets (expo-receipts.ts): DeviceNotRegistered reported after the ticket reaches the message this way. */
  fetchReceipts(ticketIds: readonly string[]): Promise<ReceiptPoll> {
    return pollExpoReceipts(this.#baseUrl, this.#headers(), ticketIds, this.#timeoutMs, this.#secrets());
  }

  #headers(): Record<string, string> {
    return {
      'content-type': 'application/json', accept: 'application/json',
      ...(this.#accessToken ? { authorization: `Bearer ${this.#accessToken}` } : {}),
    };
  }

  #ticketFailure(ticket: Record<string, unknown>): VendorFailure {
    const error = asString(asRecord(ticket['details'])['error']);
    const detail = [error, vendorText(ticket['message'], this.#secrets())].filter(Boolean).join(' ');
    // One table for tickets and receipts (expo-codes.ts).
    return classifiedFailure(LABEL, expoDetailError(error), null, '', detail);
  }

  /** `{ errors: [{ code, message }] }` with a non-2xx status. */
  #requestFailure(answer: VendorAnswer): VendorFailure {
    const first = asRecord((asRecord(answer.json)['errors'] as unknown[] | undefined)?.[0]);
    const detail = [asString(first['code']), vendorText(first['message'], this.#secrets())].filter(Boolean).join(' ');
    const meaning = expoRequestError(asString(first['code']));
    if (meaning) return classifiedFailure(LABEL, meaning, answer, '', detail);
    return httpFailure(LABEL, answer, detail, answer.status === 400 ? 'INVALID_REQUEST' : null);
  }

  #secrets(): string[] {
    return [this.#accessToken ?? ''];
  }
}

/**
 * One message of Expo's send request: title, body, data (the custom data, message_id and link), and
 * an image as richContent.image with mutableContent (iOS shows it through a notification service extension).
 */
export function expoMessage(message: OutboundMessage, title: string | null) {
  const image = message.push?.imageUrl ?? null;
  return {
    // The link also as data.url, the key Expo Router's notification handling reads (unless the data names its own url).
    to: message.to, ...(title ? { title } : {}), body: message.body, sound: 'default',
    data: { ...(message.push?.link ? { url: message.push.link } : {}), ...pushDataMap(message.messageId, message.push) },
    ...(image ? { richContent: { image }, mutableContent: true } : {}),
  };
}
