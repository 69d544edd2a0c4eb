import type { OptOutLink, OptOutLinkRepository } from '../../core/ports/opt-out-links.ts';
import { copy, type MemoryState } from './memory-state.ts';

export class InMemoryOptOutLinkRepository implements OptOutLinkRepository {
  readonly #state: MemoryState;
  constructor(state: MemoryState) { this.#state = state; }

  async insertMany(links: readonly OptOutLink[]): Promise<void> {
    for (const link of links) if (!this.#state.optOutLinks.has(link.token)) this.#state.optOutLinks.set(link.token, copy(link));
  }

  async findByToken(token: string): Promise<OptOutLink | null> {
    const link = this.#state.optOutLinks.get(token);
    return link ? copy(link) : null;
  }
}
