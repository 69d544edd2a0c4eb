import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';

export interface EgressRequest {
  method: string;
  headers: Record<string, string>;
  /** Text, or bytes (an encrypted Web Push payload). */
  body?: string | Buffer;
  /** Bounds the whole exchange (connection, request, answer). */
  timeoutMs: number;
  /** At most this much of the answer is read; default 1 MiB. */
  maxBodyBytes?: number;
  /** Reuse connections (vendor calls); false opens one per request (webhook attempts). */
  keepAlive?: boolean;
}

/**
 * Kept-alive connections for vendor calls. A pooled socket was opened through the pinned `lookup` of the
 * request that created it, so it is connected to a checked address; a new socket always uses the
 * current request's. Idle sockets do not hold the process open.
 */
const AGENTS = { http: new http.Agent({ keepAlive: true, timeout: 30_000 }), https: new https.Agent({ keepAlive: true, timeout: 30_000 }) };

export interface EgressResponse {
  status: number;
  headers: Headers;
  /** The answer's first maxBodyBytes. */
  body: Buffer;
}

type Outcome = { kind: 'answer'; response: EgressResponse } | { kind: 'timeout' } | { kind: 'network'; code: string };

/**
 * One request over node:http(s) to an address already checked by the policy: the `lookup` returns that
 * address (no second DNS answer; a trusted host is not pinned), TLS still verifies the certificate for the host name, redirects are
 * not followed (a 3xx is the answer), the body is capped and the whole exchange bounded. Never throws.
 */
export function requestPinned(target: { url: URL; host: string; address: string; family: 4 | 6; trusted: boolean }, request: EgressRequest): Promise<Outcome> {
  const cap = request.maxBodyBytes ?? 1024 * 1024;
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const secure = target.url.protocol === 'https:';
  const headers: Record<string, string> = { 'user-agent': 'Nkra/1.0', ...request.headers, ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}) };
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Outcome) => { if (!settled) { settled = true; clearTimeout(timer); resolve(outcome); } };
    const req = (secure ? https : http).request(target.url, {
      // A trusted host (the operator's) resolves as usual, with node's IPv4/IPv6 fallback (localhost answering ::1 first).
      method: request.method, headers, ...(target.trusted ? {} : { lookup }), agent: request.keepAlive ? (secure ? AGENTS.https : AGENTS.http) : false, ...(secure && isIP(target.host) === 0 ? { servername: target.host } : {}),
    }, (res) => {
      const chunks: Buffer[] = [];
      let read = 0;
      const answer = () => finish({ kind: 'answer', response: { status: res.statusCode ?? 0, headers: toHeaders(res.headers), body: Buffer.concat(chunks).subarray(0, cap) } });
      res.on('data', (chunk: Buffer) => {
        if (read < cap) chunks.push(chunk);
        read += chunk.length;
        if (read >= cap) { answer(); res.destroy(); }
      });
      res.on('end', answer);
      res.on('error', answer);
    });
    const timer = setTimeout(() => { finish({ kind: 'timeout' }); req.destroy(); }, request.timeoutMs);
    req.on('error', (error) => finish({ kind: 'network', code: systemCode(error) }));
    req.end(request.body);
  });
}

function toHeaders(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return headers;
}

/** Only the system error code (ECONNREFUSED ...), never the error text. */
function systemCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : 'request failed';
}
