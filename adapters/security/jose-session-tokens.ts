import { randomUUID } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../../core/errors.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { SessionClaims, SessionTokens } from '../../core/ports/session-tokens.ts';

const ISSUER = 'nkra';
const AUDIENCE = 'nkra-dashboard';

/** HS256 JWTs signed with the configured secret. */
export class JoseSessionTokens implements SessionTokens {
  readonly #key: Uint8Array;
  readonly #clock: Clock;
  constructor(secret: string, clock: Clock) {
    this.#key = new TextEncoder().encode(secret);
    this.#clock = clock;
  }

  async issue(claims: Omit<SessionClaims, 'expiresAt' | 'tokenId' | 'issuedAt'>, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }> {
    const nowMs = this.#clock.now().getTime();
    const nowSeconds = Math.floor(nowMs / 1000);
    const exp = nowSeconds + ttlSeconds;
    // `iat` has whole seconds; a reset's cutoff needs to tell a token issued just before it from one just after.
    const payload: Record<string, string | number> = { iat_ms: nowMs };
    if (claims.impersonatorId) payload['imp'] = claims.impersonatorId;
    if (claims.organizationId) payload['org'] = claims.organizationId;
    const token = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId).setIssuer(ISSUER).setAudience(AUDIENCE)
      .setIssuedAt(nowSeconds).setExpirationTime(exp).setJti(randomUUID())
      .sign(this.#key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  async verify(token: string): Promise<SessionClaims> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'], issuer: ISSUER, audience: AUDIENCE, currentDate: this.#clock.now(),
      });
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') throw new AppError('UNAUTHORIZED', 'Invalid session token');
      const issuedMs = typeof payload['iat_ms'] === 'number' ? payload['iat_ms'] : (payload.iat ?? 0) * 1000;
      const claims: SessionClaims = { userId: payload.sub, expiresAt: new Date(payload.exp * 1000), tokenId: payload.jti ?? '', issuedAt: new Date(issuedMs) };
      if (typeof payload['imp'] === 'string') claims.impersonatorId = payload['imp'];
      if (typeof payload['org'] === 'string') claims.organizationId = payload['org'];
      return claims;
    } catch (error) {
      if (error instanceof AppError) throw error;
      const expired = error instanceof errors.JWTExpired;
      throw new AppError('UNAUTHORIZED', expired ? 'Session token has expired' : 'Invalid session token');
    }
  }
}
