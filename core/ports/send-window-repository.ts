import type { SendWindow } from '../domain/send-window.ts';

/** Send windows per country and category (docs/consent.md): a small platform-wide table. */
export interface SendWindowRepository {
  /** Every window, at most 1,000, by country then category. */
  list(): Promise<SendWindow[]>;
  /** Replaces every window with `windows` (the admin API's PUT). */
  replaceAll(windows: readonly SendWindow[], now: Date): Promise<void>;
}

/** The windows the send path reads (a cached view of the repository in production). */
export interface SendWindowSource {
  /**
   * The windows; when stale, read through `via` (the caller's transaction: on the embedded PGlite, one
   * connection, a read outside it would wait for it forever).
   */
  windows(via: SendWindowRepository): Promise<readonly SendWindow[]>;
  /** Forgets cached windows after this process changed them. */
  invalidate?(): void;
}
