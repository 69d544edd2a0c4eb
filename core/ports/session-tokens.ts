/** What a dashboard session token says about its bearer. */
export interface SessionClaims {
  userId: string;
  /** Present on an impersonation token: the administrator behind it and the only organization it opens. */
  impersonatorId?: string;
  organizationId?: string;
  expiresAt: Date;
  /** A unique id per token (JWT `jti`), so one token can be revoked; '' for tokens issued without one. */
  tokenId: string;
  /** When the token was issued (millisecond precision), compared with a user's session cutoff. */
  issuedAt: Date;
}

/** Issues and verifies signed session tokens (HS256 JWTs in production). */
export interface SessionTokens {
  issue(claims: Omit<SessionClaims, 'expiresAt' | 'tokenId' | 'issuedAt'>, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }>;
  /** Throws AppError UNAUTHORIZED for a bad, tampered or expired token. */
  verify(token: string): Promise<SessionClaims>;
}
