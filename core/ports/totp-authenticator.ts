/** RFC 6238 time-based one-time passwords (SHA-1, 6 digits, 30 s steps: what authenticator apps use). */
export interface TotpAuthenticator {
  /** A new random Base32 secret (at least 160 bits). */
  newSecret(): string;
  /** The `otpauth://totp/...` URI an authenticator app scans or imports. */
  uri(secret: string, accountName: string, issuer: string): string;
  /**
   * The time step the code belongs to when it is valid at `at` (the current step, or one step either side for
   * clock drift) and later than `afterStep`; null otherwise. Constant-time comparison.
   */
  verify(secret: string, code: string, at: Date, afterStep: number | null): Promise<number | null>;
}
