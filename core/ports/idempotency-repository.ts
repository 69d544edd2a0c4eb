export type IdempotencyClaim =
  | { claimed: true }
  | { claimed: false; requestHash: string; messageIds: string[] };

/**
 * Idempotency keys per organization, kept 24 hours. Used inside the send transaction: `claim` inserts
 * the key or, when another request holds it, waits for that transaction to finish and returns what it
 * recorded. A key older than its expiry is claimed afresh.
 */
export interface IdempotencyRepository {
  claim(organizationId: string, key: string, requestHash: string, now: Date, expiresAt: Date): Promise<IdempotencyClaim>;
  complete(organizationId: string, key: string, messageIds: readonly string[]): Promise<void>;
  purgeExpired(now: Date): Promise<number>;
}
