export type IdempotencyClaim =
  | { claimed: true }
  | { claimed: false; requestHash: string; messageIds: string[] };

/** One key to claim: the organization, the client's key, the hash of its request, and the ids its answer will have. */
export interface IdempotencyKeyClaim {
  organizationId: string;
  key: string;
  requestHash: string;
  /** Recorded with the claim (the answer's message ids are known before they are written). */
  messageIds: readonly string[];
}

/**
 * Idempotency keys per organization, kept 24 hours. Used inside the send transaction: `claim` inserts
 * the key or, when another request holds it, waits for that transaction to finish and returns what it
 * recorded. A key older than its expiry is claimed afresh.
 */
export interface IdempotencyRepository {
  claim(organizationId: string, key: string, requestHash: string, now: Date, expiresAt: Date): Promise<IdempotencyClaim>;
  /**
   * `claim` for several keys at once (the group commit of concurrent requests, possibly of several
   * organizations): one answer per claim, in the order given; a won claim records its message ids at
   * once. Keys must be distinct per organization within a call (RangeError otherwise). Adapters take
   * the keys in sorted order, so two transactions claiming overlapping sets cannot deadlock.
   */
  claimMany(claims: readonly IdempotencyKeyClaim[], now: Date, expiresAt: Date): Promise<IdempotencyClaim[]>;
  complete(organizationId: string, key: string, messageIds: readonly string[]): Promise<void>;
  /** Deletes keys this transaction claimed and will not answer after all (their requests are retried alone). */
  release(keys: ReadonlyArray<{ organizationId: string; key: string }>): Promise<void>;
  purgeExpired(now: Date): Promise<number>;
}

/** Throws RangeError when a key appears twice for one organization (claimMany's precondition). */
export function assertDistinctKeys(claims: ReadonlyArray<{ organizationId: string; key: string }>): void {
  if (new Set(claims.map((c) => `${c.organizationId}\u0000${c.key}`)).size !== claims.length) {
    throw new RangeError('claimMany: idempotency keys must be distinct per organization');
  }
}
