import type { SessionRevocationRepository } from '../../core/ports/session-revocation-repository.ts';
import type { MemoryState } from './memory-state.ts';

export class InMemorySessionRevocationRepository implements SessionRevocationRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async revokeToken(tokenId: string, expiresAt: Date): Promise<void> {
    this.#state.revokedTokens.set(tokenId, expiresAt);
  }

  async revokeUserSessionsBefore(userId: string, before: Date): Promise<void> {
    const current = this.#state.sessionCutoffs.get(userId);
    if (!current || current.getTime() < before.getTime()) this.#state.sessionCutoffs.set(userId, before);
  }

  async isRevoked(session: { tokenId: string; userId: string; issuedAt: Date }): Promise<boolean> {
    const cutoff = this.#state.sessionCutoffs.get(session.userId);
    return this.#state.revokedTokens.has(session.tokenId) || (cutoff !== undefined && session.issuedAt.getTime() < cutoff.getTime());
  }

  async purgeExpired(now: Date): Promise<number> {
    let n = 0;
    for (const [id, expiresAt] of this.#state.revokedTokens) if (expiresAt.getTime() <= now.getTime()) { this.#state.revokedTokens.delete(id); n += 1; }
    return n;
  }
}
