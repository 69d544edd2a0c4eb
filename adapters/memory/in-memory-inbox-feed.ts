import type { InboxChange } from '../../core/domain/inbox.ts';
import type { InboxFeed } from '../../core/ports/inbox-feed.ts';

/** The in-process feed of the memory adapters (and of PGlite, which has a single process): listeners called synchronously. */
export class InMemoryInboxFeed implements InboxFeed {
  readonly #listeners = new Set<(change: InboxChange) => void>();

  publish(change: InboxChange): void {
    for (const listener of this.#listeners) {
      try { listener(change); } catch { /* one listener's failure never stops the others */ }
    }
  }

  subscribe(listener: (change: InboxChange) => void): () => void {
    this.#listeners.add(listener);
    return () => { this.#listeners.delete(listener); };
  }

  async start(): Promise<void> {}
  async close(): Promise<void> { this.#listeners.clear(); }
}
