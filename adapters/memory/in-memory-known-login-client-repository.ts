import { KNOWN_LOGIN_CLIENTS_PER_USER, type KnownLoginClientRepository } from '../../core/ports/known-login-client-repository.ts';
import type { MemoryState } from './memory-state.ts';

export class InMemoryKnownLoginClientRepository implements KnownLoginClientRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async remember(userId: string, clientHashes: readonly string[], at: Date): Promise<void> {
    const clients = this.#state.knownLoginClients.get(userId) ?? new Map<string, Date>();
    for (const hash of clientHashes) {
      const seen = clients.get(hash);
      if (!seen || seen.getTime() < at.getTime()) clients.set(hash, at);
    }
    const kept = [...clients].sort(([ha, a], [hb, b]) => b.getTime() - a.getTime() || (ha < hb ? -1 : 1)).slice(0, KNOWN_LOGIN_CLIENTS_PER_USER);
    this.#state.knownLoginClients.set(userId, new Map(kept));
  }

  async findKnown(userId: string, clientHashes: readonly string[], since: Date): Promise<string[]> {
    const clients = this.#state.knownLoginClients.get(userId);
    return clientHashes.filter((hash) => (clients?.get(hash)?.getTime() ?? -Infinity) >= since.getTime());
  }

  async forgetUser(userId: string): Promise<void> {
    this.#state.knownLoginClients.delete(userId);
  }
}
