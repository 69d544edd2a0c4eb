import http2 from 'node:http2';
import type { LookupFunction } from 'node:net';
import { tenantEgress } from '../egress/tenant-egress-scope.ts';
import { vendorFailure, type VendorCall } from './ghana-sms-http.ts';

/**
 * One HTTP/2 connection to a vendor (APNs wants a long-lived connection, not one per notification),
 * opened on first use and opened again once the vendor closes it (GOAWAY, idle close, network error).
 * Every request has a timeout covering the connection and the whole exchange. Never throws; failures
 * carry only system error codes, never URLs, headers or bodies (which hold the bearer token).
 * `http://` origins speak cleartext HTTP/2 (h2c, for local fakes); `https://` negotiate h2 over TLS.
 * An own vendor account's session connects through the egress policy (tenant-egress-scope.ts).
 */
export class Http2VendorSession {
  readonly #origin: string;
  readonly #label: string;
  #session: http2.ClientHttp2Session | null = null;

  constructor(origin: string, label: string) {
    this.#origin = origin;
    this.#label = label;
  }

  /** POSTs `body` with `headers` (pseudo-headers included) and reads the whole answer. */
  request(headers: http2.OutgoingHttpHeaders, body: string, timeoutMs: number): Promise<VendorCall> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<VendorCall>((resolve) => {
      let done = false;
      let timer: NodeJS.Timeout | undefined;
      let stream: http2.ClientHttp2Stream | undefined;
      const finish = (call: VendorCall) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(call);
      };
      const failed = (code: string) => finish({ ok: false, latencyMs: elapsed(), failure: code === 'EGRESS_REFUSED'
        ? vendorFailure(false, 'ENDPOINT_REFUSED', `${this.#label}: endpoint refused by the egress policy (non-public address)`)
        : vendorFailure(true, 'VENDOR_UNAVAILABLE', `${this.#label}: network error (${code})`) });
      timer = setTimeout(() => {
        stream?.close(http2.constants.NGHTTP2_CANCEL);
        finish({ ok: false, failure: vendorFailure(true, 'TIMEOUT', `${this.#label}: no answer within ${timeoutMs} ms`), latencyMs: elapsed() });
      }, timeoutMs);
      const egress = tenantEgress();
      let lookup: LookupFunction | undefined;
      try {
        lookup = egress ? egress.policy.connectLookup(this.#origin, egress.vendor) : undefined;
      } catch (refusal) {
        finish({ ok: false, latencyMs: elapsed(), failure: vendorFailure(false, 'ENDPOINT_REFUSED', `${this.#label}: endpoint refused by the egress policy (${(refusal as Error).message})`) });
        return;
      }
      try {
        stream = this.#current(lookup).request(headers);
      } catch (error) {
        this.#drop(this.#session);
        failed(errorCode(error));
        return;
      }
      let status = 0;
      const answerHeaders = new Headers();
      const chunks: Buffer[] = [];
      stream.on('response', (received) => {
        status = Number(received[':status']);
        for (const [name, value] of Object.entries(received)) {
          if (!name.startsWith(':') && value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : String(value));
        }
      });
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (status === 0) return failed('no response headers');
        finish({ ok: true, answer: { status, headers: answerHeaders, json: parseJson(Buffer.concat(chunks).toString('utf8')), latencyMs: elapsed() } });
      });
      stream.on('error', (error) => failed(errorCode(error)));
      stream.on('close', () => failed('stream closed'));
      stream.end(body);
    });
  }

  /** Closes the connection (provider reloads, tests). */
  close(): Promise<void> {
    const session = this.#session;
    this.#session = null;
    if (!session || session.closed || session.destroyed) return Promise.resolve();
    return new Promise((resolve) => session.close(() => resolve()));
  }

  #current(lookup: LookupFunction | undefined): http2.ClientHttp2Session {
    const existing = this.#session;
    if (existing && !existing.closed && !existing.destroyed) return existing;
    const session = lookup ? http2.connect(this.#origin, { lookup }) : http2.connect(this.#origin);
    // Errors also reach the streams in flight; the session is only dropped so the next request reconnects.
    session.on('error', () => this.#drop(session));
    session.on('goaway', () => this.#drop(session));
    session.on('close', () => this.#drop(session));
    // An idle connection must not keep a process (or a test run) alive; requests in flight hold their own timer.
    session.unref();
    this.#session = session;
    return session;
  }

  #drop(session: http2.ClientHttp2Session | null): void {
    if (session && this.#session === session) this.#session = null;
  }
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try { return JSON.parse(text) as unknown; } catch { return null; }
}

/** Only the system or HTTP/2 error code (ECONNREFUSED, ERR_HTTP2_STREAM_ERROR ...), never the error text. */
function errorCode(error: unknown): string {
  // A stream cancelled because the egress policy refused the session's address carries that refusal as its cause.
  if ((error as { cause?: { code?: unknown } } | null)?.cause?.code === 'EGRESS_REFUSED') return 'EGRESS_REFUSED';
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : 'request failed';
}
