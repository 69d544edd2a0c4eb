import type { InboxChange } from '../domain/inbox.ts';

/**
 * Changes of every subscriber's feed as they commit, in this process, whichever process made them
 * (PostgreSQL LISTEN/NOTIFY: one listening connection per process, not per subscriber). Delivery is
 * at most once: a stream that missed changes (a reconnect) resumes from the repository (Last-Event-ID).
 */
export interface InboxFeed {
  /** Calls `listener` for every change until the returned function is called. */
  subscribe(listener: (change: InboxChange) => void): () => void;
  /** Starts listening (idempotent). */
  start(): Promise<void>;
  close(): Promise<void>;
}
