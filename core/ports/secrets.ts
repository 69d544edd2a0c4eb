/** Randomness and hashing for API keys and one-time tokens (not for passwords). */
export interface Secrets {
  /** A URL-safe random string carrying at least `bytes` bytes of entropy. */
  randomToken(bytes?: number): string;
  /** Lowercase hex SHA-256 of the text. */
  sha256(text: string): string;
  /** Lowercase hex HMAC-SHA256 of the text under the key (inbox subscriber hashes, docs/inbox.md). */
  hmacSha256(key: string, text: string): string;
  /** Compares two strings in constant time. */
  safeEqual(a: string, b: string): boolean;
}
