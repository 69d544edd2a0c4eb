/** Slow, salted password hashing (argon2id in production). Never used for API keys. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or a malformed hash; never throws for those. */
  verify(hash: string, password: string): Promise<boolean>;
}
