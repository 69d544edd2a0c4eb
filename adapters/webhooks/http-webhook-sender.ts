import { createHmac } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { WEBHOOK_TIMEOUT_MS } from '../../core/domain/webhook.ts';
import type { WebhookAttemptResult, WebhookRequest, WebhookSender } from '../../core/ports/webhook-sender.ts';
import { forbiddenAddressReason } from './address-policy.ts';

export const RESPONSE_BODY_CAP_BYTES = 4 * 1024;

export interface HttpWebhookSenderOptions {
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES: development and tests only (refused in production by the config). */
  allowPrivateAddresses: boolean;
  timeoutMs?: number;
  /** Clock in ms (tests); defaults to Date.now. */
  now?: () => number;
  /** Host name resolution (tests); defaults to dns.lookup with every address. */
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
}

/** Lowercase hex HMAC-SHA256 of the raw body keyed with the secret: X-Service-Signature. */
export function webhookSignature(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Webhook deliveries over node:http(s). The host is resolved once, every address checked
 * (address-policy.ts), and the connection made to the checked address through a `lookup` that returns
 * it (no second DNS answer, so no rebinding); TLS still verifies the certificate for the host name.
 * Redirects are not followed (a 3xx is a failed attempt), at most RESPONSE_BODY_CAP_BYTES of the
 * answer are read, and the whole attempt is bounded by the timeout (10 s).
 */
export class HttpWebhookSender implements WebhookSender {
  readonly #allowPrivate: boolean;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  readonly #lookup: (host: string) => Promise<Array<{ address: string; family: number }>>;
  constructor(options: HttpWebhookSenderOptions) {
    this.#lookup = options.resolve ?? ((host) => dnsLookup(host, { all: true, verbatim: true }));
    this.#allowPrivate = options.allowPrivateAddresses;
    this.#timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    this.#now = options.now ?? Date.now;
  }

  async checkTarget(url: string): Promise<string | null> {
    const target = await this.#resolve(url);
    return 'reason' in target ? target.reason : null;
  }

  async post(request: WebhookRequest): Promise<WebhookAttemptResult> {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null): WebhookAttemptResult => ({
      ok: error === null && statusCode !== null && statusCode >= 200 && statusCode < 300, statusCode,
      error: error ?? (statusCode !== null && (statusCode < 200 || statusCode >= 300) ? `HTTP ${statusCode}` : null), durationMs: Math.round(performance.now() - started),
    });
    const target = await this.#resolve(request.url);
    if ('reason' in target) return done(null, `refused: ${target.reason}`);
    const timestamp = String(Math.floor(this.#now() / 1000));
    const headers: Record<string, string> = {
      'content-type': 'application/json', 'user-agent': 'Nkra-Webhooks/1.0', 'content-length': String(Buffer.byteLength(request.body)),
      'x-service-event': request.kind, 'x-service-event-id': request.eventId, 'x-service-timestamp': timestamp,
      'x-service-signature': webhookSignature(request.body, request.secret),
    };
    if (request.previousSecret) headers['x-service-signature-previous'] = webhookSignature(request.body, request.previousSecret);
    return new Promise<WebhookAttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: WebhookAttemptResult) => { if (!settled) { settled = true; clearTimeout(timer); resolve(result); } };
      const lookup: LookupFunction = (_host, options, callback) => {
        if (options.all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: target.address, family: target.family }]);
        else callback(null, target.address, target.family);
      };
      const client = target.url.protocol === 'https:' ? https : http;
      const req = client.request(target.url, { method: 'POST', headers, lookup, agent: false, ...(target.url.protocol === 'https:' && isIP(target.host) === 0 ? { servername: target.host } : {}) }, (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => { read += chunk.length; if (read >= RESPONSE_BODY_CAP_BYTES) { res.destroy(); finish(done(res.statusCode ?? null, null)); } });
        res.on('end', () => finish(done(res.statusCode ?? null, null)));
        res.on('error', () => finish(done(res.statusCode ?? null, null)));
      });
      const timer = setTimeout(() => { finish(done(null, `timed out after ${this.#timeoutMs} ms`)); req.destroy(); }, this.#timeoutMs);
      req.on('error', (error) => finish(done(null, `connection failed: ${error.message}`)));
      req.end(request.body);
    });
  }

  /** The URL, its host and the one address to connect to, or why it may not be used. */
  async #resolve(raw: string): Promise<{ url: URL; host: string; address: string; family: 4 | 6 } | { reason: string }> {
    let url: URL;
    try { url = new URL(raw); } catch { return { reason: 'not a valid URL' }; }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { reason: 'only http and https URLs are allowed' };
    if (url.username || url.password) return { reason: 'credentials in the URL are not allowed' };
    // WHATWG parsing has already turned decimal, octal and hex IPv4 spellings (2130706433, 0177.0.0.1) into dotted quads.
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: Array<{ address: string; family: number }>;
    if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await withTimeout(this.#lookup(host), this.#timeoutMs);
      } catch {
        return { reason: `${host} could not be resolved` };
      }
    }
    if (addresses.length === 0) return { reason: `${host} could not be resolved` };
    if (!this.#allowPrivate) {
      for (const { address } of addresses) {
        const reason = forbiddenAddressReason(address);
        if (reason) return { reason: isIP(host) === 0 ? `${host} resolves to ${reason}` : reason };
      }
    }
    const first = addresses[0]!;
    return { url, host, address: first.address, family: first.family === 6 ? 6 : 4 };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('DNS timeout')), ms); })])
    .finally(() => clearTimeout(timer));
}
