import http from 'node:http';
import type { LoadResult } from './load-generator.ts';

/**
 * The load generator of bench:send, forked by send-bench.ts so it does not share an event loop with
 * the server it measures. Like load-generator.ts (bench:http) it keeps `connections` keep-alive
 * connections busy in a closed loop, but it POSTs send requests: every message goes to a new
 * recipient (+23324 followed by 7 digits, counting up from `recipientBase`), so no recipient is
 * screened twice. `get` sends the bare GET of the hello-world reference instead.
 */
export type SendLoadKind = 'get' | 'single' | 'bulk' | 'verify-start' | 'verify-check';

export interface SendLoadOptions {
  url: string;
  /** Request headers (the credentials); with `targets`, connection i uses targets[i % targets.length] instead. */
  headers: Record<string, string>;
  /** Several senders at once (tenants, keys): the connections are spread over them round-robin. */
  targets?: Array<Record<string, string>>;
  /** Every write carries a new `idempotencyKey`, as the client libraries send it. */
  idempotency?: boolean;
  /** The single sends' `category` (docs/consent.md); absent: none (TRANSACTIONAL). */
  category?: string | undefined;
  kind: SendLoadKind;
  /** The `async` flag of the send request. */
  async: boolean;
  /** Messages per bulk request. */
  bulkSize: number;
  /** The first recipient number (0 .. 9,999,999) of this run. */
  recipientBase: number;
  /** The status code every answer must have; a body check (sync sends) is optional. */
  expectStatus: number;
  expectBodyIncludes: string | null;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** verify-check: the verifications to check, round-robin (a wrong 10-digit code, so each check is counted and compared). */
  checkIds?: string[];
  /** Keep the `id` of every expected answer (verify-start), at most 50,000. */
  collectIds?: boolean;
}

export interface SendLoadResult extends LoadResult {
  /** Requests answered as expected over the whole run, warm-up included (for the server-side count check). */
  acceptedTotal: number;
  /** The first unexpected answer, to show what went wrong. */
  firstUnexpected: string | null;
  /** With `collectIds`: the ids answered. */
  ids: string[];
}

export type SendLoadMessage = { type: 'measuring' } | { type: 'result'; result: SendLoadResult };

const BODY = 'Your Nkra code is 482913. It expires in 10 minutes; do not share it.';

export function benchRecipient(n: number): string {
  return `+23324${String(n % 10_000_000).padStart(7, '0')}`;
}

async function run(options: SendLoadOptions, onMeasuring: () => void): Promise<SendLoadResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections, maxFreeSockets: options.connections });
  let next = options.recipientBase;
  const runId = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  let keys = 0;
  const key = () => (options.idempotency ? { idempotencyKey: `bench-${runId}-${keys++}` } : {});
  const body = (): string | null => {
    if (options.kind === 'get') return null;
    if (options.kind === 'verify-start') return JSON.stringify({ to: benchRecipient(next++), ...key() });
    if (options.kind === 'verify-check') { const ids = options.checkIds ?? []; return JSON.stringify({ id: ids[next++ % Math.max(1, ids.length)], code: '0000000000' }); }
    if (options.kind === 'single') {
      return JSON.stringify({ channel: 'SMS', to: benchRecipient(next++), body: BODY, async: options.async, ...(options.category ? { category: options.category } : {}), ...key() });
    }
    const messages = Array.from({ length: options.bulkSize }, () => ({ channel: 'SMS', to: benchRecipient(next++), body: BODY }));
    return JSON.stringify({ async: options.async, messages, ...key() });
  };
  const request = (credentials: Record<string, string>) => new Promise<{ status: number; text: string }>((resolve, reject) => {
    const payload = body();
    const headers = payload === null ? credentials : { ...credentials, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
    const req = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname, method: payload === null ? 'GET' : 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload ?? undefined);
  });
  const expected = (r: { status: number; text: string }) =>
    r.status === options.expectStatus && (options.expectBodyIncludes === null || r.text.includes(options.expectBodyIncludes));

  const latencies: number[] = [];
  let unexpected = 0;
  let errors = 0;
  let acceptedTotal = 0;
  let firstUnexpected: string | null = null;
  const collected: string[] = [];
  let measuring = false;
  const measureFrom = performance.now() + options.warmupSeconds * 1000;
  const stopAt = measureFrom + options.durationSeconds * 1000;
  let cpuAtStart = process.cpuUsage();

  const worker = async (connection: number) => {
    const credentials = options.targets?.length ? options.targets[connection % options.targets.length]! : options.headers;
    for (;;) {
      const started = performance.now();
      if (started >= stopAt) return;
      if (!measuring && started >= measureFrom) {
        measuring = true;
        cpuAtStart = process.cpuUsage();
        onMeasuring();
      }
      const counted = measuring;
      try {
        const answer = await request(credentials);
        const ok = expected(answer);
        if (ok) acceptedTotal += 1;
        if (ok && options.collectIds && collected.length < 50_000) collected.push((JSON.parse(answer.text) as { data: { id: string } }).data.id);
        else firstUnexpected ??= `${answer.status} ${answer.text.slice(0, 300)}`;
        if (!counted) continue;
        latencies.push(performance.now() - started);
        if (!ok) unexpected += 1;
      } catch (error) {
        firstUnexpected ??= String(error);
        if (counted) errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, (_, i) => worker(i)));
  const cpu = process.cpuUsage(cpuAtStart);
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const at = (q: number) => round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
  return {
    requests: latencies.length, non2xx: unexpected, errors, seconds: options.durationSeconds,
    requestsPerSecond: Math.round(latencies.length / options.durationSeconds),
    latencyMs: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: round(latencies.at(-1) ?? NaN) },
    clientCpu: round((cpu.user + cpu.system) / 1e6 / options.durationSeconds),
    acceptedTotal, firstUnexpected, ids: collected,
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

if (process.send) {
  process.once('message', (options: SendLoadOptions) => {
    run(options, () => process.send!({ type: 'measuring' } satisfies SendLoadMessage))
      // Disconnect only once the figures are written: a large result (collected ids) could be cut off otherwise.
      .then((result) => process.send!({ type: 'result', result } satisfies SendLoadMessage, undefined, {}, () => process.disconnect()))
      .catch((error: unknown) => { console.error(error); process.exit(1); });
  });
}
