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

interface Lane {
  waiting: Waiting[];
  flushing: boolean;
}

/**
 * Group commit of send requests (docs/adr/0021-group-commit-for-every-send.md). Requests of the same
 * organization and sandbox flag (any API key, any dashboard user; live or sandbox; sync or async;
 * with or without an idempotency key) that arrive while an earlier transaction of theirs is committing
 * are accepted together in the next one: one claim of their idempotency keys, one lock of the wallet
 * row, one screening pass, one debit, one multi-row insert, one job insert. Nothing waits on a timer:
 * an idle organization's request is accepted at once, alone.
 *
 * Outcomes per request are the same as if each was accepted alone: screening counts the batch in
 * order (velocity and new-tenant caps); a reused or replayed idempotency key answers its own request
 * only; two requests with the same key never share a batch (the second waits for the next, and then
 * replays the first's answer); and when the batch as a whole fails (not enough balance for all of it,
 * or anything else) each request is retried alone, so each gets its own result or error. A coalesced
 * debit is one ledger entry for the batch (as a bulk request's is). Across processes the database
 * arbitrates: the wallet row lock and the idempotency keys' unique index.
 */
export class AcceptCoalescer {
  readonly #deps: AcceptDeps & { ids: IdGenerator };
  readonly #lanes = new Map<string, Lane>();
  constructor(deps: AcceptDeps & { ids: IdGenerator }) { this.#deps = deps; }

  accept(request: AcceptRequest): Promise<Accepted> {
    const key = laneOf(request);
    let lane = this.#lanes.get(key);
    if (!lane) { lane = { waiting: [], flushing: false }; this.#lanes.set(key, lane); }
    const promise = new Promise<Accepted>((resolve, reject) => { lane.waiting.push({ request, resolve, reject }); });
    if (!lane.flushing) void this.#drain(key, lane);
    return promise;
  }

  async #drain(key: string, lane: Lane): Promise<void> {
    lane.flushing = true;
    try {
      while (lane.waiting.length > 0) await this.#flush(takeBatch(lane.waiting));
    } finally {
      lane.flushing = false;
      if (lane.waiting.length === 0) this.#lanes.delete(key);
      else void this.#drain(key, lane);
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
    // The batch failed as a whole (e.g. the balance covers only some of it): each request alone, in arrival order.
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

/** Lanes run their transactions concurrently; organizations are spread over them (one organization, one lane). */
export const ACCEPT_LANES = 1;

function laneOf(request: AcceptRequest): string {
  if (ACCEPT_LANES <= 1) return 'all';
  let hash = 0;
  for (const c of request.ctx.organizationId) hash = (hash * 31 + c.charCodeAt(0)) | 0;
  return String(Math.abs(hash) % ACCEPT_LANES);
}
