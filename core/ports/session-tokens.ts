/** What a dashboard session token says about its bearer. */
export interface SessionClaims {
  userId: string;
  /** Present on an impersonation token: the administrator behind it and the only organization it opens. */
  impersonatorId?: string;
  organizationId?: string;
  expiresAt: Date;
}

/** Issues and verifies signed session tokens (HS256 JWTs in production). */
export interface SessionTokens {
  issue(claims: Omit<SessionClaims, 'expiresAt'>, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }>;
  /** Throws AppError UNAUTHORIZED for a bad, tampered or expired token. */
  verify(token: string): Promise<SessionClaims>;
}
