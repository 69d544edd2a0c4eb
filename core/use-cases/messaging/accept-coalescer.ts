import { isAppError } from '../../errors.ts';
import type { Message } from '../../domain/message.ts';
import type { IdGenerator } from '../../ports/id-generator.ts';
import { acceptMessages, type AcceptDeps } from './accept-messages.ts';
import type { PreparedMessage } from './message-preparation.ts';
import type { SendContext } from './send-context.ts';

/** Most messages one coalesced transaction carries (the bulk request's limit). */
export const MAX_COALESCED = 100;

interface Waiting {
  prepared: PreparedMessage;
  resolve: (message: Message) => void;
  reject: (error: unknown) => void;
}

interface Lane {
  ctx: SendContext;
  waiting: Waiting[];
  flushing: boolean;
}

/**
 * Group commit for queued single sends. Requests from the same sender (organization, API key or user,
 * sandbox flag) that arrive while an earlier transaction of theirs is committing are accepted together
 * in the next one: one claim of the wallet row, one screening pass, one multi-row insert and one job
 * insert for all of them. Nothing waits on a timer: an idle sender's request is accepted at once, alone.
 *
 * Outcomes per request are the same as if each was accepted alone: screening counts the batch in
 * order (velocity and new-tenant caps), and when the batch as a whole fails (not enough balance for
 * all of it, or anything else) each request is retried alone, so each gets its own result or error.
 * A coalesced debit is one ledger entry for the batch (as a bulk request's is).
 */
export class AcceptCoalescer {
  readonly #deps: AcceptDeps & { ids: IdGenerator };
  readonly #lanes = new Map<string, Lane>();
  constructor(deps: AcceptDeps & { ids: IdGenerator }) { this.#deps = deps; }

  accept(ctx: SendContext, prepared: PreparedMessage): Promise<Message> {
    const key = `${ctx.organizationId}\u0000${ctx.apiKeyId ?? ''}\u0000${ctx.userId ?? ''}\u0000${ctx.isSandbox}`;
    let lane = this.#lanes.get(key);
    if (!lane) { lane = { ctx, waiting: [], flushing: false }; this.#lanes.set(key, lane); }
    const promise = new Promise<Message>((resolve, reject) => { lane.waiting.push({ prepared, resolve, reject }); });
    if (!lane.flushing) void this.#drain(key, lane);
    return promise;
  }

  async #drain(key: string, lane: Lane): Promise<void> {
    lane.flushing = true;
    try {
      while (lane.waiting.length > 0) await this.#flush(lane.ctx, lane.waiting.splice(0, MAX_COALESCED));
    } finally {
      lane.flushing = false;
      if (lane.waiting.length === 0) this.#lanes.delete(key);
      else void this.#drain(key, lane);
    }
  }

  async #flush(ctx: SendContext, batch: Waiting[]): Promise<void> {
    try {
      const accepted = await acceptMessages(this.#deps, ctx, batch.map((w) => w.prepared), { async: true, idempotency: null, batchId: this.#deps.ids.next() });
      batch.forEach((w, i) => w.resolve(accepted.messages[i]!));
      return;
    } catch (error) {
      if (batch.length === 1 || (isAppError(error) && error.code === 'VALIDATION_ERROR')) { batch.forEach((w) => w.reject(error)); return; }
    }
    // The batch failed as a whole (e.g. the balance covers only some of it): each request alone, in arrival order.
    for (const w of batch) {
      try {
        const accepted = await acceptMessages(this.#deps, ctx, [w.prepared], { async: true, idempotency: null, batchId: this.#deps.ids.next() });
        w.resolve(accepted.messages[0]!);
      } catch (error) {
        w.reject(error);
      }
    }
  }
}
