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
  /**
   * Takes the number's paid-lookup claim until `until` when no unexpired claim holds it (true), else
   * false: one lookup (and one charge) per number at a time and, once settled for the TTL, per TTL,
   * across every process and send path (docs/routing.md, "Number lookups").
   */
  claimLookup(e164: string, organizationId: string, now: Date, until: Date): Promise<boolean>;
  /** The lookup was answered: the claim holds until `until` (the TTL). */
  settleLookup(e164: string, until: Date): Promise<void>;
  /** The lookup failed (its charge refunded): the number may be looked up again at once. */
  releaseLookup(e164: string): Promise<void>;
}
