export interface RateLimitVerdict {
  allowed: boolean;
  /** Hits counted in the current window, including this one. */
  count: number;
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters shared by every process (PostgreSQL in production), used for login and
 * password-reset throttling and for fraud velocity caps.
 */
export interface RateLimiter {
  /** Counts one hit for `key` and says whether it is within `limit` hits per `windowSeconds`. */
  hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitVerdict>;
  /** Says whether `key` is still within `limit` hits per `windowSeconds`, without counting one (count: hits so far). */
  check(key: string, limit: number, windowSeconds: number): Promise<RateLimitVerdict>;
  /** Forgets the hits of `key` counted per `windowSeconds` (a completed password reset lifts the login throttles). */
  clear(key: string, windowSeconds: number): Promise<void>;
}
