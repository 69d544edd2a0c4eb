import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { DeliveryReport, InboundCallback, ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import { asRecord, asString, callVendor, httpFailure, isSuccess, unhealthy, vendorText, type VendorAnswer, type VendorFailure } from './ghana-sms-http.ts';
import { sendgridMeaning } from './sendgrid-codes.ts';
import { classifiedFailure } from './vendor-codes.ts';
import { htmlToText } from './smtp-email.ts';

export const SENDGRID_BASE_URL = 'https://api.sendgrid.com';
const LABEL = 'SendGrid';
const SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
const TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

export interface SendgridEmailOptions {
  /** `webhookPublicKey`: the Signed Event Webhook's verification key (base64 DER, as the dashboard shows it, or PEM). */
  credentials: { apiKey: string; webhookPublicKey?: string };
  /** The sender, 'no-reply@example.com' or '"Nkra" <no-reply@example.com>' (a verified sender identity). */
  from: string;
  replyTo?: string;
  /** 'https://api.eu.sendgrid.com' for EU subusers. */
  baseUrl?: string;
  timeoutMs?: number;
  name?: string;
  /** SendGrid's sandbox mode: validated (200), never sent. */
  sandboxMode?: boolean;
  /** Signed webhooks older or newer than this are refused (replay window); default 300 s. */
  webhookToleranceSeconds?: number;
  now?: () => number;
}

/** Event words in our terms: engagement (open, click) implies delivery; unsubscribes and spam reports are not delivery states. */
const EVENTS: Record<string, Pick<DeliveryReport, 'status' | 'errorCode'>> = {
  processed: { status: 'SENT', errorCode: null },
  deferred: { status: 'SENT', errorCode: null },
  delivered: { status: 'DELIVERED', errorCode: null },
  open: { status: 'DELIVERED', errorCode: null },
  click: { status: 'DELIVERED', errorCode: null },
  bounce: { status: 'FAILED', errorCode: 'BOUNCED' },
  dropped: { status: 'FAILED', errorCode: 'DROPPED' },
};

/**
 * SendGrid v3 Mail Send: `POST /v3/mail/send` with a bearer API key; 202 Accepted carries the id in
 * `X-Message-Id` (the prefix of every later event's `sg_message_id`). The body is our rendered HTML
 * with a plain-text alternative derived from it (text/plain first, as SendGrid requires). Delivery
 * comes from the Signed Event Webhook: ECDSA P-256/SHA-256 over timestamp + raw body, verified with
 * the configured public key (unsigned or unverifiable webhooks are refused).
 */
export class SendgridEmailProvider implements VendorAdapter {
  readonly vendor = 'sendgrid-email';
  readonly channel = 'EMAIL' as const;
  readonly name: string;
  readonly #baseUrl: string;
  readonly #apiKey: string;
  readonly #publicKey: KeyObject | null;
  readonly #from: { email: string; name?: string };
  readonly #replyTo: string | null;
  readonly #timeoutMs: number;
  readonly #sandbox: boolean;
  readonly #toleranceSeconds: number;
  readonly #now: () => number;

  constructor(options: SendgridEmailOptions) {
    this.name = options.name ?? this.vendor;
    this.#baseUrl = (options.baseUrl ?? SENDGRID_BASE_URL).replace(/\/+$/, '');
    this.#apiKey = options.credentials.apiKey;
    this.#publicKey = readPublicKey(options.credentials.webhookPublicKey);
    this.#from = parseAddress(options.from);
    this.#replyTo = options.replyTo ?? null;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#sandbox = options.sandboxMode ?? false;
    this.#toleranceSeconds = options.webhookToleranceSeconds ?? 300;
    this.#now = options.now ?? Date.now;
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const payload: Record<string, unknown> = {
      personalizations: [{ to: [{ email: message.to }], subject: message.subject ?? '', custom_args: { message_id: message.messageId } }],
      from: this.#from,
      content: [{ type: 'text/plain', value: htmlToText(message.body) || ' ' }, { type: 'text/html', value: message.body }],
    };
    if (this.#replyTo) payload['reply_to'] = { email: this.#replyTo };
    if (message.headers && Object.keys(message.headers).length > 0) payload['headers'] = { ...message.headers };
    if (this.#sandbox) payload['mail_settings'] = { sandbox_mode: { enable: true } };
    const call = await callVendor(LABEL, this.#url('/v3/mail/send'), { method: 'POST', headers: this.#headers(), body: JSON.stringify(payload) }, this.#timeoutMs);
    if (!call.ok) return call.failure;
    const { answer } = call;
    if (!isSuccess(answer)) return this.#failure(answer);
    // 202 queued (200 in sandbox mode). Without the header it is still queued: resending would duplicate it.
    const id = answer.headers.get('x-message-id')?.trim() || `sendgrid_${message.internalMessageId}`;
    return { accepted: true, providerMessageId: id, delivered: false };
  }

  /** `GET /v3/scopes`: authenticated, and healthy only when the key may send mail (`mail.send`). */
  async checkHealth(): Promise<ProviderHealth> {
    const call = await callVendor(LABEL, this.#url('/v3/scopes'), { method: 'GET', headers: this.#headers() }, this.#timeoutMs);
    if (!call.ok) return unhealthy(call.latencyMs, call.failure.errorMessage);
    const { answer } = call;
    if (!isSuccess(answer)) return unhealthy(answer.latencyMs, this.#failure(answer).errorMessage);
    const scopes = asRecord(answer.json)['scopes'];
    if (!Array.isArray(scopes) || !scopes.includes('mail.send')) return unhealthy(answer.latencyMs, `${LABEL}: the API key lacks the mail.send scope`);
    return { ok: true, latencyMs: answer.latencyMs, detail: `${LABEL}: API key valid with mail.send`, balance: null };
  }

  /**
   * An Event Webhook POST (a JSON array of events). Throws INVALID_SIGNATURE when no public key is
   * configured, the signature or timestamp header is missing, the timestamp is outside the replay
   * window, or the signature does not verify; VALIDATION_ERROR when the body is not a JSON array.
   * `providerMessageId` is the `sg_message_id` up to its first '.', i.e. the X-Message-Id of the send.
   */
  parseCallback(callback: InboundCallback): DeliveryReport[] {
    this.#verifySignature(callback);
    let events: unknown;
    try { events = JSON.parse(callback.rawBody.toString('utf8')); } catch { throw new AppError('VALIDATION_ERROR', 'SendGrid webhook body is not JSON'); }
    if (!Array.isArray(events)) throw new AppError('VALIDATION_ERROR', 'SendGrid webhook body is not an array of events');
    const reports: DeliveryReport[] = [];
    for (const event of events.map(asRecord)) {
      const id = asString(event['sg_message_id'])?.split('.')[0];
      const word = asString(event['event']);
      const mapped = word ? EVENTS[word] : undefined;
      if (!id || !word || !mapped) continue;
      const blocked = word === 'bounce' && event['type'] === 'blocked';
      const seconds = typeof event['timestamp'] === 'number' ? event['timestamp'] : Number.NaN;
      reports.push({
        providerMessageId: id, status: mapped.status, errorCode: blocked ? 'BLOCKED' : mapped.errorCode, vendorStatus: word,
        occurredAt: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : null,
      });
    }
    return reports;
  }

  #verifySignature(callback: InboundCallback): void {
    if (!this.#publicKey) throw new AppError('INVALID_SIGNATURE', 'SendGrid webhook received but no usable verification key is configured');
    const signature = headerValue(callback.headers, SIGNATURE_HEADER);
    const timestamp = headerValue(callback.headers, TIMESTAMP_HEADER)?.trim();
    if (!signature || !timestamp || !/^\d+$/.test(timestamp)) throw new AppError('INVALID_SIGNATURE', 'SendGrid webhook without signature or timestamp');
    if (Math.abs(this.#now() / 1000 - Number(timestamp)) > this.#toleranceSeconds) throw new AppError('INVALID_SIGNATURE', 'SendGrid webhook timestamp outside the replay window');
    let valid = false;
    try {
      const signed = Buffer.concat([Buffer.from(timestamp, 'utf8'), callback.rawBody]);
      valid = verify('sha256', signed, { key: this.#publicKey, dsaEncoding: 'der' }, Buffer.from(signature.trim(), 'base64'));
    } catch { valid = false; }
    if (!valid) throw new AppError('INVALID_SIGNATURE', 'SendGrid webhook signature does not verify');
  }

  #failure(answer: VendorAnswer): VendorFailure {
    const errors = Array.isArray(asRecord(answer.json)['errors']) ? (asRecord(answer.json)['errors'] as unknown[]).map(asRecord) : [];
    const detail = errors.map((e) => vendorText(e['message'], [this.#apiKey])).filter(Boolean).join('; ').slice(0, 300);
    const fields = errors.map((e) => asString(e['field']) ?? '');
    const reset = answer.headers.get('x-ratelimit-reset');
    const resetNote = answer.status === 429 && reset && /^\d+$/.test(reset) ? `rate limit resets at ${new Date(Number(reset) * 1000).toISOString()}` : '';
    // SendGrid's table (sendgrid-codes.ts): the HTTP status and the failing field; 429/5xx retried.
    const meaning = answer.status === 429 || answer.status >= 500 ? null : sendgridMeaning(answer.status, fields, detail);
    const text = [resetNote, detail].filter(Boolean).join('; ');
    return meaning ? classifiedFailure(LABEL, meaning, answer, '', text) : httpFailure(LABEL, answer, text);
  }

  #url(path: string): URL { return new URL(`${this.#baseUrl}${path}`); }

  #headers(): Record<string, string> {
    return { authorization: `Bearer ${this.#apiKey}`, 'content-type': 'application/json', accept: 'application/json' };
  }
}

/** The verification key from base64 DER (SubjectPublicKeyInfo) or PEM; null when absent or unreadable. */
function readPublicKey(value: string | undefined): KeyObject | null {
  if (!value?.trim()) return null;
  try {
    return value.includes('-----BEGIN')
      ? createPublicKey(value)
      : createPublicKey({ key: Buffer.from(value.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

/** '"Name" <email>' or 'Name <email>' or 'email' as SendGrid's { email, name }. */
function parseAddress(value: string): { email: string; name?: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(value);
  if (!match) return { email: value.trim() };
  const name = match[1]?.trim();
  return name ? { email: match[2]!.trim(), name } : { email: match[2]!.trim() };
}

function headerValue(headers: Record<string, string | undefined>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}
