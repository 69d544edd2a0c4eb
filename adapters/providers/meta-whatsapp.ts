import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../core/errors.ts';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { DeliveryReport, InboundCallback, InboundReport, ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import {
  asRecord, asString, callVendor, httpFailure, internationalDigits, isSuccess, unhealthy, vendorFailure, vendorText,
  type VendorAnswer, type VendorFailure,
} from './ghana-sms-http.ts';
import type { MetaTemplateListing } from '../../core/domain/whatsapp-template.ts';
import { metaCode } from './meta-whatsapp-codes.ts';
import { listMetaTemplates } from './meta-whatsapp-templates.ts';
import { classifiedFailure } from './vendor-codes.ts';

export const META_GRAPH_BASE_URL = 'https://graph.facebook.com';
export const META_GRAPH_VERSION = 'v21.0';
/** A body starting with this marker is sent as the configured template (see MetaWhatsappProvider). */
export const WHATSAPP_TEMPLATE_MARKER = '[[template]]';
const LABEL = 'WhatsApp';

export interface MetaWhatsappOptions {
  /** System-user access token; `appSecret` signs the webhook (X-Hub-Signature-256). */
  credentials: { accessToken: string; appSecret?: string };
  /** The business phone number's id (not the number itself). */
  phoneNumberId: string;
  /** Graph API version, e.g. 'v21.0'. */
  apiVersion?: string;
  baseUrl?: string;
  timeoutMs?: number;
  name?: string;
  /** 'template' sends every message as `templateName`; default 'text'. */
  mode?: 'text' | 'template';
  /** An approved template whose body parameters are filled from the message body. */
  templateName?: string;
  /** The template's language code; default 'en_US'. */
  templateLanguage?: string;
  /** The WhatsApp Business Account id: its approved templates are read for the check (docs/whatsapp-templates.md). */
  businessAccountId?: string;
}

/** Webhook status words; `read` implies delivered. Unknown words (deleted, warning ...) are ignored. */
const STATUSES: Record<string, DeliveryReport['status']> = { sent: 'SENT', delivered: 'DELIVERED', read: 'DELIVERED', failed: 'FAILED' };

/**
 * Meta WhatsApp Cloud API: `POST /{version}/{phoneNumberId}/messages` with a bearer token, recipients
 * as international digits without '+'. Status reports arrive as signed webhooks (parseCallback);
 * the GET subscription handshake is `verifyChallenge`.
 *
 * Text or template (OutboundMessage has no template fields, so the rule is): a message is sent as
 * the approved template `templateName`/`templateLanguage` when the provider's `mode` is 'template'
 * or its body starts with `[[template]]` (the marker is dropped); each non-empty line of the rest of
 * the body is one body parameter, in order ({{1}}, {{2}} ...). Otherwise it is a text message (only
 * delivered inside the 24 h customer-service window; outside it Meta answers 131047,
 * REENGAGEMENT_REQUIRED). Template mode without a configured template fails TEMPLATE_NOT_CONFIGURED.
 * A message carrying `whatsappTemplate` (a mapped Nkra template outside the 24-hour window,
 * docs/whatsapp-templates.md) is sent as exactly that Meta template, whatever the mode.
 */
export class MetaWhatsappProvider implements VendorAdapter {
  readonly vendor = 'meta-whatsapp';
  readonly channel = 'WHATSAPP' as const;
  readonly name: string;
  readonly #baseUrl: string;
  readonly #version: string;
  readonly #phoneNumberId: string;
  readonly #accessToken: string;
  readonly #appSecret: string | null;
  readonly #timeoutMs: number;
  readonly #mode: 'text' | 'template';
  readonly #templateName: string | null;
  readonly #templateLanguage: string;
  readonly #businessAccountId: string | null;

  constructor(options: MetaWhatsappOptions) {
    this.name = options.name ?? this.vendor;
    this.#baseUrl = (options.baseUrl ?? META_GRAPH_BASE_URL).replace(/\/+$/, '');
    this.#version = options.apiVersion ?? META_GRAPH_VERSION;
    this.#phoneNumberId = options.phoneNumberId;
    this.#accessToken = options.credentials.accessToken;
    this.#appSecret = options.credentials.appSecret ?? null;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#mode = options.mode ?? 'text';
    this.#templateName = options.templateName ?? null;
    this.#templateLanguage = options.templateLanguage ?? 'en_US';
    this.#businessAccountId = options.businessAccountId ?? null;
    if (this.#businessAccountId) this.messageTemplates = () => this.#messageTemplates();
  }

  /** Set when the account's `businessAccountId` is configured: its templates, every page (meta-whatsapp-templates.ts). */
  readonly messageTemplates?: () => Promise<MetaTemplateListing[]>;

  #messageTemplates(): Promise<MetaTemplateListing[]> {
    return listMetaTemplates({ graphUrl: `${this.#baseUrl}/${this.#version}`, businessAccountId: this.#businessAccountId!, headers: this.#headers(), timeoutMs: this.#timeoutMs, secrets: this.#secrets() });
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    const content = message.whatsappTemplate ? { type: 'template', template: message.whatsappTemplate } : this.#content(message.body);
    if (content === null) return vendorFailure(false, 'TEMPLATE_NOT_CONFIGURED', `${LABEL}: template mode without a configured template name`);
    const payload = {
      messaging_product: 'whatsapp', recipient_type: 'individual', to: internationalDigits(message.to), ...content,
      biz_opaque_callback_data: message.messageId,
    };
    const request = { method: 'POST' as const, headers: this.#headers(), body: JSON.stringify(payload) };
    const call = await callVendor(LABEL, this.#url(`/${this.#phoneNumberId}/messages`), request, this.#timeoutMs);
    if (!call.ok) return call.failure;
    const { answer } = call;
    if (!isSuccess(answer)) return this.#failure(answer);
    const first = asRecord(Array.isArray(asRecord(answer.json)['messages']) ? (asRecord(answer.json)['messages'] as unknown[])[0] : null);
    const id = asString(first['id']);
    // Meta may have queued it: resubmitting could send twice, so this is not retryable.
    if (!id) return vendorFailure(false, 'VENDOR_BAD_RESPONSE', `${LABEL}: success answer without a message id (HTTP ${answer.status})`);
    return { accepted: true, providerMessageId: id, delivered: false };
  }

  /** `GET /{version}/{phoneNumberId}`: authenticated; reports the number and its quality rating (no balance). */
  async checkHealth(): Promise<ProviderHealth> {
    const url = this.#url(`/${this.#phoneNumberId}`);
    url.searchParams.set('fields', 'display_phone_number,verified_name,quality_rating');
    const call = await callVendor(LABEL, url, { method: 'GET', headers: this.#headers() }, this.#timeoutMs);
    if (!call.ok) return unhealthy(call.latencyMs, call.failure.errorMessage);
    const { answer } = call;
    if (!isSuccess(answer)) return unhealthy(answer.latencyMs, this.#failure(answer).errorMessage);
    const body = asRecord(answer.json);
    const number = vendorText(body['display_phone_number'], this.#secrets()) || 'unknown number';
    const quality = vendorText(body['quality_rating'], this.#secrets()) || 'unknown';
    return { ok: true, latencyMs: answer.latencyMs, detail: `${LABEL}: ${number}, quality rating ${quality}`, balance: null };
  }

  /**
   * A webhook POST: checks `X-Hub-Signature-256` (HMAC-SHA256 of the raw body with the app secret,
   * constant time; INVALID_SIGNATURE when missing, wrong, or no app secret is configured), then
   * returns one report per known status in `entry[].changes[].value.statuses[]` (user messages in the
   * same envelope: parseInbound).
   */
  parseCallback(callback: InboundCallback): DeliveryReport[] {
    const reports: DeliveryReport[] = [];
    for (const value of this.#verifiedValues(callback)) {
      for (const status of arrayOf(value['statuses'])) {
        const report = statusReport(status);
        if (report) reports.push(report);
      }
    }
    return reports;
  }

  /**
   * Messages users sent, from the same signed envelope (`value.messages[]`, names in `value.contacts[]`,
   * the receiving number's id in `value.metadata.phone_number_id`). Text is read as is; a button or list
   * reply by its title; other types (media, location ...) as "[type]".
   */
  parseInbound(callback: InboundCallback): InboundReport[] {
    const inbound: InboundReport[] = [];
    for (const value of this.#verifiedValues(callback)) {
      const to = asString(asRecord(value['metadata'])['phone_number_id']) ?? '';
      const names = new Map(arrayOf(value['contacts']).map((c) => [asString(c['wa_id']) ?? '', asString(asRecord(c['profile'])['name'])]));
      for (const message of arrayOf(value['messages'])) {
        const id = asString(message['id']);
        const from = asString(message['from']);
        if (!id || !from) continue;
        const seconds = Number(asString(message['timestamp']));
        inbound.push({ providerMessageId: id, channel: 'WHATSAPP', from: `+${from.replace(/^\+/, '')}`, to, body: inboundText(message),
          receivedAt: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : null, profileName: names.get(from) ?? null });
      }
    }
    return inbound;
  }

  /** The `value` objects of a webhook POST whose X-Hub-Signature-256 matches (INVALID_SIGNATURE otherwise). */
  #verifiedValues(callback: InboundCallback): Array<Record<string, unknown>> {
    if (!this.#appSecret) throw new AppError('INVALID_SIGNATURE', 'WhatsApp webhook received but no app secret is configured');
    const given = headerValue(callback.headers, 'x-hub-signature-256') ?? '';
    const expected = `sha256=${createHmac('sha256', this.#appSecret).update(callback.rawBody).digest('hex')}`;
    if (!sameSecret(given.trim().toLowerCase(), expected)) throw new AppError('INVALID_SIGNATURE', 'WhatsApp webhook signature is missing or wrong');
    let payload: unknown;
    try { payload = JSON.parse(callback.rawBody.toString('utf8')); } catch { throw new AppError('VALIDATION_ERROR', 'WhatsApp webhook body is not JSON'); }
    return arrayOf(asRecord(payload)['entry']).flatMap((entry) => arrayOf(entry['changes']).map((change) => asRecord(change['value'])));
  }

  /** The message's `type` and content: text, or the configured template; null when a template is wanted but none is configured. */
  #content(body: string): Record<string, unknown> | null {
    const marked = body.trimStart().startsWith(WHATSAPP_TEMPLATE_MARKER);
    if (!marked && this.#mode === 'text') return { type: 'text', text: { preview_url: false, body } };
    if (!this.#templateName) return null;
    const rest = marked ? body.trimStart().slice(WHATSAPP_TEMPLATE_MARKER.length) : body;
    const parameters = rest.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '').map((text) => ({ type: 'text', text }));
    const template: Record<string, unknown> = { name: this.#templateName, language: { code: this.#templateLanguage } };
    if (parameters.length > 0) template['components'] = [{ type: 'body', parameters }];
    return { type: 'template', template };
  }

  #failure(answer: VendorAnswer): VendorFailure {
    const error = asRecord(asRecord(answer.json)['error']);
    const code = typeof error['code'] === 'number' ? error['code'] : null;
    const detail = vendorText(asRecord(error['error_data'])['details'] ?? error['message'], this.#secrets());
    // Meta's code first (throttling arrives as HTTP 400), the HTTP status for codes we do not know.
    const meaning = metaCode(code);
    return meaning ? classifiedFailure(LABEL, meaning, answer, `Meta code ${code}`, detail) : httpFailure(LABEL, answer, code === null ? detail : `${detail} (Meta code ${code})`.trim());
  }

  #secrets(): string[] { return [this.#accessToken, this.#appSecret ?? '']; }

  #url(path: string): URL { return new URL(`${this.#baseUrl}/${this.#version}${path}`); }

  #headers(): Record<string, string> {
    return { authorization: `Bearer ${this.#accessToken}`, 'content-type': 'application/json', accept: 'application/json' };
  }
}

/**
 * The webhook subscription handshake (GET `?hub.mode=subscribe&hub.challenge=...&hub.verify_token=...`):
 * the challenge to answer with 200 as the raw body when the mode is subscribe and the token matches
 * (constant time), else null (answer 403). Accepts `hub_mode`-style keys too.
 */
export function verifyChallenge(query: Record<string, unknown>, verifyToken: string): string | null {
  const read = (key: string) => asString(first(query[`hub.${key}`])) ?? asString(first(query[`hub_${key}`]));
  const challenge = read('challenge');
  if (read('mode') !== 'subscribe' || challenge === null || verifyToken === '') return null;
  return sameSecret(read('verify_token') ?? '', verifyToken) ? challenge : null;
}

function statusReport(status: Record<string, unknown>): DeliveryReport | null {
  const id = asString(status['id']);
  const word = asString(status['status']);
  const mapped = word ? STATUSES[word.toLowerCase()] : undefined;
  if (!id || !word || !mapped) return null;
  const seconds = Number(asString(status['timestamp']));
  let errorCode: string | null = null;
  if (mapped === 'FAILED') {
    const code = arrayOf(status['errors'])[0]?.['code'];
    errorCode = typeof code === 'number' ? (metaCode(code)?.code ?? `WHATSAPP_${code}`) : 'UNDELIVERED';
  }
  return { providerMessageId: id, status: mapped, errorCode, vendorStatus: word, occurredAt: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : null };
}

/** The text of an inbound WhatsApp message of any type. */
function inboundText(message: Record<string, unknown>): string {
  const type = asString(message['type']) ?? 'unknown';
  if (type === 'text') return asString(asRecord(message['text'])['body']) ?? '';
  if (type === 'button') return asString(asRecord(message['button'])['text']) ?? '[button]';
  if (type === 'interactive') {
    const interactive = asRecord(message['interactive']);
    return asString(asRecord(interactive['button_reply'])['title']) ?? asString(asRecord(interactive['list_reply'])['title']) ?? '[interactive]';
  }
  return asString(asRecord(message[type])['caption']) ?? `[${type}]`;
}

function arrayOf(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value) ? value.map(asRecord) : [];
}

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

function headerValue(headers: Record<string, string | undefined>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** Constant-time comparison of two secrets of any length (compares their digests). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length > 0;
}
