import { CachedApiKeyLookup } from '../../adapters/cache/cached-api-key-lookup.ts';
import { FixedClock } from '../../adapters/memory/fixed-clock.ts';
import { InMemoryEmailSender } from '../../adapters/memory/in-memory-email-sender.ts';
import { InMemoryRateLimiter } from '../../adapters/memory/in-memory-rate-limiter.ts';
import { InMemoryStorage } from '../../adapters/memory/in-memory-storage.ts';
import { JoseSessionTokens } from '../../adapters/security/jose-session-tokens.ts';
import { NodeSecrets } from '../../adapters/security/node-secrets.ts';
import type { IdGenerator } from '../../core/ports/id-generator.ts';
import type { PasswordHasher } from '../../core/ports/password-hasher.ts';

/** Ids 'id-1', 'id-2' ... : readable and deterministic in tests. */
export class SequentialIds implements IdGenerator {
  #n = 0;
  next(): string { this.#n += 1; return `id-${String(this.#n).padStart(6, '0')}`; }
}

/** A fast stand-in for argon2 in unit tests (the real hasher is covered by its own test). */
export class FakePasswordHasher implements PasswordHasher {
  async hash(password: string): Promise<string> { return `fake$${password}`; }
  async verify(hash: string, password: string): Promise<boolean> { return hash === `fake$${password}`; }
}

/** Every port the core needs, on in-memory adapters, for use-case tests. */
export function buildCore() {
  const ids = new SequentialIds();
  const clock = new FixedClock();
  const storage = new InMemoryStorage(ids);
  const secrets = new NodeSecrets();
  return {
    ids, clock, storage, secrets,
    passwords: new FakePasswordHasher(),
    sessions: new JoseSessionTokens('unit-test-secret-unit-test-secret-0123', clock),
    rateLimiter: new InMemoryRateLimiter(clock),
    email: new InMemoryEmailSender(),
    apiKeyLookup: new CachedApiKeyLookup(storage, { ttlMs: 0 }),
    sessionTtlSeconds: 3600,
  };
}
export type TestCore = ReturnType<typeof buildCore>;
