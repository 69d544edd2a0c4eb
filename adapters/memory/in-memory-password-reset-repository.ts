import type { PasswordReset, PasswordResetRepository } from '../../core/ports/password-reset-repository.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryPasswordResetRepository implements PasswordResetRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insert(reset: PasswordReset): Promise<void> {
    this.#state.passwordResets.set(reset.id, copy(reset));
  }

  async consume(tokenHash: string, now: Date): Promise<string | null> {
    const reset = [...this.#state.passwordResets.values()].find((r) => r.tokenHash === tokenHash);
    if (!reset || reset.usedAt || reset.expiresAt.getTime() <= now.getTime()) return null;
    reset.usedAt = now;
    return reset.userId;
  }

  async invalidateForUser(userId: string, now: Date): Promise<void> {
    for (const r of this.#state.passwordResets.values()) if (r.userId === userId && !r.usedAt) r.usedAt = now;
  }
}
