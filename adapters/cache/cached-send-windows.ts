import type { SendWindow } from '../../core/domain/send-window.ts';
import type { SendWindowRepository, SendWindowSource } from '../../core/ports/send-window-repository.ts';

/**
 * Send windows read at most every `ttlMs` per process (the send path asks on every batch), through the
 * repository the caller passes (its transaction's). An administrator's change applies everywhere within
 * the TTL (docs/consent.md); this process's own change at once (`invalidate`).
 */
export class CachedSendWindows implements SendWindowSource {
  readonly #ttlMs: number;
  #cached: { windows: readonly SendWindow[]; until: number } | null = null;

  constructor(ttlMs = 10_000) { this.#ttlMs = ttlMs; }

  async windows(via: SendWindowRepository): Promise<readonly SendWindow[]> {
    if (this.#cached && this.#cached.until > Date.now()) return this.#cached.windows;
    const windows = await via.list();
    this.#cached = { windows, until: Date.now() + this.#ttlMs };
    return windows;
  }

  /** Forgets the cached windows (after this process changed them). */
  invalidate(): void { this.#cached = null; }
}
