/** One open inbox stream's slot: which subscriber holds it, and which process (`holder`) keeps it alive. */
export interface InboxStreamLease {
  id: string;
  organizationId: string;
  subscriberId: string;
  holder: string;
}

/**
 * The slots of open inbox streams (SSE) per subscriber, shared by every API process (docs/inbox.md,
 * "Streams per subscriber"): a stream holds a lease while it is open, its process renews the leases
 * of its open streams, and the leases of a process that died lapse when they expire. Tenant-scoped by
 * (organization, subscriber).
 */
export interface InboxStreamLeases {
  /**
   * Takes a slot for a new stream unless the subscriber holds `limit` leases live at `now` already
   * (expired ones do not count, and are removed): false then, nothing written. Counted one request at
   * a time per subscriber, so concurrent opens in any number of processes never pass the limit.
   */
  acquire(lease: InboxStreamLease, limit: number, now: Date, expiresAt: Date): Promise<boolean>;
  /** Extends the given leases (a process's open streams) to `expiresAt`, and removes every lease expired at `now`. */
  renew(ids: readonly string[], now: Date, expiresAt: Date): Promise<void>;
  /** Frees leases (their streams closed); unknown ids are ignored. */
  release(ids: readonly string[]): Promise<void>;
}
