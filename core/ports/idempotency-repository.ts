export type IdempotencyClaim =
  | { claimed: true }
  | { claimed: false; requestHash: string; messageIds: string[] };

/** One key to claim: the client's idempotency key and the hash of the request it came with. */
export interface IdempotencyKeyClaim {
  key: string;
  requestHash: string;
}

/**
 * Idempotency keys per organization, kept 24 hours. Used inside the send transaction: `claim` inserts
 * the key or, when another request holds it, waits for that transaction to finish and returns what it
 * recorded. A key older than its expiry is claimed afresh.
 */
export interface IdempotencyRepository {
  claim(organizationId: string, key: string, requestHash: string, now: Date, expiresAt: Date): Promise<IdempotencyClaim>;
  /**
   * `claim` for several keys of one organization at once (a group commit of concurrent requests): one
   * answer per claim, in the order given. Keys must be distinct within a call (RangeError otherwise).
   * Adapters take the keys in sorted order, so two transactions claiming overlapping sets never deadlock.
   */
  claimMany(organizationId: string, claims: readonly IdempotencyKeyClaim[], now: Date, expiresAt: Date): Promise<IdempotencyClaim[]>;
  complete(organizationId: string, key: string, messageIds: readonly string[]): Promise<void>;
  /** `complete` for several keys of one organization at once. */
  completeMany(organizationId: string, completions: ReadonlyArray<{ key: string; messageIds: readonly string[] }>): Promise<void>;
  purgeExpired(now: Date): Promise<number>;
}

/** Throws RangeError when a key appears twice (claimMany's precondition). */
export function assertDistinctKeys(claims: readonly IdempotencyKeyClaim[]): void {
  if (new Set(claims.map((c) => c.key)).size !== claims.length) throw new RangeError('claimMany: idempotency keys must be distinct');
}
