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

  async claimMany(organizationId: string, claims: readonly IdempotencyKeyClaim[], now: Date, expiresAt: Date): Promise<IdempotencyClaim[]> {
    assertDistinctKeys(claims);
    const answers: IdempotencyClaim[] = [];
    for (const c of claims) answers.push(await this.claim(organizationId, c.key, c.requestHash, now, expiresAt));
    return answers;
  }

  async completeMany(organizationId: string, completions: ReadonlyArray<{ key: string; messageIds: readonly string[] }>): Promise<void> {
    for (const c of completions) await this.complete(organizationId, c.key, c.messageIds);
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
