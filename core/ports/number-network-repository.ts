import type { KnownNetwork } from '../domain/mobile-network.ts';

export interface StoredNumberNetwork extends KnownNetwork {
  e164: string;
  learnedAt: Date;
  /** A lookup's answer expires (the cache TTL); a delivery report's does not until a newer answer replaces it. */
  expiresAt: Date | null;
}

/**
 * Numbers whose network a lookup or a delivery report told us (docs/routing.md, "Number intelligence"):
 * platform-wide facts about numbers. `save` replaces the number's entry; `find` ignores an expired one;
 * `changedSince` feeds every process's in-memory corrections (learned after `since`, oldest first, at
 * most `limit`).
 */
export interface NumberNetworkRepository {
  save(entry: StoredNumberNetwork): Promise<void>;
  find(e164: string, now: Date): Promise<StoredNumberNetwork | null>;
  changedSince(since: Date, limit: number): Promise<StoredNumberNetwork[]>;
}
