import { NkraError } from './errors.js';
import { newIdempotencyKey } from './random.js';
import type {
  CheckVerificationInput, DeliveryLog, EventTrigger, FanOut, FanOutTriggerInput, MessageDetail, NumberNetwork, SendBulkInput, SendMessageInput, StartVerificationInput, TriggerEventInput, Verification, VerificationCheck, WorkflowRun, FailedWorkflowRunPage,
} from './types.js';

/** The API version this client was written for (paths carry no version prefix). */
export const API_VERSION = '1.0.0';
export const BULK_MAX = 100;

export interface NkraClientOptions {
  /** An API key (`nk_test_...` sandbox or `nk_live_...`), sent as X-API-Key. */
  apiKey: string;
  /** Default http://localhost:3000. */
  baseUrl?: string;
  /** Per-request timeout, each attempt (default 30 s: synchronous sends wait for the provider). */
  timeoutMs?: number;
  /** Retries after the first attempt for network errors, timeouts, 429 and 5xx (default 3; 0 disables). */
  maxRetries?: number;
  /** First backoff step; attempt n waits a random time up to min(maxDelayMs, baseDelayMs * 2^n) (default 300 ms). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown (default 60 s). */
  maxRetryAfterMs?: number;
  /** A fetch implementation (default the global fetch). */
  fetch?: typeof fetch;
}

/** Per call: a timeout or retry count for this request only, and an AbortSignal (an abort is never retried). */
export interface RequestOptions {
  timeoutMs?: number;
  maxRetries?: number;
  signal?: AbortSignal;
}

interface Envelope<T> { success: boolean; data?: T; error?: { code?: string; message?: string; details?: Record<string, unknown> } }

/**
 * Client of the Nkra API. Writes (send, bulk, trigger) always carry an idempotencyKey (the caller's,
 * or one generated per call), so a retry after a lost answer is answered from the first attempt
 * instead of sending again.
 */
export class NkraClient {
  readonly baseUrl: string;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #fetch: typeof fetch;

  constructor(options: NkraClientOptions) {
    if (!options?.apiKey) throw new NkraError('VALIDATION_ERROR', 'apiKey is required', { details: { fieldErrors: { apiKey: ['is required'] }, formErrors: [] } });
    this.#apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? 'http://localhost:3000').replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#maxRetries = options.maxRetries ?? 3;
    this.#baseDelayMs = options.baseDelayMs ?? 300;
    this.#maxDelayMs = options.maxDelayMs ?? 10_000;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    const f = options.fetch ?? (globalThis as { fetch?: typeof fetch }).fetch;
    if (!f) throw new Error('No fetch available: pass options.fetch (Node 18+, browsers and edge runtimes have one)');
    this.#fetch = f.bind(globalThis);
  }

  /** POST /messages/send. Resolves with the delivery log, also when the send was REJECTED by fraud rules. */
  async send(input: SendMessageInput, options: RequestOptions = {}): Promise<DeliveryLog> {
    const body = { ...input, idempotencyKey: input.idempotencyKey ?? await newIdempotencyKey() };
    return this.#request<DeliveryLog>('POST', '/messages/send', body, options);
  }

  /** POST /messages/bulk: 1-100 messages, one delivery log each (in order). */
  async sendBulk(input: SendBulkInput, options: RequestOptions = {}): Promise<DeliveryLog[]> {
    const count = Array.isArray(input?.messages) ? input.messages.length : -1;
    if (count < 1 || count > BULK_MAX) {
      const reason = count < 0 ? 'must be an array' : count === 0 ? 'must contain at least 1 message' : `must contain at most ${BULK_MAX} messages (got ${count})`;
      throw new NkraError('VALIDATION_ERROR', `messages: ${reason}`, { details: { fieldErrors: { messages: [reason] }, formErrors: [] } });
    }
    const body = { ...input, idempotencyKey: input.idempotencyKey ?? await newIdempotencyKey() };
    return this.#request<DeliveryLog[]>('POST', '/messages/bulk', body, options);
  }

  /** POST /events/trigger: the trigger with its channel plan, steps and delivery logs (an event without a workflow). */
  async triggerEvent(input: TriggerEventInput, options: RequestOptions = {}): Promise<EventTrigger> {
    const body = { ...input, idempotencyKey: input.idempotencyKey ?? await newIdempotencyKey() };
    return this.#request<EventTrigger>('POST', '/events/trigger', body, options);
  }

  /**
   * POST /events/trigger for an event with a workflow (docs/workflows.md): the run started, its steps running in
   * the worker (follow it with getWorkflowRun), with the runs the trigger cancelled or resumed.
   */
  async triggerWorkflow(input: TriggerEventInput, options: RequestOptions = {}): Promise<WorkflowRun> {
    const body = { ...input, idempotencyKey: input.idempotencyKey ?? await newIdempotencyKey() };
    return this.#request<WorkflowRun>('POST', '/events/trigger', body, options);
  }

  /**
   * POST /events/trigger to a segment (`segmentId`) or a topic (a contact tag): one workflow run, or one event trigger,
   * per contact, streamed by the worker (docs/workflows.md, "Fan-out"). Answers the fan-out at once; follow it with getFanOut.
   */
  async triggerFanOut(input: FanOutTriggerInput, options: RequestOptions = {}): Promise<FanOut> {
    const body = { ...input, idempotencyKey: input.idempotencyKey ?? await newIdempotencyKey() };
    return this.#request<FanOut>('POST', '/events/trigger', body, options);
  }

  /** GET /fan-outs/{id}: a fan-out's status, counts and progress. */
  async getFanOut(id: string, options: RequestOptions = {}): Promise<FanOut> {
    return this.#request<FanOut>('GET', `/fan-outs/${encodeURIComponent(id)}`, undefined, options);
  }

  /** GET /workflow-runs/{id}: a workflow run with its timeline (steps, waits, outcomes, messages, cost). */
  async getWorkflowRun(id: string, options: RequestOptions = {}): Promise<WorkflowRun> {
    return this.#request<WorkflowRun>('GET', `/workflow-runs/${encodeURIComponent(id)}`, undefined, options);
  }

  /**
   * GET /workflow-runs?status=FAILED: runs that gave up, the latest failure first, with the failed step and its error.
   * `since` (default 24 hours ago), `limit` 1-100 (default 20), `cursor`: the previous page's nextCursor.
   */
  async listFailedWorkflowRuns(query: { since?: string; limit?: number; cursor?: string } = {}, options: RequestOptions = {}): Promise<FailedWorkflowRunPage> {
    const params = new URLSearchParams({ status: 'FAILED' });
    if (query.since) params.set('since', query.since);
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    if (query.cursor) params.set('cursor', query.cursor);
    return this.#request<FailedWorkflowRunPage>('GET', `/workflow-runs?${params.toString()}`, undefined, options);
  }

  /**
   * Verify (docs/verify.md): one-time passcodes. `start` always carries an idempotencyKey (a retry answers
   * the first verification); `check` answers `valid` and the status, never throwing for a wrong code.
   */
  readonly verify = {
    start: async (input: StartVerificationInput, options: RequestOptions = {}): Promise<Verification> =>
      this.#request<Verification>('POST', '/verify/start', { ...input, idempotencyKey: input.idempotencyKey ?? await newIdempotencyKey() }, options),
    check: (input: CheckVerificationInput, options: RequestOptions = {}): Promise<VerificationCheck> =>
      this.#request<VerificationCheck>('POST', '/verify/check', input, options),
    resend: (id: string, input: { channel?: StartVerificationInput['channel'] } = {}, options: RequestOptions = {}): Promise<Verification> =>
      this.#request<Verification>('POST', `/verify/${encodeURIComponent(id)}/resend`, input, { maxRetries: 0, ...options }),
    cancel: (id: string, options: RequestOptions = {}): Promise<Verification> =>
      this.#request<Verification>('POST', `/verify/${encodeURIComponent(id)}/cancel`, {}, options),
    get: (id: string, options: RequestOptions = {}): Promise<Verification> =>
      this.#request<Verification>('GET', `/verify/${encodeURIComponent(id)}`, undefined, options),
  };

  /**
   * POST /routing/lookups: the mobile network a number is on now. With `lookup` (default true) a number not
   * known from a lookup or delivery report is looked up (charged like a send); `lookup: false` answers free.
   */
  async lookupNetwork(input: { to: string; countryCode?: string; lookup?: boolean }, options: RequestOptions = {}): Promise<NumberNetwork> {
    return this.#request<NumberNetwork>('POST', '/routing/lookups', input, { maxRetries: 0, ...options });
  }

  /** GET /messages/{id}: one delivery log with its attempts and status history. */
  async getMessage(id: string, options: RequestOptions = {}): Promise<MessageDetail> {
    return this.#request<MessageDetail>('GET', `/messages/${encodeURIComponent(id)}`, undefined, options);
  }

  async #request<T>(method: string, path: string, body: unknown, options: RequestOptions): Promise<T> {
    const maxRetries = options.maxRetries ?? this.#maxRetries;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      let retryAfterMs: number | null = null;
      let failure: NkraError;
      try {
        const response = await this.#once(method, path, payload, options);
        const parsed = await readEnvelope<T>(response);
        if (response.ok && parsed?.success === true) return parsed.data as T;
        failure = apiError(response, parsed);
        if (!(response.status === 429 || response.status >= 500)) throw failure;
        retryAfterMs = failure.retryAfterMs;
        if (retryAfterMs !== null && retryAfterMs > this.#maxRetryAfterMs) throw failure;
      } catch (error) {
        if (error instanceof NkraError && (error.status !== 0 ? !(error.status === 429 || error.status >= 500) : error.code === 'ABORTED')) throw error;
        if (options.signal?.aborted) throw new NkraError('ABORTED', 'The request was aborted', { cause: error });
        failure = error instanceof NkraError ? error : networkError(error);
        if (retryAfterMs !== null && retryAfterMs > this.#maxRetryAfterMs) throw failure;
      }
      if (attempt >= maxRetries) throw failure;
      const backoff = Math.random() * Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** attempt);
      await sleep(retryAfterMs ?? backoff, options.signal);
    }
  }

  async #once(method: string, path: string, payload: string | undefined, options: RequestOptions): Promise<Response> {
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new NkraError('TIMEOUT', `No answer within ${timeoutMs} ms`)), timeoutMs);
    const onAbort = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const headers: Record<string, string> = { 'x-api-key': this.#apiKey, accept: 'application/json' };
      if (payload !== undefined) headers['content-type'] = 'application/json';
      const init: RequestInit = { method, headers, signal: controller.signal };
      if (payload !== undefined) init.body = payload;
      const response = await this.#fetch(`${this.baseUrl}${path}`, init);
      // Read the body under the same timeout (a connection dropped mid-body is a network error).
      const text = await response.text();
      return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
    } catch (error) {
      if (controller.signal.aborted && !options.signal?.aborted) throw new NkraError('TIMEOUT', `No answer within ${timeoutMs} ms`, { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}

async function readEnvelope<T>(response: Response): Promise<Envelope<T> | null> {
  try {
    return (await response.json()) as Envelope<T>;
  } catch {
    return null;
  }
}

function apiError(response: Response, envelope: Envelope<unknown> | null): NkraError {
  const error = envelope?.error;
  return new NkraError(error?.code ?? `HTTP_${response.status}`, error?.message ?? `HTTP ${response.status} ${response.statusText}`.trim(), {
    status: response.status, details: (error?.details ?? {}) as Record<string, unknown>, requestId: response.headers.get('x-request-id'),
    retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
  });
}

function networkError(error: unknown): NkraError {
  const message = error instanceof Error ? error.message : String(error);
  return new NkraError('NETWORK_ERROR', `The request failed before an answer: ${message}`, { cause: error });
}

/** Retry-After as seconds or an HTTP date, in milliseconds (null when absent or unreadable). */
export function parseRetryAfter(value: string | null): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(new NkraError('ABORTED', 'The request was aborted')); return; }
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(new NkraError('ABORTED', 'The request was aborted')); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
