import nodemailer, { type NodemailerError, type Transporter } from 'nodemailer';
import type { OutboundMessage, ProviderResult } from '../../core/ports/channel-provider.ts';
import type { ProviderHealth, VendorAdapter } from '../../core/ports/vendor-adapter.ts';
import { unhealthy, vendorFailure, vendorText, type VendorFailure } from './ghana-sms-http.ts';

const LABEL = 'SMTP';

export interface SmtpEmailOptions {
  host: string;
  /** Default 465 when `secure`, else 587. */
  port?: number;
  /** Implicit TLS (usually port 465); default: port is 465. */
  secure?: boolean;
  /** Insist on STARTTLS when not `secure`; default true (turn off only for a local sink). */
  requireTLS?: boolean;
  /** Verify the server's certificate; default true. */
  rejectUnauthorized?: boolean;
  credentials?: { user: string; pass: string };
  /** The From header, e.g. '"Nkra" <no-reply@example.com>'. */
  from: string;
  /** Default for the connection, greeting and socket (inactivity) timeouts. */
  timeoutMs?: number;
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  socketTimeoutMs?: number;
  /** Keep up to `maxConnections` connections open between messages; default true, 5. */
  pool?: boolean;
  maxConnections?: number;
  name?: string;
}

/**
 * Email over SMTP with nodemailer. The body is our rendered HTML (variables escaped); a plain-text
 * alternative is derived from it. The provider message id is the Message-ID header nodemailer set.
 * SMTP replies map by class: 4xx transient (retryable), 5xx permanent (503, a session-state error,
 * excepted as nodemailer does); connection failures and timeouts are retryable. SMTP has no
 * delivery reports: an accepted message stays SENT.
 */
export class SmtpEmailProvider implements VendorAdapter {
  readonly vendor = 'smtp-email';
  readonly channel = 'EMAIL' as const;
  readonly name: string;
  readonly #from: string;
  readonly #secrets: string[];
  readonly #transport: Transporter;

  constructor(options: SmtpEmailOptions) {
    this.name = options.name ?? this.vendor;
    this.#from = options.from;
    this.#secrets = [options.credentials?.pass ?? ''];
    const timeoutMs = options.timeoutMs ?? 10_000;
    const secure = options.secure ?? options.port === 465;
    this.#transport = nodemailer.createTransport({
      host: options.host,
      port: options.port ?? (secure ? 465 : 587),
      secure,
      requireTLS: options.requireTLS ?? !secure,
      tls: { rejectUnauthorized: options.rejectUnauthorized ?? true },
      ...(options.credentials ? { auth: { user: options.credentials.user, pass: options.credentials.pass } } : {}),
      connectionTimeout: options.connectionTimeoutMs ?? timeoutMs,
      greetingTimeout: options.greetingTimeoutMs ?? timeoutMs,
      socketTimeout: options.socketTimeoutMs ?? timeoutMs,
      dnsTimeout: timeoutMs,
      pool: options.pool ?? true,
      maxConnections: options.maxConnections ?? 5,
    });
  }

  async send(message: OutboundMessage): Promise<ProviderResult> {
    try {
      const info = await this.#transport.sendMail({
        from: this.#from, to: message.to, subject: message.subject ?? '',
        html: message.body, text: htmlToText(message.body),
        headers: { ...message.headers, 'X-Nkra-Message-Id': message.messageId },
      }) as { messageId?: unknown; accepted?: unknown[] };
      if (Array.isArray(info.accepted) && info.accepted.length === 0) {
        return vendorFailure(false, 'INVALID_ADDRESS', `${LABEL}: the server accepted no recipient`);
      }
      return { accepted: true, providerMessageId: typeof info.messageId === 'string' ? info.messageId : `smtp_${message.internalMessageId}`, delivered: false };
    } catch (error) {
      return this.#failure(error);
    }
  }

  /** Connects, greets and authenticates (transporter.verify()); never throws. */
  async checkHealth(): Promise<ProviderHealth> {
    const started = performance.now();
    try {
      await this.#transport.verify();
      return { ok: true, latencyMs: Math.round(performance.now() - started), detail: `${LABEL}: server ready, login accepted`, balance: null };
    } catch (error) {
      return unhealthy(Math.round(performance.now() - started), this.#failure(error).errorMessage);
    }
  }

  /** Closes pooled connections (a host shutting down). */
  close(): void {
    this.#transport.close();
  }

  /** Built from nodemailer's error code and the server's reply only, never from the error text. */
  #failure(error: unknown): VendorFailure {
    const e = (error ?? {}) as NodemailerError;
    const reply = vendorText(e.response, this.#secrets);
    const command = typeof e.command === 'string' ? e.command.split(' ')[0]!.toUpperCase() : '';
    const at = command && command !== 'CONN' ? ` at ${vendorText(command, this.#secrets)}` : '';
    const suffix = reply ? `: ${reply}` : '';
    const fail = (retryable: boolean, code: string, what: string) => vendorFailure(retryable, code, `${LABEL}: ${what}${at}${suffix}`);
    const responseCode = typeof e.responseCode === 'number' ? e.responseCode : null;
    if (responseCode !== null && responseCode >= 400) {
      const transient = responseCode < 500 || responseCode === 503;
      if (e.code === 'EAUTH') return fail(transient, 'AUTH_FAILED', `login refused (${responseCode})`);
      if (transient) return fail(true, responseCode === 421 ? 'VENDOR_UNAVAILABLE' : 'TEMPORARY_FAILURE', `temporary failure (${responseCode})`);
      if (command === 'STARTTLS') return fail(false, 'TLS_UNAVAILABLE', `the server refused STARTTLS, which requireTLS demands (${responseCode})`);
      if (e.code === 'EENVELOPE' && command === 'RCPT') return fail(false, 'INVALID_ADDRESS', `recipient refused (${responseCode})`);
      return fail(false, 'VENDOR_REJECTED', `message refused (${responseCode})`);
    }
    switch (e.code) {
      case 'ETIMEDOUT': return fail(true, 'TIMEOUT', `timed out (${e.timeoutType?.toLowerCase().replaceAll('_', ' ') ?? 'no answer'})`);
      case 'EAUTH': case 'ENOAUTH': return fail(false, 'AUTH_FAILED', 'login refused');
      case 'EENVELOPE': return fail(false, 'INVALID_ADDRESS', 'invalid sender or recipient');
      case 'EMESSAGE': return fail(false, 'VENDOR_REJECTED', 'message refused');
      case 'ECONFIG': return fail(false, 'CONFIG_INVALID', 'invalid SMTP configuration');
      default: return fail(true, 'VENDOR_UNAVAILABLE', `connection failed (${safeCode(e.code)})`);
    }
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * The plain-text alternative of an HTML body: scripts, styles and the head dropped; line breaks for
 * <br> and the ends of block elements; list items as "- "; links as "text (href)" when they differ;
 * tags stripped; entities decoded; runs of blanks and of empty lines collapsed.
 */
export function htmlToText(html: string): string {
  let text = html.replace(/<(script|style|head|title)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '').replace(/<!--[\s\S]*?-->/g, '');
  text = text.replace(/<a\b[^>]*?href\s*=\s*("([^"]*)"|'([^']*)')[^>]*>([\s\S]*?)<\/a\s*>/gi, (_match, _q, dq: string | undefined, sq: string | undefined, inner: string) => {
    const href = (dq ?? sq ?? '').trim();
    const label = inner.replace(/<[^>]*>/g, '').trim();
    return href && decodeEntities(href) !== decodeEntities(label) && !href.startsWith('#') ? `${label} (${href})` : label;
  });
  text = text
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|tr|table|ul|ol|blockquote|section|article|header|footer)\s*>/gi, '\n')
    .replace(/<(p|div|h[1-6]|tr|table|ul|ol|blockquote)\b[^>]*>/gi, '\n')
    .replace(/<\/t[dh]\s*>/gi, ' ')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .split('\n').map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim()).join('\n')
    .replace(/\n{3,}/g, '\n\n').trim();
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+|#39);/gi, (match, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith('#x')) return safeCodePoint(Number.parseInt(lower.slice(2), 16), match);
    if (lower.startsWith('#')) return safeCodePoint(Number.parseInt(lower.slice(1), 10), match);
    return ENTITIES[lower] ?? match;
  });
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback;
}

function safeCode(code: unknown): string {
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : 'unknown error';
}
