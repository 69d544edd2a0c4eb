import { isAppError } from '../../errors.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { acceptRequestsIn, type AcceptDeps, type Accepted, type AcceptOutcome, type AcceptRequest } from './accept-messages.ts';

/** Most messages one coalesced transaction carries (a request bigger than this still goes alone). */
export const MAX_COALESCED = 500;

interface Waiting {
  request: AcceptRequest;
  resolve: (accepted: Accepted) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit of send requests (docs/adr/0021-group-commit-for-every-send.md). Requests of any
 * organization (any API key or dashboard user; live or sandbox; sync or async; with or without an
 * idempotency key) that arrive while the previous accepting transaction commits are accepted together
 * in the next one (acceptRequestsIn): one claim of their idempotency keys, one lock of their wallet rows,
 * one screening pass, one debit per organization, one multi-row insert, one job insert. Nothing waits
 * on a timer: a request on an idle service is accepted at once, alone.
 *
 * Outcomes per request are the same as if each was accepted alone: screening counts the batch in
 * order (velocity and new-tenant caps); a reused or replayed idempotency key answers its own request
 * only; two requests with the same key never share a batch (the second waits for the next, and then
 * replays the first's answer); an organization whose balance does not cover its part is left out and
 * its requests accepted one by one after the batch; and when the batch fails as a whole (a database
 * error) each request is retried alone. Across processes the database arbitrates: the wallet row locks
 * and the idempotency keys' unique index.
 */
export class AcceptCoalescer {
  readonly #deps: AcceptDeps & { ids: IdGenerator };
  readonly #waiting: Waiting[] = [];
  #flushing = false;
  constructor(deps: AcceptDeps & { ids: IdGenerator }) { this.#deps = deps; }

  accept(request: AcceptRequest): Promise<Accepted> {
    // The batch runs in its leader's context: each request's trace is captured here, in its own.
    const traced = this.#deps.traces ? { ...request, trace: this.#deps.traces.current() } : request;
    const promise = new Promise<Accepted>((resolve, reject) => { this.#waiting.push({ request: traced, resolve, reject }); });
    if (!this.#flushing) void this.#drain();
    return promise;
  }

  async #drain(): Promise<void> {
    this.#flushing = true;
    try {
      while (this.#waiting.length > 0) await this.#flush(takeBatch(this.#waiting));
    } finally {
      this.#flushing = false;
      if (this.#waiting.length > 0) void this.#drain();
    }
  }

  async #flush(batch: Waiting[]): Promise<void> {
    try {
      const outcomes = await this.#accept(batch);
      const alone = batch.filter((w, i) => (outcomes[i]?.retryAlone ? true : (settle(w, outcomes[i]), false)));
      for (const w of alone) await this.#acceptAlone(w);
      return;
    } catch (error) {
      if (batch.length === 1 || (isAppError(error) && error.code === 'VALIDATION_ERROR')) { batch.forEach((w) => w.reject(error)); return; }
    }
    // The batch failed as a whole (a database error): each request alone, in arrival order.
    for (const w of batch) await this.#acceptAlone(w);
  }

  async #acceptAlone(w: Waiting): Promise<void> {
    try {
      settle(w, (await this.#accept([w]))[0]);
    } catch (error) {
      w.reject(error);
    }
  }

  #accept(batch: readonly Waiting[]): Promise<AcceptOutcome[]> {
    return this.#deps.storage.transaction((tx) => acceptRequestsIn(tx, this.#deps, batch.map((w) => w.request), this.#deps.ids.next()));
  }
}

/**
 * The next batch: requests in arrival order up to MAX_COALESCED messages (at least one request), leaving
 * in the queue any whose idempotency key is already in the batch.
 */
function takeBatch(waiting: Waiting[]): Waiting[] {
  const batch: Waiting[] = [];
  const keys = new Set<string>();
  let messages = 0;
  for (let i = 0; i < waiting.length;) {
    const w = waiting[i]!;
    const size = w.request.prepared.length;
    if (batch.length > 0 && messages + size > MAX_COALESCED) break;
    const key = w.request.idempotency ? `${w.request.ctx.organizationId}\u0000${w.request.idempotency.key}` : undefined;
    if (key !== undefined && keys.has(key)) { i += 1; continue; }
    if (key !== undefined) keys.add(key);
    batch.push(w);
    messages += size;
    waiting.splice(i, 1);
  }
  return batch;
}

function settle(w: Waiting, outcome: AcceptOutcome | undefined): void {
  if (outcome?.accepted) w.resolve(outcome.accepted);
  else w.reject(outcome?.error ?? new Error('no outcome for a request accepted alone'));
}
