/**
 * Ends dashboard sessions before their tokens expire (tokens are signed and otherwise stateless):
 * one token (log out, leaving an impersonation) or every token of a user issued before a moment
 * (a password reset). Global, not tenant data. Checked on every JWT request, in one lookup.
 */
export interface SessionRevocationRepository {
  /** Refuses this token from now on; the entry can be purged once the token would have expired anyway. */
  revokeToken(tokenId: string, expiresAt: Date): Promise<void>;
  /** Refuses every token of the user issued before `before` (a later cutoff replaces an earlier one). */
  revokeUserSessionsBefore(userId: string, before: Date): Promise<void>;
  /** True when the token was revoked, or issued before its user's cutoff. */
  isRevoked(session: { tokenId: string; userId: string; issuedAt: Date }): Promise<boolean>;
  /** Deletes token revocations past their token's expiry; answers how many. */
  purgeExpired(now: Date): Promise<number>;
}
