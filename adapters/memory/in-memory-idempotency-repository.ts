import { assertDistinctKeys, type IdempotencyClaim, type IdempotencyKeyClaim, type IdempotencyRepository } from '../../core/ports/idempotency-repository.ts';
import type { MemoryState } from './memory-state.ts';

/** Transactions of InMemoryStorage run one at a time, so claim-then-complete cannot interleave. */
export class InMemoryIdempotencyRepository implements IdempotencyRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async claim(organizationId: string, key: string, requestHash: string, now: Date, expiresAt: Date): Promise<IdempotencyClaim> {
    const id = `${organizationId}\u0000${key}`;
    const existing = this.#state.idempotency.get(id);
    if (existing && existing.expiresAt.getTime() > now.getTime()) {
      return { claimed: false, requestHash: existing.requestHash, messageIds: [...existing.messageIds] };
    }
    this.#state.idempotency.set(id, { requestHash, messageIds: [], expiresAt });
    return { claimed: true };
  }

  async claimMany(claims: readonly IdempotencyKeyClaim[], now: Date, expiresAt: Date): Promise<IdempotencyClaim[]> {
    assertDistinctKeys(claims);
    const answers: IdempotencyClaim[] = [];
    for (const c of claims) {
      const answer = await this.claim(c.organizationId, c.key, c.requestHash, now, expiresAt);
      if (answer.claimed) await this.complete(c.organizationId, c.key, c.messageIds);
      answers.push(answer);
    }
    return answers;
  }

  async release(keys: ReadonlyArray<{ organizationId: string; key: string }>): Promise<void> {
    for (const k of keys) this.#state.idempotency.delete(`${k.organizationId}\u0000${k.key}`);
  }

  async complete(organizationId: string, key: string, messageIds: readonly string[]): Promise<void> {
    const entry = this.#state.idempotency.get(`${organizationId}\u0000${key}`);
    if (entry) entry.messageIds = [...messageIds];
  }

  async purgeExpired(now: Date): Promise<number> {
    let n = 0;
    for (const [id, e] of this.#state.idempotency) if (e.expiresAt.getTime() <= now.getTime()) { this.#state.idempotency.delete(id); n += 1; }
    return n;
  }
}
