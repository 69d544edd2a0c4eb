import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { DeliveryReport, InboundCallback, InboundReport, ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import {
  asNumber, asRecord, asString, callVendor, httpFailure, isSuccess, unhealthy, vendorFailure, vendorText,
  type VendorAnswer, type VendorFailure,
} from './ghana-sms-http.ts';
import { TWILIO_STATUSES, twilioCode, twilioFailureCode } from './twilio-codes.ts';
import { classifiedFailure } from './vendor-codes.ts';

export const TWILIO_BASE_URL = 'https://api.twilio.com';
/** Empty TwiML, byte for byte what the twilio SDK's `new twiml.MessagingResponse().toString()` writes. */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
const LABEL = 'Twilio';

export interface TwilioCredentials {
  accountSid: string;
  /** Authenticates API calls and keys the X-Twilio-Signature of callbacks. */
  authToken: string;
}

export interface TwilioSmsOptions {
  credentials: TwilioCredentials;
  /** A Twilio number or registered alphanumeric sender; a message's own sender id wins. */
  from?: string;
  /** Send through a Messaging Service (with or without `From`). */
  messagingServiceSid?: string;
  /** Our public status-callback endpoint, passed as `StatusCallback` with every message. */
  statusCallbackUrl?: string;
  baseUrl?: string;
  timeoutMs?: number;
  /** Provider instance name; defaults to the vendor key. */
  name?: string;
}

/**
 * Twilio Programmable Messaging: `POST /2010-04-01/Accounts/{sid}/Messages.json`, form-encoded, HTTP
 * Basic (account SID, auth token), `To` in E.164 with '+'. Status callbacks are form POSTs signed with
 * X-Twilio-Signature, verified before anything is read.
 */
export class TwilioSmsProvider implements VendorAdapter {
  readonly vendor = 'twilio-sms';
  readonly channel = 'SMS' as const;
  readonly name: string;
  readonly #api: TwilioApi;
  readonly #from: string | null;
  readonly #messagingServiceSid: string | null;
  readonly #statusCallbackUrl: string | null;

  constructor(options: TwilioSmsOptions) {
    if (!options.from && !options.messagingServiceSid) throw new Error('TwilioSmsProvider needs `from` or `messagingServiceSid`');
    this.name = options.name ?? this.vendor;
    this.#api = new TwilioApi(LABEL, options.credentials, options.baseUrl ?? TWILIO_BASE_URL, options.timeoutMs ?? 10_000);
    this.#from = options.from ?? null;
    this.#messagingServiceSid = options.messagingServiceSid ?? null;
    this.#statusCallbackUrl = options.statusCallbackUrl ?? null;
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const form = new URLSearchParams({ To: twilioE164(message.to), Body: message.body });
    const from = message.senderId ?? this.#from;
    if (from) form.set('From', from);
    if (this.#messagingServiceSid) form.set('MessagingServiceSid', this.#messagingServiceSid);
    if (this.#statusCallbackUrl) form.set('StatusCallback', this.#statusCallbackUrl);
    return this.#api.create('Messages.json', form, 'SM');
  }

  checkHealth(): Promise<ProviderHealth> {
    return this.#api.balance();
  }

  /**
   * A message status callback. Throws INVALID_SIGNATURE unless X-Twilio-Signature matches,
   * VALIDATION_ERROR without `MessageSid` or `MessageStatus`; non-final words yield no report.
   */
  parseCallback(callback: InboundCallback): DeliveryReport[] {
    const params = this.#api.verifiedParams(callback);
    const sid = params.get('MessageSid') ?? params.get('SmsSid');
    const status = params.get('MessageStatus') ?? params.get('SmsStatus');
    if (sid && !status && params.has('Body')) return []; // an incoming message: parseInbound reads it
    if (!sid || !status) throw new AppError('VALIDATION_ERROR', 'Twilio status callback without MessageSid or MessageStatus');
    const mapped = TWILIO_STATUSES[status.trim().toLowerCase()];
    if (!mapped) return [];
    // The same table as the create-time answer (twilio-codes.ts): ErrorCode 30007 is CARRIER_FILTERED in both.
    const errorCode = mapped.status === 'FAILED' ? twilioFailureCode(status, params.get('ErrorCode')) : null;
    return [{ providerMessageId: sid, status: mapped.status, errorCode, vendorStatus: status, occurredAt: null }];
  }

  /**
   * Twilio reads the answer to a messaging webhook as TwiML (twilio.com/docs/messaging/twiml): an empty
   * `<Response/>` as text/xml sends no reply to an incoming SMS, and status callbacks ignore the body.
   */
  callbackReply(): { contentType: string; body: string } {
    return { contentType: 'text/xml', body: EMPTY_TWIML };
  }

  /** Incoming SMS (twilioInbound), after the signature check. */
  parseInbound(callback: InboundCallback): InboundReport[] {
    return twilioInbound(this.#api.verifiedParams(callback));
  }
}

/**
 * An incoming SMS (the number's "A message comes in" webhook: `MessageSid`, `From`, `To`, `Body`,
 * `SmsStatus=received`), verified like status callbacks (X-Twilio-Signature). WhatsApp senders
 * (`whatsapp:+...`) are not read here: WhatsApp comes in through Meta's Cloud API.
 */
export function twilioInbound(params: URLSearchParams): InboundReport[] {
  const sid = params.get('MessageSid') ?? params.get('SmsMessageSid') ?? params.get('SmsSid');
  const status = (params.get('MessageStatus') ?? params.get('SmsStatus') ?? 'received').toLowerCase();
  const from = params.get('From') ?? '';
  if (!sid || !params.has('Body') || status !== 'received' || from === '' || /^whatsapp:/i.test(from)) return [];
  return [{ providerMessageId: sid, channel: 'SMS', from, to: params.get('To') ?? '', body: params.get('Body') ?? '', receivedAt: null, profileName: null }];
}

/** The calls both Twilio adapters make, and the signature check of their callbacks. */
export class TwilioApi {
  readonly #label: string;
  readonly #credentials: TwilioCredentials;
  readonly #accountUrl: string;
  readonly #authorization: string;
  readonly #timeoutMs: number;

  constructor(label: string, credentials: TwilioCredentials, baseUrl: string, timeoutMs: number) {
    this.#label = label;
    this.#credentials = credentials;
    this.#accountUrl = `${baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(credentials.accountSid)}`;
    this.#authorization = `Basic ${Buffer.from(`${credentials.accountSid}:${credentials.authToken}`).toString('base64')}`;
    this.#timeoutMs = timeoutMs;
  }

  /** Creates a resource (a message or a call); accepted with its `sid`. */
  async create(resource: string, form: URLSearchParams, sidPrefix: string): Promise<ProviderResult> {
    const headers = { ...this.#headers(), 'content-type': 'application/x-www-form-urlencoded' };
    const call = await callVendor(this.#label, new URL(`${this.#accountUrl}/${resource}`), { method: 'POST', headers, body: form.toString() }, this.#timeoutMs);
    if (!call.ok) return call.failure;
    const { answer } = call;
    if (!isSuccess(answer)) return this.failure(answer);
    const body = asRecord(answer.json);
    const sid = asString(body['sid']);
    const status = asString(body['status'])?.toLowerCase() ?? '';
    if (status === 'failed' || status === 'undelivered' || status === 'canceled') {
      // Created already failed: its `error_code` reads as in a status callback (one table, twilio-codes.ts).
      const code = asNumber(body['error_code']);
      const meaning = twilioCode(code);
      const detail = vendorText(body['error_message'], this.#secrets());
      if (meaning) return classifiedFailure(this.#label, meaning, null, `Twilio error ${code}`, `created as ${status}${detail ? `: ${detail}` : ''}`);
      return vendorFailure(false, twilioFailureCode(status, code), `${this.#label}: created as ${status}${code === null ? '' : ` (Twilio error ${code})`}`);
    }
    if (sid && sid.startsWith(sidPrefix)) return { accepted: true, providerMessageId: sid, delivered: false };
    // Twilio may have queued it: resubmitting could send twice, so this is not retryable.
    return vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${this.#label}: success answer without a ${sidPrefix} sid (HTTP ${answer.status})`);
  }

  /** `GET /Balance.json`: authenticated, reports the account balance. */
  async balance(): Promise<ProviderHealth> {
    const call = await callVendor(this.#label, new URL(`${this.#accountUrl}/Balance.json`), { method: 'GET', headers: this.#headers() }, this.#timeoutMs);
    if (!call.ok) return unhealthy(call.latencyMs, call.failure.errorMessage);
    const { answer } = call;
    if (!isSuccess(answer)) return unhealthy(answer.latencyMs, this.failure(answer).errorMessage);
    const body = asRecord(answer.json);
    const balance = asNumber(body['balance']);
    const currency = vendorText(body['currency'], this.#secrets());
    return { ok: true, latencyMs: answer.latencyMs, detail: `${this.#label}: balance ${balance ?? 'unknown'} ${currency}`.trim(), balance };
  }

  /** A Twilio error answer (`{ code, message, more_info, status }`) as a failure. */
  failure(answer: VendorAnswer): VendorFailure {
    const body = asRecord(answer.json);
    const code = asNumber(body['code']);
    const text = vendorText(body['message'], this.#secrets());
    // The Twilio code first (a 20429 is retried, a 20003 fails over), the HTTP status for codes we do not know.
    const meaning = twilioCode(code);
    if (meaning) return classifiedFailure(this.#label, meaning, answer, `Twilio error ${code}`, text);
    return httpFailure(this.#label, answer, code === null ? text : `${text} (Twilio error ${code})`.trim());
  }

  /** The callback's parameters once its X-Twilio-Signature is verified; INVALID_SIGNATURE otherwise. */
  verifiedParams(callback: InboundCallback): URLSearchParams {
    return verifiedTwilioParams(callback, this.#credentials.authToken);
  }

  #headers(): Record<string, string> {
    return { authorization: this.#authorization, accept: 'application/json' };
  }

  #secrets(): string[] {
    return [this.#credentials.authToken, this.#credentials.accountSid, this.#authorization];
  }
}

/**
 * X-Twilio-Signature: base64 HMAC-SHA1, keyed with the auth token, over the full URL Twilio called
 * followed by every POST parameter as name + value, sorted by name (then value). A JSON body is not signed itself:
 * the URL carries `bodySHA256` (hex SHA-256 of the raw body) instead.
 */
export function twilioSignature(authToken: string, url: string, params: ReadonlyArray<readonly [string, string]>): string {
  // Repeated values of a name are sorted and counted once, as Twilio's own validators do.
  const unique = [...new Map(params.map(([name, value]) => [JSON.stringify([name, value]), [name, value] as const])).values()];
  const sorted = unique.sort(([a, av], [b, bv]) => compare(a, b) || compare(av, bv));
  const data = sorted.reduce((acc, [name, value]) => acc + name + value, url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/**
 * Verifies a callback's signature in constant time (also against the URL with its default port
 * added or dropped, as Twilio's own validators do) and returns its parameters.
 */
export function verifiedTwilioParams(callback: InboundCallback, authToken: string): URLSearchParams {
  const header = Object.entries(callback.headers).find(([name]) => name.toLowerCase() === 'x-twilio-signature')?.[1] ?? '';
  const invalid = () => new AppError('INVALID_SIGNATURE', 'Twilio callback signature is missing or does not match');
  if (!header) throw invalid();
  const body = callback.rawBody.toString('utf8');
  let bodyHash: string | null = null;
  try { bodyHash = new URL(callback.url).searchParams.get('bodySHA256'); } catch { throw invalid(); }
  const jsonBody = bodyHash !== null;
  if (jsonBody && !sameText(createHash('sha256').update(callback.rawBody).digest('hex'), bodyHash!.toLowerCase())) throw invalid();
  const signed = jsonBody ? [] : [...new URLSearchParams(body)];
  if (!urlVariants(callback.url).some((url) => sameText(twilioSignature(authToken, url, signed), header))) throw invalid();
  return jsonBody ? jsonParams(body) : new URLSearchParams(body);
}

/** Twilio wants E.164 with the '+'. */
export function twilioE164(number: string): string {
  const trimmed = number.trim();
  return trimmed.startsWith('+') ? trimmed : `+${trimmed}`;
}

/** The URL as given, plus the same URL with its scheme's default port added or removed. */
function urlVariants(raw: string): string[] {
  const match = /^(https?):\/\/([^/?#]*?)(?::(\d+))?([/?#].*)?$/i.exec(raw);
  if (!match) return [raw];
  const [, scheme = '', host = '', port, rest = ''] = match;
  const standard = scheme.toLowerCase() === 'https' ? '443' : '80';
  if (port === undefined) return [raw, `${scheme}://${host}:${standard}${rest}`];
  return port === standard ? [raw, `${scheme}://${host}${rest}`] : [raw];
}

function jsonParams(body: string): URLSearchParams {
  let parsed: Record<string, unknown>;
  try { parsed = asRecord(JSON.parse(body)); } catch { throw new AppError('VALIDATION_ERROR', 'Twilio callback body is not JSON'); }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(parsed)) {
    const string = asString(value);
    if (string !== null) params.append(key, string);
  }
  return params;
}

/** Constant-time string comparison (lengths may differ: digests are compared). */
function sameText(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

/** Code-unit order, Twilio's case-sensitive sort (localeCompare would not match it). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
