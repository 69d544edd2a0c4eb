export interface PasswordReset {
  id: string;
  userId: string;
  /** SHA-256 of the emailed token; the token itself is never stored. */
  tokenHash: string;
  expiresAt: Date;
  usedAt: Date | null;
  createdAt: Date;
}

/** Single-use password reset tokens. */
export interface PasswordResetRepository {
  insert(reset: PasswordReset): Promise<void>;
  /**
   * Atomically marks an unused, unexpired token as used and returns its user id; null when the token
   * is unknown, used or expired. Two concurrent calls never both succeed.
   */
  consume(tokenHash: string, now: Date): Promise<string | null>;
  /** Marks every open token of the user used (after a successful reset). */
  invalidateForUser(userId: string, now: Date): Promise<void>;
}
