import { AppError } from '../../core/errors.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { DeliveryReport, InboundCallback, ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import {
  AFRICAS_TALKING_API_URL, AFRICAS_TALKING_SANDBOX_API_URL, africasTalkingHeaders, africasTalkingHealth, callbackFields, checkCallbackToken, e164, trimSlash,
  type AfricasTalkingCredentials,
} from './africas-talking-sms.ts';
import { asNumber, asRecord, asString, callVendor, codeFromText, httpFailure, isSuccess, vendorFailure, vendorText, type VendorAnswer } from './ghana-sms-http.ts';

export const AFRICAS_TALKING_VOICE_URL = 'https://voice.africastalking.com';
export const AFRICAS_TALKING_SANDBOX_VOICE_URL = 'https://voice.sandbox.africastalking.com';
const LABEL = "Africa's Talking voice";

export interface AfricasTalkingVoiceOptions {
  credentials: AfricasTalkingCredentials;
  /** The AT virtual number calls come from (E.164). */
  from: string;
  /** `Say` voice (default 'woman'). */
  voice?: 'man' | 'woman';
  /** Talk to AT's sandbox hosts (default false); `baseUrl` / `apiBaseUrl` win. */
  sandbox?: boolean;
  /** The voice host (`POST /call`). */
  baseUrl?: string;
  /** The account host, for the balance health check. */
  apiBaseUrl?: string;
  timeoutMs?: number;
  /** Provider instance name; defaults to the vendor key. */
  name?: string;
  /** When set, voice callbacks are only believed if their URL carries `?token=<callbackToken>` (AT does not sign). */
  callbackToken?: string;
}

/** Per-number `status` of `POST /call` other than Queued. */
const ENTRY_FAILURES: Record<string, string> = {
  invalidphonenumber: 'INVALID_NUMBER',
  destinationnotsupported: 'NOT_ROUTABLE',
  insufficientcredit: 'VENDOR_BALANCE',
};

/** `hangupCause`s of a call that ended unanswered (names unconfirmed; anything else counts as unanswered). */
const HANGUP_CAUSES: Record<string, string> = {
  USER_BUSY: 'BUSY',
  CALL_REJECTED: 'CALL_REJECTED',
  UNALLOCATED_NUMBER: 'INVALID_NUMBER',
  INVALID_NUMBER_FORMAT: 'INVALID_NUMBER',
};

/**
 * Africa's Talking voice: an outbound call (`POST /call`, form-encoded like SMS) that speaks the
 * message body. AT does not take the words with the call: when the callee answers, AT POSTs to the
 * voice callback URL configured on the number (`isActive=1`, `sessionId`) and plays the XML we answer.
 * So the host answers that request with `sayXml(body of the message whose providerMessageId is the
 * sessionId)`. The final request (`isActive=0`) tells whether the call was answered.
 */
export class AfricasTalkingVoiceProvider implements VendorAdapter {
  readonly vendor = 'africas-talking-voice';
  readonly channel = 'VOICE' as const;
  readonly name: string;
  readonly #baseUrl: string;
  readonly #apiBaseUrl: string;
  readonly #credentials: AfricasTalkingCredentials;
  readonly #from: string;
  readonly #voice: 'man' | 'woman';
  readonly #timeoutMs: number;
  readonly #callbackToken: string | null;
  /** Without a callback token, nothing in a callback can be checked (AT does not sign). */
  get verifiesCallbacks(): boolean { return this.#callbackToken !== null; }

  constructor(options: AfricasTalkingVoiceOptions) {
    this.name = options.name ?? this.vendor;
    this.#baseUrl = trimSlash(options.baseUrl ?? (options.sandbox ? AFRICAS_TALKING_SANDBOX_VOICE_URL : AFRICAS_TALKING_VOICE_URL));
    this.#apiBaseUrl = trimSlash(options.apiBaseUrl ?? (options.sandbox ? AFRICAS_TALKING_SANDBOX_API_URL : AFRICAS_TALKING_API_URL));
    this.#credentials = options.credentials;
    this.#from = e164(options.from);
    this.#voice = options.voice ?? 'woman';
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#callbackToken = options.callbackToken ?? null;
  }

  /** Places the call; the vendor id is AT's `sessionId`, which the voice callbacks carry. */
  async send(message: OutboundMessage): Promise<ProviderResult> {
    const to = e164(message.to);
    const form = new URLSearchParams({ username: this.#credentials.username, from: this.#from, to });
    const call = await callVendor(LABEL, new URL(`${this.#baseUrl}/call`), { method: 'POST', headers: africasTalkingHeaders(this.#credentials), body: form.toString() }, this.#timeoutMs);
    return call.ok ? this.#readCall(call.answer, to) : call.failure;
  }

  checkHealth(): Promise<ProviderHealth> {
    return africasTalkingHealth(this.#apiBaseUrl, this.#credentials, this.#timeoutMs);
  }

  /** The XML AT expects in answer to an active call: the text spoken once by the configured voice. */
  sayXml(text: string): string {
    return `<?xml version="1.0" encoding="UTF-8"?><Response><Say voice="${this.#voice}" playBeep="false">${escapeXml(text)}</Say></Response>`;
  }

  /**
   * The `sessionId` when the callback is AT asking what to play (`isActive=1`), else null. Throws
   * like parseCallback on a missing or wrong callback token.
   */
  activeSessionId(callback: InboundCallback): string | null {
    checkCallbackToken(callback, this.#callbackToken);
    const fields = callbackFields(callback);
    return fields['isActive'] === '1' && fields['sessionId'] ? fields['sessionId'] : null;
  }

  /**
   * A voice callback: `isActive=1` (answered, being played) -> SENT; the final `isActive=0` -> DELIVERED
   * when the call lasted, else FAILED with the hang-up cause (NO_ANSWER, BUSY ...). Throws
   * INVALID_SIGNATURE on a missing or wrong callback token, VALIDATION_ERROR without `sessionId`.
   */
  parseCallback(callback: InboundCallback): DeliveryReport[] {
    checkCallbackToken(callback, this.#callbackToken);
    const fields = callbackFields(callback);
    const sessionId = fields['sessionId'];
    if (!sessionId) throw new AppError('VALIDATION_ERROR', "Africa's Talking voice callback without sessionId");
    const state = fields['callSessionState'] ?? null;
    if (fields['isActive'] === '1') return [{ providerMessageId: sessionId, status: 'SENT', errorCode: null, vendorStatus: state ?? 'Active', occurredAt: null }];
    if (fields['isActive'] !== '0') return [];
    const duration = asNumber(fields['durationInSeconds']) ?? 0;
    const cause = fields['hangupCause']?.trim().toUpperCase() ?? '';
    if (duration > 0) return [{ providerMessageId: sessionId, status: 'DELIVERED', errorCode: null, vendorStatus: state ?? 'Completed', occurredAt: null }];
    const errorCode = HANGUP_CAUSES[cause] ?? 'NO_ANSWER';
    return [{ providerMessageId: sessionId, status: 'FAILED', errorCode, vendorStatus: state ?? (cause || 'NotAnswered'), occurredAt: null }];
  }

  #readCall(answer: VendorAnswer, to: string): ProviderResult {
    const secrets = [this.#credentials.apiKey];
    const body = asRecord(answer.json);
    const errorMessage = vendorText(body['errorMessage'], secrets);
    if (!isSuccess(answer)) return httpFailure(LABEL, answer, errorMessage);
    const entries = Array.isArray(body['entries']) ? body['entries'].map(asRecord) : [];
    const mine = entries.find((e) => e['phoneNumber'] === to) ?? entries[0];
    const status = vendorText(mine?.['status'], secrets);
    const sessionId = asString(mine?.['sessionId']);
    if (mine && status.toLowerCase() === 'queued' && sessionId && sessionId !== 'None') return { accepted: true, providerMessageId: sessionId, delivered: false };
    if (mine && status && status.toLowerCase() !== 'queued') {
      return vendorFailure(false, ENTRY_FAILURES[status.toLowerCase()] ?? 'VENDOR_REJECTED', `${LABEL}: call refused: ${status}`);
    }
    if (mine) return vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: call queued without a session id`);
    if (answer.json === null) return vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: answer is not JSON (HTTP ${answer.status})`);
    // No entries: the whole request was refused (bad caller id, voice not enabled ...).
    const code = /caller/i.test(errorMessage) ? 'INVALID_SENDER' : codeFromText(errorMessage) ?? 'VENDOR_REJECTED';
    return vendorFailure(false, code, `${LABEL}: request refused: ${errorMessage || 'no reason given'}`);
  }
}

/** Text made safe inside an XML element: markup characters escaped, characters XML 1.0 forbids dropped. */
export function escapeXml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
